#!/usr/bin/env python3
"""Helper of bench/fio-roundtrip --examples: fio's examples that dbio translates, run by both.

For each examples/*.fio that `dbio fio FILE --dry-run` translates to one `dbio run` on
temporary files: that line with --duration D, --size S and one temporary target in place of
the job's length, size and files (the target made once by dbio, S long, so neither tool reads
holes); dbio's `--as-fio` job of it, checked with `fio --parse-only`; then ROUNDS pairs of
dbio's run and fio's job on that target, the order alternating (dbio first in odd rounds).
Per example: the medians of IOPS, MB/s and p99 of each tool and the median and spread of the
per-pair ratios dbio/fio. fio's p99 is its clat, or its total latency (lat, with
lat_percentiles=1 added to the job) when the job's header says that one is dbio's (--rate).
Examples whose --as-fio dbio refuses are listed with its reason, and so are the others left out.
"""

import argparse
import json
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile

import fio_examples as fx

# The translated line's flags the roundtrip replaces: length, size and files.
REPLACED = {"--duration", "--bytes", "--ops", "--size", "--target"}
# The header of an --as-fio job that names fio's total latency as dbio's.
LAT_HEADER = re.compile(r"^;.*\(lat, not clat\)", re.M)


class Failed(Exception):
    """A run of either tool that did not end well: the tool, its status and why."""


def rewrite(line, target, duration, size):
    """The `dbio run` arguments (from `run` on) of a translated line, with our length, size
    and target in place of the job's."""
    words = iter(shlex.split(line)[1:])
    out = []
    for w in words:
        if w.split("=", 1)[0] in REPLACED:
            if "=" not in w:
                next(words, None)
            continue
        out.append(w)
    return out + ["--duration", duration, "--size", size, "--target", target]


def checked(argv, cwd, tool, timeout=900):
    """stdout of argv, or Failed naming the tool, its status and the line that says why."""
    status, out, err = fx.call(argv, cwd, timeout)
    if status != 0:
        raise Failed(f"{tool}: {fx.failure(status, err or out)}")
    return out


def dbio_figures(path):
    """(IOPS, MB/s, p99 µs) of a dbio result: both directions added, the worse p99."""
    with open(path) as f:
        d = json.load(f)
    dirs = [d[k] for k in ("read", "write") if d.get(k)]
    return (sum(x["iops"] for x in dirs), sum(x["mb_s"] for x in dirs),
            max(x["latency_ns"]["p99"] for x in dirs) / 1e3)


def fio_figures(path, lat):
    """(IOPS, MB/s, p99 µs) of fio's JSON: every job and direction added, the worse p99 of
    clat_ns, or of lat_ns when lat."""
    with open(path) as f:
        text = f.read()
    d = json.loads(text[text.index("{"):])
    dirs = [j[k] for j in d["jobs"] for k in ("read", "write") if j[k]["total_ios"] > 0]
    key = "lat_ns" if lat else "clat_ns"
    return (sum(x["iops"] for x in dirs), sum(x["bw_bytes"] for x in dirs) / 1e6,
            max(x[key]["percentile"]["99.000000"] for x in dirs) / 1e3)


def pairs(args, job, lat, work, opts):
    """The figures of each tool over opts.rounds pairs: {'dbio': [...], 'fio': [...]}."""
    runs = {"dbio": [], "fio": []}
    dj, fj = os.path.join(work, "d.json"), os.path.join(work, "f.json")
    for r in range(opts.rounds):
        for tool in (("dbio", "fio") if r % 2 == 0 else ("fio", "dbio")):
            if tool == "dbio":
                checked([opts.dbio] + args + ["-q", "--no-store", "--json", dj], work, "dbio")
                runs["dbio"].append(dbio_figures(dj))
            else:
                checked(["fio", job, "--output-format=json", f"--output={fj}"], work, "fio")
                runs["fio"].append(fio_figures(fj, lat))
            i, m, p = runs[tool][-1]
            print(f"    round {r + 1} {tool:4} {i:12,.0f} IOPS {m:10.1f} MB/s  p99 {p:10.1f} us",
                  flush=True)
    return runs


def ratio(runs, j):
    """(median, low, high) of the per-pair ratios dbio/fio of figure j; None when fio's is 0."""
    rs = [d[j] / f[j] for d, f in zip(runs["dbio"], runs["fio"]) if f[j]]
    return (statistics.median(rs), min(rs), max(rs)) if len(rs) == len(runs["fio"]) else None


def one(name, line, work, opts):
    """The row of one example, or (None, why) when it cannot be compared."""
    args = rewrite(line, opts.target, opts.duration, opts.size)
    print(f"{name}: dbio {shlex.join(args)}", flush=True)
    status, job_text, err = fx.call([opts.dbio] + args + ["--as-fio"], work, 60)
    if status != 0:
        return None, f"--as-fio refused: {fx.failure(status, err)}"
    job = os.path.join(work, "job.fio")
    with open(job, "w") as f:
        f.write(job_text)
    try:
        checked(["fio", "--parse-only", job], work, "fio --parse-only of dbio's job")
    except Failed as e:
        return None, str(e)
    lat = bool(LAT_HEADER.search(job_text))
    if lat:
        with open(job, "w") as f:
            f.write(job_text.replace("[global]\n", "[global]\nlat_percentiles=1\n", 1))
    try:
        runs = pairs(args, job, lat, work, opts)
    except Failed as e:
        return None, f"failed: {e}"
    med = {t: [statistics.median(x[j] for x in runs[t]) for j in range(3)] for t in runs}
    return (med, ratio(runs, 0), ratio(runs, 2), "lat" if lat else "clat"), None


def spread(r):
    return f"{r[0]:.3f} ({r[1]:.3f}-{r[2]:.3f})" if r else "-"


def summary(rows, left_out):
    print(f"\n  {'example':30}{'dbio IOPS':>11}{'fio IOPS':>11}  {'IOPS dbio/fio':22}"
          f"{'dbio MB/s':>10}{'fio MB/s':>10}{'dbio p99':>10}{'fio p99':>10}  p99 dbio/fio")
    for name, (med, iops, p99, which) in rows:
        d, f = med["dbio"], med["fio"]
        print(f"  {name:30}{d[0]:11,.0f}{f[0]:11,.0f}  {spread(iops):22}{d[1]:10.1f}{f[1]:10.1f}"
              f"{d[2]:10.1f}{f[2]:10.1f}  {spread(p99)} (fio {which})")
    print("  (medians; p99 in µs; ratios: median of the per-pair ratios (lowest-highest))")
    if left_out:
        print("\n  left out:")
        for name, why in left_out:
            print(f"  {name:30}{fx.clip(why, 200)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", required=True)
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", default="10s")
    ap.add_argument("--size", default="256m")
    ap.add_argument("--only")
    ap.add_argument("--work-dir", required=True)
    opts = ap.parse_args()
    signal.signal(signal.SIGTERM, fx.on_term)
    names = fx.pick(opts.examples, opts.only, "bench/fio-roundtrip")
    with tempfile.TemporaryDirectory(prefix="dbio-fio-roundtrip.", dir=opts.work_dir) as work:
        opts.target = os.path.join(work, "target.dat")
        fio = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout
        print(f"dbio {opts.dbio}; {fio.strip()}; {opts.rounds} pair(s) of {opts.duration} per"
              f" example on {opts.target} ({opts.size})")
        print(f"load average before: {fx.load_average()}\n")
        checked([opts.dbio, "run", "--target", opts.target, "--size", opts.size, "--rw",
                 "randread", "--ops", "1", "-q", "--no-store"], work, "dbio (making the target)")
        rows, left_out, untranslated = [], [], []
        for name in names:
            path = os.path.join(opts.examples, name)
            outcome, detail, lines = fx.dry_run(opts.dbio, path, opts.work_dir, 120)
            if outcome != "translates":
                untranslated.append(name)
            elif len(lines) != 1:
                left_out.append((name, f"{len(lines)} dbio runs, not one"))
            elif not fx.targets_here(lines, work):
                left_out.append((name, f"target not temporary: {fx.targets(lines[0])}"))
            else:
                row, why = one(name, lines[0], work, opts)
                if row:
                    rows.append((name, row))
                else:
                    print(f"    {why}")
                    left_out.append((name, why))
        if untranslated:
            left_out.append((f"{len(untranslated)} other(s)", "not translated by dbio fio"
                             " (refused or wrong: bench/fio-examples says which)"))
        summary(rows, left_out)
    print(f"\nload average after: {fx.load_average()}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
    except Failed as e:
        sys.exit(f"bench/fio-roundtrip: {e}")
