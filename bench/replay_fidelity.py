#!/usr/bin/env python3
"""Helper of bench/replay-fidelity: a trace captured, then replayed by dbio and by fio in
alternating pairs.

Usage: replay_fidelity.py DBIO SRC DST PAIRS DURATION RATE WORKDIR
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import time


def capture(dbio, src, secs, rate, work):
    """fio at `rate` IOPS on `src` under a capture: the trace's path and its summary."""
    trace = os.path.join(work, "t.trace")
    cap = subprocess.Popen([dbio, "capture", "--device", src, "--out", trace, "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.7)
    subprocess.run(["fio", "--name=load", f"--filename={src}", "--rw=randrw", "--rwmixread=70",
                    "--bs=8k", "--iodepth=16", "--ioengine=io_uring", "--direct=1",
                    "--time_based", f"--runtime={secs}", f"--rate_iops={rate}",
                    "--randrepeat=0", "--norandommap", "--output-format=json"],
                   check=True, capture_output=True)
    time.sleep(0.3)
    os.kill(cap.pid, signal.SIGINT)
    cap.wait()
    s = json.loads(subprocess.run([dbio, "capture", "--summary", trace, "--json", "-"],
                                  check=True, capture_output=True, text=True).stdout)
    subprocess.run([dbio, "capture", "--export", "fio-iolog", "--from", trace, "--out",
                    os.path.join(work, "t.iolog")], check=True, capture_output=True)
    return trace, s


def dbio_replay(dbio, trace, dst, speed, work):
    """dbio's replay: (seconds taken, requests issued, on-time %, lag p50 µs, lag p99 µs)."""
    out = os.path.join(work, "r.json")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([dbio, "replay", trace, "--target", dst, "--destroy-data", "--speed",
                    f"{speed}x", "--no-store", "-q", "--json", out], check=True,
                   capture_output=True)
    r = json.load(open(out))
    rp = r["replay"]
    return (r["measured_secs"], rp["issued"], rp["on_time_pct"], rp["lag_ns"]["p50"] / 1e3,
            rp["lag_ns"]["p99"] / 1e3)


def fio_replay(iolog, dst, speed):
    """fio's replay of the iolog redirected to `dst`: (seconds taken, I/Os)."""
    out = subprocess.run(["fio", "--name=replay", f"--read_iolog={iolog}",
                          f"--replay_redirect={dst}", "--ioengine=io_uring", "--iodepth=16",
                          "--direct=1", f"--replay_time_scale={round(100 * speed)}",
                          "--output-format=json"], check=True, capture_output=True,
                         text=True).stdout
    j = json.loads(out[out.index("{"):])["jobs"][0]
    ios = j["read"]["total_ios"] + j["write"]["total_ios"]
    return j["job_runtime"] / 1e3, ios


def spread(v):
    return f"{statistics.median(v):.3f} (spread {min(v):.3f}-{max(v):.3f})"


def main():
    dbio, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    pairs, secs, rate, work = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
    trace, s = capture(dbio, src, secs, rate, work)
    span = s["active_seconds"]
    print(f"  trace: {s['requests']:,} requests over {span:.2f} s, lost events {s['lost_events']}")
    for speed in (1, 2):
        want = span / speed
        d_ratio, f_ratio, on_time, p50, p99, counts = [], [], [], [], [], []
        for i in range(pairs):
            for tool in (["dbio", "fio"] if i % 2 == 0 else ["fio", "dbio"]):
                if tool == "dbio":
                    took, issued, ot, l50, l99 = dbio_replay(dbio, trace, dst, speed, work)
                    d_ratio.append(took / want)
                    on_time.append(ot)
                    p50.append(l50)
                    p99.append(l99)
                    counts.append(("dbio", issued))
                else:
                    took, ios = fio_replay(os.path.join(work, "t.iolog"), dst, speed)
                    f_ratio.append(took / want)
                    counts.append(("fio", ios))
        print(f"  {speed}x: replay time / captured span: dbio {spread(d_ratio)}, fio "
              f"{spread(f_ratio)}; dbio on time {statistics.median(on_time):.1f} % "
              f"(spread {min(on_time):.1f}-{max(on_time):.1f}), lag p50 "
              f"{statistics.median(p50):.0f} µs, p99 {statistics.median(p99):.0f} µs")
        print("    requests issued: " + ", ".join(f"{t} {n:,}" for t, n in counts))


if __name__ == "__main__":
    main()
