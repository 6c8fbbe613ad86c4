#!/usr/bin/env python3
"""Helper of bench/capture-cost: fio alone and fio under `dbio capture`, then dbio runs
without and with `--device-latency`, in alternating pairs.

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


def run(dbio, dev, secs, rate, probe, tmp):
    """dbio's own run of the same load, with or without its device-latency probe: (IOPS,
    probe CPU share of one CPU, requests the probe counted, dbio's I/Os, lost events)."""
    out = os.path.join(tmp, "r.json")
    cmd = [dbio, "run", "--target", dev, "--rw", "randread", "--bs", "8k", "--qd", "16",
           "--duration", f"{secs}s", "--no-store", "-q", "--json", out]
    if rate:
        cmd += ["--rate", str(rate)]
    if probe:
        cmd.append("--device-latency")
    subprocess.run(cmd, check=True, capture_output=True)
    r = json.load(open(out))
    d = r.get("device_latency") or {}
    reqs = (d.get("read") or {}).get("requests", 0)
    return (r["read"]["iops"], d.get("probe_cpu_pct", 0) / 100, reqs, r["read"]["ios"],
            d.get("lost_events", 0))


def scenario(name, pairs, alone_run, under_run, what):
    """Pairs of `alone_run` and `under_run` in alternating order; prints the medians."""
    alone, under, cpu, counts = [], [], [], []
    for i in range(pairs):
        for first in ([True, False] if i % 2 == 0 else [False, True]):
            if first:
                alone.append(alone_run()[0])
            else:
                iops, share, reqs, ios, lost = under_run()
                under.append(iops)
                cpu.append(share)
                counts.append((reqs, ios, lost))
    ratios = [u / a for u, a in zip(under, alone)]
    print(f"  {name}: IOPS alone {statistics.median(alone):,.0f}, with {what} "
          f"{statistics.median(under):,.0f}; ratio median {statistics.median(ratios):.3f} "
          f"(spread {min(ratios):.3f}-{max(ratios):.3f}); {what} CPU "
          f"{statistics.median(cpu) * 100:.1f} % of one CPU "
          f"(spread {min(cpu) * 100:.1f}-{max(cpu) * 100:.1f})")
    for reqs, ios, lost in counts:
        print(f"    {what} counted {reqs:,} requests, the load {ios:,} I/Os, lost events {lost}")
    return statistics.median(ratios), statistics.median(cpu)


def main():
    dbio, dev, pairs, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, load in [("fio under dbio capture", "capture"),
                           ("dbio run --device-latency", "probe")]:
            print(f" {name}:")
            for label, rate in [("fixed 50,000 IOPS", 50000), ("full rate", None)]:
                if load == "capture":
                    ratio, cpu = scenario(label, pairs, lambda: fio(dev, secs, rate),
                                          lambda: captured(dbio, dev, secs, rate, tmp),
                                          "capture")
                else:
                    ratio, cpu = scenario(label, pairs,
                                          lambda: run(dbio, dev, secs, rate, False, tmp),
                                          lambda: run(dbio, dev, secs, rate, True, tmp),
                                          "probe")
                verdicts.append((name, label, ratio, cpu, rate))
    for name, label, ratio, cpu, rate in verdicts:
        if rate:
            print(f"  {name} CPU at 50,000 IOPS under 10 % of one CPU: "
                  f"{'PASS' if cpu < 0.10 else 'FAIL'} ({cpu * 100:.1f} %)")
        else:
            print(f"  {name} full-rate IOPS ratio >= 0.90: "
                  f"{'PASS' if ratio >= 0.90 else 'FAIL'} ({ratio:.3f})")


if __name__ == "__main__":
    main()
