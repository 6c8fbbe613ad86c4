#!/usr/bin/env python3
"""Helper of bench/capture-cost: fio alone and fio under `dbio capture`, in alternating pairs.

Usage: capture_cost.py DBIO DEVICE PAIRS DURATION
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def fio(dev, secs, rate):
    """Runs fio on `dev` for `secs`; returns (IOPS, I/Os) from its JSON."""
    cmd = ["fio", "--name=load", f"--filename={dev}", "--rw=randread", "--bs=8k",
           "--iodepth=16", "--ioengine=io_uring", "--direct=1", "--time_based",
           f"--runtime={secs}", "--randrepeat=0", "--norandommap", "--output-format=json"]
    if rate:
        cmd.append(f"--rate_iops={rate}")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    r = json.loads(out[out.index("{"):])["jobs"][0]["read"]
    return r["iops"], r["total_ios"]


def captured(dbio, dev, secs, rate, tmp):
    """fio under a capture: (IOPS, capture CPU share of one CPU, requests in the trace,
    fio's I/Os)."""
    trace = os.path.join(tmp, "t.trace")
    if os.path.exists(trace):
        os.remove(trace)
    cap = subprocess.Popen([dbio, "capture", "--device", dev, "--out", trace, "-q"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    t0 = time.monotonic()
    iops, ios = fio(dev, secs, rate)
    time.sleep(0.3)
    os.kill(cap.pid, signal.SIGINT)
    _, _, ru = os.wait4(cap.pid, 0)
    wall = time.monotonic() - t0 + 0.5
    s = json.loads(subprocess.run([dbio, "capture", "--summary", trace, "--json", "-"],
                                  check=True, capture_output=True, text=True).stdout)
    return iops, (ru.ru_utime + ru.ru_stime) / wall, s["requests"], ios, s["lost_events"]


def scenario(name, dbio, dev, pairs, secs, rate):
    alone, under, cpu, counts = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(pairs):
            runs = ["alone", "captured"] if i % 2 == 0 else ["captured", "alone"]
            for what in runs:
                if what == "alone":
                    alone.append(fio(dev, secs, rate)[0])
                else:
                    iops, share, reqs, ios, lost = captured(dbio, dev, secs, rate, tmp)
                    under.append(iops)
                    cpu.append(share)
                    counts.append((reqs, ios, lost))
    ratios = [u / a for u, a in zip(under, alone)]
    print(f"  {name}: fio IOPS alone {statistics.median(alone):,.0f}, captured "
          f"{statistics.median(under):,.0f}; ratio median {statistics.median(ratios):.3f} "
          f"(spread {min(ratios):.3f}-{max(ratios):.3f}); capture CPU "
          f"{statistics.median(cpu) * 100:.1f} % of one CPU "
          f"(spread {min(cpu) * 100:.1f}-{max(cpu) * 100:.1f})")
    for reqs, ios, lost in counts:
        print(f"    trace {reqs:,} requests, fio {ios:,} I/Os, lost events {lost}")
    return statistics.median(ratios), statistics.median(cpu)


def main():
    dbio, dev, pairs, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    _, cpu = scenario("fixed 50,000 IOPS", dbio, dev, pairs, secs, 50000)
    ratio, _ = scenario("full rate", dbio, dev, pairs, secs, None)
    print(f"  capture CPU at 50,000 IOPS under 10 % of one CPU: "
          f"{'PASS' if cpu < 0.10 else 'FAIL'}; full-rate IOPS ratio >= 0.90: "
          f"{'PASS' if ratio >= 0.90 else 'FAIL'}")


if __name__ == "__main__":
    main()
