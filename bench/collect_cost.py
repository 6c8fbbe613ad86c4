#!/usr/bin/env python3
"""bench/collect_cost.py: what `dbio collect` costs (issue 28), see bench/collect-cost.

1. The collector's CPU and the database's query time: a private PostgreSQL (db_vs_pgio's
   Server: initdb in a temporary folder, its own port and socket) with --tables tables, each
   with a primary key (2 objects each: 10,000 objects by default) and a row; `dbio collect
   --interval 10s` runs against it for --duration seconds (the database otherwise idle: the
   cost is the round of queries over every object, and parsing and storing it).
   The collector's process CPU (user + system, getrusage of the child) over its wall time is
   its share of one CPU; the query time per interval is what dbio measured and stored in each
   sample (its round of queries, from the first statement to the last row).
2. The history's size: crates/store's collect_storage example writes a week at 60 s of
   1,000 objects that all do I/O in every interval (the worst case) and 4 devices, sample by
   sample as `dbio collect` does, and prints the file's size and the bytes per object-day.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from db_vs_pgio import Server, log  # noqa: E402


def cpu_cost(a, tmp):
    """Runs the collection; its CPU share, samples, and query times."""
    bindir = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: int(v) if v.isdigit() else 0)[-1]
    pg = Server(tmp, f"/usr/lib/postgresql/{bindir}/bin", a.port, "16MB")
    try:
        t = time.monotonic()
        pg.psql(f"""DO $$ BEGIN FOR i IN 1..{a.tables} LOOP
                      EXECUTE format('CREATE TABLE t%s (id int PRIMARY KEY, v int)', i);
                      EXECUTE format('INSERT INTO t%s VALUES (1, 1)', i);
                    END LOOP; END $$;""")
        log(f"{a.tables} tables with their keys ({2 * a.tables} objects) made in {time.monotonic() - t:.0f} s")
        db = os.path.join(tmp, "h.db")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.monotonic()
        subprocess.run([a.dbio, "collect", "--url", pg.url(), "--interval", f"{a.interval}s",
                        "--duration", f"{a.duration}s", "--name", "cost", "--db", db, "--quiet"],
                       check=True)
        wall = time.monotonic() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        out = subprocess.run([a.dbio, "collect", "--report", "cost", "--json", "-", "--db", db],
                             check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        objects = len(r["objects"])
        # The query time of each sample, as dbio measured and stored it.
        q = [p["query_ms"] for p in r["series"] if p.get("query_ms") is not None]
        return {"tables": a.tables, "objects_first_sample": objects, "interval_s": a.interval,
                "wall_s": round(wall, 1), "cpu_s": round(cpu, 3),
                "cpu_share_of_one_cpu": round(cpu / wall, 5), "samples": r["samples"],
                "query_ms_median": round(statistics.median(q), 1) if q else None,
                "query_ms_max": round(max(q), 1) if q else None}
    finally:
        pg.stop()


def storage(a, tmp, repo):
    """The collect_storage example's figures."""
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "dbio-store", "--example",
                    "collect_storage"], check=True, cwd=repo)
    exe = os.path.join(repo, "target", "release", "examples", "collect_storage")
    out = subprocess.run([exe, os.path.join(tmp, "s.db"), "1000", "4", "60", str(a.days)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--tables", type=int, default=5000)
    ap.add_argument("--interval", type=int, default=10)
    ap.add_argument("--duration", type=int, default=120)
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--port", type=int, default=55433)
    ap.add_argument("--skip-storage", action="store_true")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="collect-cost-")
    os.chmod(tmp, 0o755)
    try:
        c = cpu_cost(a, tmp)
        log(f"collector: {c['cpu_share_of_one_cpu'] * 100:.2f} % of one CPU over {c['wall_s']} s "
            f"({c['samples']} samples of {c['objects_first_sample']} objects at {a.interval} s); "
            f"the database's query time per interval: median {c['query_ms_median']} ms, "
            f"max {c['query_ms_max']} ms")
        res = {"cpu": c}
        if not a.skip_storage:
            s = storage(a, tmp, a.repo)
            log(f"history: {s['bytes'] / 1e6:.1f} MB for {s['days']} days at {s['interval_s']} s "
                f"of {s['objects']} busy objects and {s['devices']} devices ({s['samples_taken']} "
                f"samples taken, {s['samples_kept']} kept after the roll-up), "
                f"{s['bytes_per_object_day']:.0f} bytes per object-day; written in {s['write_s']} s")
            res["storage"] = s
        print(json.dumps(res, indent=2))
    finally:
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
