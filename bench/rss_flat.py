#!/usr/bin/env python3
"""Helper of bench/rss-flat: runs dbio for about --duration seconds and samples its VmRSS.

Two workloads: `run` (a closed-loop `dbio run` on --target for --duration) and `sim-sweep` (a
`dbio sweep` on the simulated device, steps of about --step seconds of wall time each, sized by
a short calibration run, twice as many as --duration needs; Ctrl-C (SIGINT) ends it after
--duration, as a user would, and it stops within its step).
Samples /proc/PID/status (VmRSS, VmHWM) of the dbio process at 1 s, then every 10 s, and once
more 1 s before the planned end. Reference: the sample at 60 s. End: the last sample. The peak
of the whole life, the end after the last sample included (writing the result), is the
process's ru_maxrss, from reaping it with wait4.
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


class Child:
    """The dbio process, reaped with wait4 (never by Popen) so that the peak resident memory
    of its whole life, its end included, is known: ru_maxrss (KiB on Linux)."""

    def __init__(self, p):
        self.p = p
        self.rc = None
        self.peak_kib = None

    def wait(self, timeout=None):
        """Its exit status once it has ended; None while it runs after timeout seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        while self.rc is None:
            pid, status, ru = os.wait4(self.p.pid, os.WNOHANG)
            if pid:
                self.rc = os.waitstatus_to_exitcode(status)
                self.peak_kib = ru.ru_maxrss
                self.p.returncode = self.rc
                break
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                break
            time.sleep(0.05 if left is None else min(0.05, left))
        return self.rc


def sim_ops_per_s(dbio, workdir):
    """I/Os per wall second of the simulated device at QD 32 (a 2 million I/O run)."""
    ops = 2_000_000
    cmd = [dbio, "run", "--engine", "sim", "--rw", "randrw", "--bs", "8k", "--qd", "32",
           "--ops", str(ops), "-q", "--no-store", "--json", os.path.join(workdir, "cal.json")]
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdin=subprocess.DEVNULL)
    return ops / (time.monotonic() - t0)


def command(o, out):
    """The dbio command line of the workload."""
    if o.mode == "run":
        return [o.dbio, "run", "--target", o.target, "--rw", "randrw", "--bs", "8k", "--qd",
                "32", "--threads", "1", "--duration", f"{o.duration}s", "--destroy-data",
                "--json", out, "-q", "--no-store"]
    rate = sim_ops_per_s(o.dbio, o.workdir)
    steps = max(2, 2 * o.duration // o.step)
    ops = int(rate * o.step)
    print(f"rss-flat: the simulated device runs {rate:,.0f} I/Os per wall second here; "
          f"{steps} steps of {ops:,} I/Os", flush=True)
    qds = ",".join(str(q) for q in range(1, steps + 1))
    return [o.dbio, "sweep", "--engine", "sim", "--sim", "nvme-gen3", "--rw", "randrw",
            "--bs", "8k", "--vary", f"qd={qds}", "--ops", str(ops), "--json", out, "-q",
            "--no-store"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--mode", choices=["run", "sim-sweep"], default="run")
    ap.add_argument("--target")
    ap.add_argument("--duration", type=int, required=True)
    ap.add_argument("--step", type=int, default=60, help="wall seconds per sweep step")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--json-out")
    o = ap.parse_args()
    if o.mode == "run" and not o.target:
        ap.error("--mode run needs --target")
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_term)

    out = os.path.join(o.workdir, "dbio.json")
    log = os.path.join(o.workdir, "dbio.log")
    cmd = command(o, out)
    shown = cmd if len(" ".join(cmd)) < 300 else [a if len(a) < 60 else a[:40] + "…" for a in cmd]
    print("rss-flat: " + " ".join(shown), flush=True)

    # Sample times, seconds after the start of dbio.
    times = [1] + list(range(INTERVAL, o.duration, INTERVAL))
    if o.duration - 1 > times[-1]:
        times.append(o.duration - 1)
    samples = []
    with open(log, "wb") as logf:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        child = Child(p)
        try:
            for t in times:
                delay = t0 + t - time.monotonic()
                if child.wait(max(delay, 0)) is not None:
                    break
                s = status_kib(p.pid)
                if s is None:
                    break
                at = time.monotonic() - t0
                samples.append({"t_s": round(at, 1), "rss_kib": s["VmRSS"],
                                "hwm_kib": s.get("VmHWM")})
                print(f"  t={at:6.1f} s  VmRSS {s['VmRSS'] / 1024:8.2f} MiB  "
                      f"VmHWM {s.get('VmHWM', 0) / 1024:8.2f} MiB", flush=True)
            if o.mode == "sim-sweep" and child.wait(0) is None:
                p.send_signal(signal.SIGINT)
                print("  (Ctrl-C sent to the sweep at the planned end)", flush=True)
                rc = child.wait()
                rc = 0 if rc == 130 else rc
            else:
                rc = child.wait()
        except (KeyboardInterrupt, Stop):
            if child.rc is None:
                p.send_signal(signal.SIGINT)
                if child.wait(15) is None:
                    p.kill()
                    child.wait()
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
    try:
        with open(out) as f:
            d = json.load(f)
    except FileNotFoundError:
        print("  (dbio wrote no JSON result)")
        d = {}
    runs = d.get("steps") or [d]
    iops = sum((r.get(k) or {}).get("iops", 0) for r in runs for k in ("read", "write")) / len(runs)
    ios = sum(r.get(k, {}).get("ios", 0) or 0 for r in runs for k in ("read", "write"))
    outcome = sorted({str((r.get("outcome") or {}).get("status")) for r in runs})
    print(f"  dbio ran {wall:.1f} s, {len(runs)} run(s) (measured "
          f"{sum(r.get('measured_secs', 0) for r in runs):.1f} s), "
          f"{iops:,.0f} IOPS read+write (mean of runs), {ios:,} I/Os, outcome {outcome}")
    # What the result itself holds in memory grows with the run: its per-second points,
    # each with its encoded latency histogram.
    series = [pt for r in runs for pt in r.get("timeseries") or []]
    hist_bytes = sum(len(pt.get("hist") or "") for pt in series)
    print(f"  the result keeps {len(series):,} per-second points, {hist_bytes / MIB:.2f} MiB of "
          f"encoded histograms in them ({hist_bytes / max(len(series), 1):,.0f} bytes a point)")

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
    peak_kib = child.peak_kib
    print(f"peak RSS of the whole process life, its end included (ru_maxrss): "
          f"{peak_kib / 1024:.2f} MiB; highest VmHWM sampled: "
          f"{max(s.get('hwm_kib') or 0 for s in samples) / 1024:.2f} MiB")
    print(f"rss-flat: {'PASS' if ok else 'FAIL'}")
    if o.json_out:
        with open(o.json_out, "w") as f:
            json.dump({"cmd": cmd, "mode": o.mode, "duration_s": o.duration,
                       "wall_s": wall, "runs": len(runs), "ios": ios, "points": len(series),
                       "hist_bytes": hist_bytes, "samples": samples,
                       "ref": ref, "end": end, "ratio": end["rss_kib"] / ref["rss_kib"],
                       "allowed_kib": allowed_kib, "pass": ok, "iops": iops,
                       "peak_rss_kib": peak_kib,
                       "dbio_outcome": outcome}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
