#!/usr/bin/env python3
"""Helper of bench/db-vs-pgio: one private PostgreSQL, pgio and `dbio db run` alternately on
the same amount of data with the same number of sessions, pgbench's select-only client beside.

Every run is measured the same way, from outside the tools:
  blks_read/s     pg_stat_database.blks_read of the database over the run, per second of the
                  run's measured time (pgio: its RUN_TIME, the loop of every session; its
                  backends report their counts when the function returns, so the snapshots are
                  taken before the launch and after the last session ends. dbio: its own window,
                  from its JSON, and the same figure from the outside snapshots for a check)
  CPU             user + system ticks from /proc of the server's processes (the postmaster and
                  every process under it) and of the client's (dbio, pgbench, pgio's psql), over
                  the same inner window of each run (from 2 s after its sessions start working to
                  1 s before they stop); client CPU / server CPU is the load generator's share
pgio is used as it is published: its setup.sh loads its tables, its pgio.sql and
pgio_get_rand.sql make its function, and each session runs `SELECT * FROM mypgio(...)` as its
runit.sh does. None of pgio's files is kept: they live in the temporary folder.
"""

import argparse
import json
import os
import pwd
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
USER = "bench"
DB = "bench"


def log(msg):
    print(msg, flush=True)


# ---- /proc ------------------------------------------------------------------------------------

def stat_of(pid):
    """(ppid, utime + stime ticks) of a process, None when it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
    except OSError:
        return None
    rest = s[s.rfind(")") + 2:].split()
    return int(rest[1]), int(rest[11]) + int(rest[12])


def tree(root):
    """{pid: ticks} of root and every process under it."""
    kids, ticks = {}, {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = stat_of(int(d))
            if st:
                kids.setdefault(st[0], []).append(int(d))
                ticks[int(d)] = st[1]
    out, todo = {}, [root]
    while todo:
        p = todo.pop()
        if p in ticks:
            out[p] = ticks[p]
            todo.extend(kids.get(p, []))
    return out


def cpu_between(a, b):
    """CPU seconds spent between two {pid: ticks} readings by the processes in both."""
    return sum(b[p] - a[p] for p in b if p in a) / CLK_TCK


# ---- the private server -------------------------------------------------------------------------

class Server:
    """A private PostgreSQL in a temporary folder, trust logins on 127.0.0.1 and its socket."""

    def __init__(self, tmp, bindir, port, shared_buffers):
        self.dir, self.bin, self.port = os.path.join(tmp, "pg"), bindir, port
        os.mkdir(self.dir)
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        if self.owner:
            os.chmod(tmp, 0o755)
            os.chown(self.dir, self.owner.pw_uid, self.owner.pw_gid)
        self.data = os.path.join(self.dir, "data")
        self.as_owner([f"{bindir}/initdb", "-D", self.data, "-U", USER, "-A", "trust", "--no-sync"])
        with open(os.path.join(self.data, "postgresql.auto.conf"), "a") as f:
            f.write(f"port = {port}\nlisten_addresses = '127.0.0.1'\n"
                    f"unix_socket_directories = '{self.dir}'\ntrack_io_timing = on\n"
                    f"track_wal_io_timing = on\nshared_buffers = {shared_buffers}\n"
                    "max_connections = 200\nautovacuum = off\nfsync = off\n"
                    "synchronous_commit = off\n")
        self.as_owner([f"{bindir}/pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"),
                       "-w", "-t", "120", "start"])
        self.psql("CREATE DATABASE bench", db="postgres")
        self.psql("CREATE DATABASE pgb", db="postgres")

    def as_owner(self, cmd):
        if self.owner:
            cmd = ["runuser", "-u", "postgres", "--"] + cmd
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    def conn_args(self, db=DB):
        return ["-h", self.dir, "-p", str(self.port), "-U", USER, db]

    def url(self):
        return f"postgres://{USER}@127.0.0.1:{self.port}/{DB}"

    def psql(self, sql, db=DB):
        out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-c", sql] + self.conn_args(db),
                             check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def blks_read(self):
        return int(self.psql("SELECT blks_read FROM pg_stat_database WHERE datname = 'bench'"))

    def postmaster(self):
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            return int(f.readline())

    def version(self):
        return self.psql("SHOW server_version")

    def stop(self):
        try:
            self.as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"])
        except subprocess.CalledProcessError:
            pass


# ---- pgio ---------------------------------------------------------------------------------------

def pgio_files(tmp, source):
    """pgio's files in tmp/pgio: cloned from GitHub, or from a given checkout or git directory."""
    dest = os.path.join(tmp, "pgio")
    if source and os.path.isfile(os.path.join(source, "pgio.sql")):
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".git"))
    else:
        url = source or "https://github.com/therealkevinc/pgio"
        r = subprocess.run(["git", "clone", "-q", "--depth", "1", url, dest],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"db-vs-pgio: cannot fetch pgio from {url}: {r.stderr.strip()}; give a "
                     "checkout or a git directory of github.com/therealkevinc/pgio with --pgio")
    os.makedirs(os.path.join(dest, "sql"), exist_ok=True)
    for f in os.listdir(dest):
        if f.endswith(".sql"):
            shutil.copy(os.path.join(dest, f), os.path.join(dest, "sql", f))
    return dest


def pgio_setup(pg, d, tables, size_mib):
    with open(os.path.join(d, "pgio.conf"), "w") as f:
        f.write(f"UPDATE_PCT=0\nRUN_TIME=10\nNUM_SCHEMAS={tables}\nNUM_THREADS={tables}\n"
                f"WORK_UNIT=255\nUPDATE_WORK_UNIT=8\nSCALE={size_mib}M\nDBNAME={DB}\n"
                f'CONNECT_STRING="{" ".join(pg.conn_args())}"\nCREATE_BASE_TABLE=TRUE\n')
    subprocess.run(["bash", "./setup.sh"], cwd=d, check=True, stdout=subprocess.DEVNULL)
    for f in ["pgio_get_rand.sql", "pgio.sql"]:
        subprocess.run(["psql", "-X", "-q", "-f", os.path.join(d, f)] + pg.conn_args(),
                       check=True, capture_output=True)
    n = int(pg.psql("SELECT count(*) FROM pg_class WHERE relname ~ '^pgio[0-9]+$'"))
    if n != tables:
        sys.exit(f"db-vs-pgio: pgio's setup.sh made {n} tables, not {tables}")


# ---- one run of each tool -----------------------------------------------------------------------

class Window:
    """CPU of the server's tree and the client's processes between two instants of a run."""

    def __init__(self, pg, clients):
        self.pg, self.clients, self.a, self.b = pg, clients, None, None

    def sample(self):
        pm = self.pg.postmaster()
        s = tree(pm)
        c = {}
        for p in self.clients():
            c.update(tree(p))
        return s, c, time.monotonic()

    def measure(self, start_at, end_at):
        """Samples at two instants (monotonic clock) in a thread; join() before reading."""
        def go():
            time.sleep(max(0.0, start_at - time.monotonic()))
            self.a = self.sample()
            time.sleep(max(0.0, end_at - time.monotonic()))
            self.b = self.sample()
        self.t = threading.Thread(target=go)
        self.t.start()

    def result(self):
        self.t.join()
        (sa, ca, ta), (sb, cb, tb) = self.a, self.b
        return cpu_between(sa, sb), cpu_between(ca, cb), tb - ta


def run_pgio(pg, d, sessions, tables, size_mib, secs):
    scale = size_mib * 1048576 // 8192
    before = pg.blks_read()
    procs = []
    w = Window(pg, lambda: [p.pid for p in procs])
    t0 = time.monotonic()
    w.measure(t0 + 2, t0 + secs - 1)
    for i in range(sessions):
        sql = f"SELECT * FROM mypgio('pgio{i % tables + 1}', 0, {secs}, {scale}, 255, 8);"
        procs.append(subprocess.Popen(["psql", "-X", "-q", "-c", sql] + pg.conn_args(),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            sys.exit(f"db-vs-pgio: a pgio session failed: {err.decode().strip()}")
    server, client, span = w.result()
    reads = pg.blks_read() - before
    return {"tool": "pgio", "work_unit": 255, "blks_read_s": reads / secs,
            "server_cpu_pct": server / span * 100, "client_cpu_pct": client / span * 100}


def run_dbio(pg, dbio, tmp, sessions, work_unit, secs, ramp=5):
    """`dbio db run`, with its default work unit when work_unit is None."""
    out = os.path.join(tmp, "dbio.json")
    before = pg.blks_read()
    cmd = [dbio, "db", "run", "--url", pg.url(), "--sessions", str(sessions), "--duration",
           f"{secs}s", "--ramp", f"{ramp}s", "--no-store", "-q", "--json", out]
    if work_unit:
        cmd += ["--work-unit", str(work_unit)]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    w = Window(pg, lambda: [p.pid])
    w.measure(t0 + ramp + 2, t0 + ramp + secs - 1)
    _, err = p.communicate()
    if p.returncode != 0:
        sys.exit(f"db-vs-pgio: dbio db run failed: {err.decode().strip()}")
    server, client, span = w.result()
    r = json.load(open(out))
    db = r["db"]
    own = db["database"]["physical_reads"] / r["measured_secs"]
    wu = db["spec"]["work_unit"]
    return {"tool": f"dbio wu{wu}" if work_unit else "dbio", "work_unit": wu, "blks_read_s": own,
            "outside_blks_read": pg.blks_read() - before,
            "server_cpu_pct": server / span * 100, "client_cpu_pct": client / span * 100,
            "own_dbio_cpu_s": db["dbio_cpu_s"], "own_server_cpu_s": db.get("server_cpu_s"),
            "ops_s": db["client"]["operations"] / r["measured_secs"]}


def run_pgbench(pg, sessions, secs):
    cmd = ["pgbench", "-n", "-S", "-c", str(sessions), "-j", "2", "-T", str(secs),
           "-h", "127.0.0.1", "-p", str(pg.port), "-U", USER, "pgb"]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    w = Window(pg, lambda: [p.pid])
    w.measure(t0 + 2, t0 + secs - 1)
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit(f"db-vs-pgio: pgbench failed: {err.strip()}")
    server, client, span = w.result()
    tps = next((float(l.split("=")[1].split()[0]) for l in out.splitlines()
                if l.startswith("tps")), 0.0)
    return {"tool": "pgbench -S", "tps": tps,
            "server_cpu_pct": server / span * 100, "client_cpu_pct": client / span * 100}


# ---- the bench ----------------------------------------------------------------------------------

def show(r):
    rate = f"{r['blks_read_s']:>12,.0f} blks_read/s" if "blks_read_s" in r else \
        f"{r['tps']:>12,.0f} tps        "
    ratio = r["client_cpu_pct"] / r["server_cpu_pct"] if r["server_cpu_pct"] else float("nan")
    extra = ""
    if "own_dbio_cpu_s" in r:
        extra = (f"  (dbio's own figures: dbio {r['own_dbio_cpu_s']:.2f} CPU-s, server "
                 f"{r['own_server_cpu_s'] or 0:.2f} CPU-s; {r['ops_s']:,.0f} ops/s)")
    log(f"  {r['tool']:<12} {rate}  server CPU {r['server_cpu_pct']:5.1f} %  client CPU "
        f"{r['client_cpu_pct']:5.1f} %  client/server {ratio * 100:5.1f} %{extra}")
    r["client_per_server"] = ratio


def spread(v):
    return f"{min(v):.3f}–{max(v):.3f}" if v else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--pgio")
    ap.add_argument("--sessions", type=int, default=16)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--size-mib", type=int, default=128)
    ap.add_argument("--duration", type=int, default=15)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--shared-buffers", default="16MB")
    ap.add_argument("--port", type=int, default=55432)
    ap.add_argument("--json-out")
    a = ap.parse_args()
    bindir = sorted((d for d in os.listdir("/usr/lib/postgresql")),
                    key=lambda v: int(v) if v.isdigit() else 0)[-1]
    bindir = f"/usr/lib/postgresql/{bindir}/bin"
    tmp = tempfile.mkdtemp(prefix="db-vs-pgio-")
    pg = None
    try:
        d = pgio_files(tmp, a.pgio)
        pg = Server(tmp, bindir, a.port, a.shared_buffers)
        log(f"PostgreSQL {pg.version()}, shared_buffers {a.shared_buffers}; {a.tables} tables "
            f"of {a.size_mib} MiB for each tool (one row per 8 KiB block), {a.sessions} sessions "
            f"({a.sessions // a.tables} per table), {a.duration} s per run, {a.pairs} pairs")
        t = time.monotonic()
        pgio_setup(pg, d, a.tables, a.size_mib)
        subprocess.run([a.dbio, "db", "setup", "--url", pg.url(), "--sessions", str(a.tables),
                        "--size", f"{a.size_mib}MiB", "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["pgbench", "-i", "-q", "-s", "10", "-h", "127.0.0.1", "-p",
                        str(pg.port), "-U", USER, "pgb"], check=True, capture_output=True)
        log(f"loaded pgio's tables (its setup.sh), dbio's (dbio db setup) and pgbench's "
            f"(scale 10) in {time.monotonic() - t:.0f} s")
        runs = []
        kinds = ["pgio", "dbio", "dbio64", "pgbench"]
        for i in range(a.pairs):
            order = kinds[i % 4:] + kinds[:i % 4]
            log(f"pair {i + 1}: {', '.join(order)}")
            for k in order:
                if k == "pgio":
                    r = run_pgio(pg, d, a.sessions, a.tables, a.size_mib, a.duration)
                elif k == "pgbench":
                    r = run_pgbench(pg, a.sessions, a.duration)
                else:
                    r = run_dbio(pg, a.dbio, tmp, a.sessions, int(k[4:] or 0), a.duration)
                r["pair"] = i
                show(r)
                runs.append(r)
        summary(runs, a)
        if a.json_out:
            json.dump(runs, open(a.json_out, "w"), indent=1)
    finally:
        if pg:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def summary(runs, a):
    by = lambda tool: [r for r in runs if r["tool"] == tool]
    med = lambda rs, k: statistics.median(r[k] for r in rs)
    pgio, dd, d64, pgb = by("pgio"), by("dbio"), by("dbio wu64"), by("pgbench -S")
    wu = dd[0]["work_unit"]
    log(f"\n== medians of {a.pairs} runs, {a.sessions} sessions")
    for name, rs in [("pgio (wu 255)", pgio), (f"dbio (default wu {wu})", dd),
                     ("dbio --work-unit 64", d64)]:
        log(f"  {name:<22} {med(rs, 'blks_read_s'):>12,.0f} blks_read/s  client/server CPU "
            f"{med(rs, 'client_per_server') * 100:5.1f} %")
    log(f"  {'pgbench -S':<22} {med(pgb, 'tps'):>12,.0f} tps          client/server CPU "
        f"{med(pgb, 'client_per_server') * 100:5.1f} %")
    for name, rs in [(f"dbio default (wu {wu})", dd), ("dbio --work-unit 64", d64)]:
        ratios = [r["blks_read_s"] / p["blks_read_s"] for r in rs for p in pgio
                  if p["pair"] == r["pair"]]
        m = statistics.median(ratios)
        log(f"  {name} / pgio blks_read/s: median of pair ratios {m:.3f} ({spread(ratios)}) "
            f"{'PASS' if m >= 0.9 else 'FAIL'} (target >= 0.9)")
    c = med(dd, "client_per_server")
    log(f"  dbio's CPU / the server's at {a.sessions} sessions, default work unit: "
        f"{c * 100:.1f} % ({spread([r['client_per_server'] * 100 for r in dd])} %) "
        f"{'PASS' if c < 0.10 else 'FAIL'} (target < 10 %); pgbench -S beside it: "
        f"{med(pgb, 'client_per_server') * 100:.1f} %; at --work-unit 64: "
        f"{med(d64, 'client_per_server') * 100:.1f} %")


if __name__ == "__main__":
    main()
