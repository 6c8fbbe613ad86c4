#!/usr/bin/env python3
"""Helper of bench/rss-flat: runs dbio for --duration seconds and samples its VmRSS.

Samples /proc/PID/status (VmRSS, VmHWM) of the dbio process at 1 s, then every 10 s, and once
more 1 s before the planned end. Reference: the sample at 60 s. End: the last sample.
PASS if |end - ref| <= max(5 % of ref, 2 MiB).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

INTERVAL = 10
REF_AT = 60
MIB = 1024 * 1024


class Stop(Exception):
    pass


def on_term(signum, frame):
    raise Stop()


def status_kib(pid):
    """{'VmRSS': kib, 'VmHWM': kib} of pid, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            out = {}
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0])
            return out if "VmRSS" in out else None
    except (FileNotFoundError, ProcessLookupError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--duration", type=int, required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--json-out")
    o = ap.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_term)

    out = os.path.join(o.workdir, "dbio.json")
    log = os.path.join(o.workdir, "dbio.log")
    cmd = [o.dbio, "run", "--target", o.target, "--rw", "randrw", "--bs", "8k", "--qd", "32",
           "--threads", "1", "--duration", f"{o.duration}s", "--destroy-data",
           "--json", out, "-q", "--no-store"]
    print("rss-flat: " + " ".join(cmd), flush=True)

    # Sample times, seconds after the start of dbio.
    times = [1] + list(range(INTERVAL, o.duration, INTERVAL))
    if o.duration - 1 > times[-1]:
        times.append(o.duration - 1)
    samples = []
    with open(log, "wb") as logf:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            for t in times:
                delay = t0 + t - time.monotonic()
                if delay > 0:
                    try:
                        p.wait(timeout=delay)
                    except subprocess.TimeoutExpired:
                        pass
                if p.poll() is not None:
                    break
                s = status_kib(p.pid)
                if s is None:
                    break
                at = time.monotonic() - t0
                samples.append({"t_s": round(at, 1), "rss_kib": s["VmRSS"],
                                "hwm_kib": s.get("VmHWM")})
                print(f"  t={at:6.1f} s  VmRSS {s['VmRSS'] / 1024:8.2f} MiB  "
                      f"VmHWM {s.get('VmHWM', 0) / 1024:8.2f} MiB", flush=True)
            rc = p.wait()
        except (KeyboardInterrupt, Stop):
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            print("\nbench/rss-flat: interrupted", file=sys.stderr)
            return 130
    wall = time.monotonic() - t0

    with open(log, errors="replace") as f:
        dbio_log = f.read().strip()
    if rc != 0:
        print(f"bench/rss-flat: dbio exited with status {rc} after {wall:.1f} s:\n{dbio_log}",
              file=sys.stderr)
        return 1
    if dbio_log:
        for line in dbio_log.splitlines():
            print(f"  dbio says: {line}")
    with open(out) as f:
        d = json.load(f)
    iops = sum((d.get(k) or {}).get("iops", 0) for k in ("read", "write"))
    print(f"  dbio ran {wall:.1f} s (measured {d.get('measured_secs', 0):.1f} s), "
          f"{iops:,.0f} IOPS read+write, outcome {d.get('outcome')}")

    ref = next((s for s in samples if s["t_s"] >= REF_AT), None)
    if ref is None or len(samples) < 2 or samples[-1] is ref:
        print(f"bench/rss-flat: error: not enough samples (dbio ended after {wall:.1f} s; "
              f"{len(samples)} samples)", file=sys.stderr)
        return 1
    end = samples[-1]
    diff_kib = end["rss_kib"] - ref["rss_kib"]
    allowed_kib = max(0.05 * ref["rss_kib"], 2 * MIB / 1024)
    ok = abs(diff_kib) <= allowed_kib
    print(f"\nRSS at {ref['t_s']:.0f} s: {ref['rss_kib'] / 1024:.2f} MiB; "
          f"at the end ({end['t_s']:.0f} s): {end['rss_kib'] / 1024:.2f} MiB; "
          f"ratio end/1 min {end['rss_kib'] / ref['rss_kib']:.4f} "
          f"(change {diff_kib / 1024:+.2f} MiB, allowed ±{allowed_kib / 1024:.2f} MiB)")
    print(f"rss-flat: {'PASS' if ok else 'FAIL'}")
    if o.json_out:
        with open(o.json_out, "w") as f:
            json.dump({"cmd": cmd, "duration_s": o.duration, "samples": samples,
                       "ref": ref, "end": end, "ratio": end["rss_kib"] / ref["rss_kib"],
                       "allowed_kib": allowed_kib, "pass": ok, "iops": iops,
                       "dbio_outcome": d.get("outcome")}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
