#!/usr/bin/env python3
"""Helper of bench/ab-binaries: two dbio binaries on one target, alternating in pairs.

Usage: ab_binaries.py OLD NEW TARGET PAIRS DURATION -- DBIO RUN FLAGS...
Each pair runs OLD and NEW once each (OLD first in even pairs, NEW first in odd ones) with the
same flags, and prints, for IOPS, process CPU per I/O (dbio's own getrusage) and p50, the
medians of each binary and the median and spread of the per-pair ratios NEW/OLD.
"""
import json
import statistics
import subprocess
import sys
import tempfile


def one(binary, target, duration, flags, out):
    """Runs `binary run` once and returns (IOPS, CPU µs per I/O, p50 µs) of its direction."""
    subprocess.run([binary, 'run', '--target', target, '--duration', duration, '--no-store',
                    '-q', '--json', out] + flags, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = json.load(open(out))
    d = r['read'] if r.get('read') else r['write']
    cpu = (r['cpu']['process_user_s'] + r['cpu']['process_sys_s']) / d['ios'] * 1e6
    return d['iops'], cpu, d['latency_ns']['p50'] / 1000


def main():
    old, new, target, pairs, duration = sys.argv[1:6]
    flags = sys.argv[7:]
    runs = {'old': [], 'new': []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(int(pairs)):
            order = [('old', old), ('new', new)]
            for name, binary in (order if i % 2 == 0 else order[::-1]):
                runs[name].append(one(binary, target, duration, flags, f'{tmp}/r.json'))
    print(f"  {' '.join(flags)}")
    for j, what in enumerate(('IOPS', 'CPU µs/IO', 'p50 µs')):
        ratios = [n[j] / o[j] for n, o in zip(runs['new'], runs['old'])]
        print(f"    {what:10} old {statistics.median(x[j] for x in runs['old']):12,.3f}"
              f"  new {statistics.median(x[j] for x in runs['new']):12,.3f}"
              f"  new/old: median {statistics.median(ratios):.3f}"
              f" (spread {min(ratios):.3f}-{max(ratios):.3f}; pairs {len(ratios)})")


if __name__ == '__main__':
    main()
