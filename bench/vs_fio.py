#!/usr/bin/env python3
"""Helper of bench/vs-fio: runs the fio/dbio pairs, measures every run the same way, and judges.

bench/vs-fio creates the targets (and removes them); this file only runs and measures.
Per run:
  IOPS, MB/s           from the tool's own JSON
  process CPU per I/O  (user + system) from getrusage(RUSAGE_CHILDREN) of this process, delta
                       around the subprocess, over the I/O count; start-up and teardown included
                       for both tools alike (fio's job processes are reaped by fio, so they count)
  machine CPU per I/O  busy jiffies (total - idle - iowait of /proc/stat's "cpu" line) over the
                       subprocess, in seconds, over the I/O count
  kernel threads       user + system jiffies of the kworker/* and ksoftirqd/* threads over the
                       subprocess, as % of one CPU: on the loop device they carry every I/O (the
                       loop worker reads the backing file, its completions run as softirq), for
                       both tools alike; printed for information, not judged
A threshold is judged on the median of the per-pair ratios (dbio run i against the fio run of
the same pair i); the ratio of the medians is printed next to it.
"""

import argparse
import re
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


class Stop(Exception):
    """SIGTERM from bench/vs-fio (it cleans up once we are gone)."""


def on_term(signum, frame):
    raise Stop()


class ToolError(Exception):
    pass


# ---- measuring one run --------------------------------------------------------------------------

def host_busy_jiffies():
    """(busy, total) jiffies from the aggregate cpu line; idle and iowait are not busy."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    total = sum(v)
    return total - v[3] - v[4], total


def background_busy_pct(secs=1.0):
    """Busy share of the whole machine while nothing of ours runs: other load skews CPU figures."""
    b0, t0 = host_busy_jiffies()
    time.sleep(secs)
    b1, t1 = host_busy_jiffies()
    return 100.0 * (b1 - b0) / max(1, t1 - t0)


def kernel_thread_jiffies():
    """{pid: user + system jiffies} of the kworker/* and ksoftirqd/* kernel threads."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                st = f.read()
        except OSError:
            continue  # gone meanwhile
        comm = st[st.index("(") + 1:st.rindex(")")]
        if comm.startswith(("kworker/", "ksoftirqd/")):
            fields = st[st.rindex(")") + 2:].split()
            out[pid] = int(fields[11]) + int(fields[12])
    return out


def run_measured(cmd, log_path):
    """Runs cmd with stdout/stderr to log_path; returns (rc, cpu_s, machine_busy_s, wall_s,
    kernel_threads_s)."""
    with open(log_path, "wb") as log:
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        kt0 = kernel_thread_jiffies()
        busy0, _ = host_busy_jiffies()
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            rc = p.wait()
        except BaseException:
            # Ctrl-C (the child got it too) or SIGTERM: let the tool stop, then go.
            try:
                p.send_signal(signal.SIGINT)
                p.wait(timeout=15)
            except BaseException:
                p.kill()
                p.wait()
            raise
        wall = time.monotonic() - t0
        busy1, _ = host_busy_jiffies()
        kt1 = kernel_thread_jiffies()
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    # Threads started during the run count from zero; threads that ended are lost (rare).
    kt = sum(j - kt0.get(pid, 0) for pid, j in kt1.items()) / CLK_TCK
    return rc, cpu, (busy1 - busy0) / CLK_TCK, wall, kt


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def dbio_figures(d, rw, what):
    """The figures of one dbio run result (a run, or one step of a sweep)."""
    status = (d.get("outcome") or {}).get("status")
    if d.get("partial") or status != "complete":
        # A partial or failed run is not a measurement; say what dbio reported.
        raise ToolError(f"dbio reported outcome {d.get('outcome')!r}, partial={d.get('partial')}: "
                        f"{what}")
    direction = "write" if rw in ("write", "randwrite") else "read"
    r = d.get(direction) or {}
    ios = r.get("ios", 0)
    if ios <= 0:
        raise ToolError(f"dbio reported no {direction}s: {what}")
    lat = r["latency_ns"]
    c = d["cpu"]
    return {
        "tool": "dbio", "iops": r["iops"], "mb_s": r["mb_s"], "ios": ios,
        "p50_us": lat["p50"] / 1e3, "p99_us": lat["p99"] / 1e3, "lat_mean_us": lat["mean"] / 1e3,
        "dbio_own_cpu_s": c["process_user_s"] + c["process_sys_s"],
        "dbio_measured_s": d.get("measured_secs"),
        "dbio_engine": d.get("engine"), "dbio_host_busy_pct": c.get("host_busy_pct"),
        "dbio_data": (d.get("data") or {}).get("description"),
        "dbio_warnings": [w.get("message", w) if isinstance(w, dict) else w
                          for w in d.get("warnings", [])],
    }


def run_dbio(opts, target, engine, rw, bs, qd, tag, extra=()):
    out = os.path.join(opts.workdir, f"{tag}.dbio.json")
    log = os.path.join(opts.workdir, f"{tag}.dbio.log")
    cmd = [opts.dbio, "run", "--target", target, "--engine", engine, "--rw", rw, "--bs", bs,
           "--qd", str(qd), "--threads", "1", "--duration", f"{opts.duration}s",
           "--cpu-idle", opts.cpu_idle, *extra, "--json", out, "-q", "--no-store"]
    rc, cpu, busy, wall, kt = run_measured(cmd, log)
    if rc != 0:
        raise ToolError(f"dbio exited with status {rc}: {' '.join(cmd)}\n{tail(log)}")
    with open(out) as f:
        run = dbio_figures(json.load(f), rw, f"{' '.join(cmd)}\n{tail(log)}")
    with open(log, errors="replace") as f:
        run["stderr"] = f.read().strip()
    run.update({"cmd": cmd, "proc_cpu_s": cpu, "machine_busy_s": busy, "wall_s": wall,
                "kernel_threads_s": kt})
    return run


def run_dbio_sweep(opts, target, rw, bs, depths, tag):
    """One `dbio sweep --vary qd=...`: a run per depth. The process CPU of the whole sweep is
    shared out over the steps by dbio's own per-step figure (start-up counted once)."""
    out = os.path.join(opts.workdir, f"{tag}.dbio.json")
    log = os.path.join(opts.workdir, f"{tag}.dbio.log")
    cmd = [opts.dbio, "sweep", "--target", target, "--rw", rw, "--bs", bs, "--threads", "1",
           "--vary", "qd=" + ",".join(str(q) for q in depths),
           "--duration", f"{opts.duration}s", "--cpu-idle", opts.cpu_idle,
           "--json", out, "-q", "--no-store"]
    rc, cpu, busy, wall, kt = run_measured(cmd, log)
    if rc != 0:
        raise ToolError(f"dbio sweep exited with status {rc}: {' '.join(cmd)}\n{tail(log)}")
    with open(out) as f:
        steps = json.load(f)["steps"]
    runs = [dbio_figures(st, rw, f"{' '.join(cmd)}\n{tail(log)}") for st in steps]
    own = sum(r["dbio_own_cpu_s"] for r in runs) or 1.0
    for r in runs:
        share = r["dbio_own_cpu_s"] / own
        r.update({"cmd": cmd, "proc_cpu_s": cpu * share, "machine_busy_s": busy * share,
                  "wall_s": wall * share, "kernel_threads_s": kt * share})
    return runs


def run_fio(opts, args, tag):
    out = os.path.join(opts.workdir, f"{tag}.fio.json")
    log = os.path.join(opts.workdir, f"{tag}.fio.log")
    cmd = ["fio", f"--name={tag}", *args, "--numjobs=1", "--time_based",
           f"--runtime={opts.duration}", "--lat_percentiles=1", "--output-format=json",
           f"--output={out}"]
    rc, cpu, busy, wall, kt = run_measured(cmd, log)
    if rc != 0:
        raise ToolError(f"fio exited with status {rc}: {' '.join(cmd)}\n{tail(log)}\n{tail(out)}")
    with open(out) as f:
        d = json.load(f)
    j = d["jobs"][0]
    if j.get("error"):
        raise ToolError(f"fio job error {j['error']}: {' '.join(cmd)}\n{tail(log)}")
    r = j["write"] if j["write"]["total_ios"] > 0 else j["read"]
    ios = r["total_ios"]
    if ios <= 0:
        raise ToolError(f"fio reported no I/O: {' '.join(cmd)}\n{tail(log)}")
    lat = r["lat_ns"]
    pct = lat.get("percentile") or {}
    # With fdatasync=N fio times each flush apart ("sync"); dbio counts a write as done once
    # its flush is, so the comparable mean adds the flushes' time per write.
    # (fio 3.33 leaves sync.total_ios at 0; the flush count is sync.lat_ns.N.)
    sync = (j.get("sync") or {}).get("lat_ns") or {}
    sync_per_write = sync.get("mean", 0.0) * sync.get("N", 0) / ios
    return {
        "tool": "fio", "cmd": cmd, "iops": r["iops"], "mb_s": r["bw_bytes"] / 1e6, "ios": ios,
        "p50_us": pct.get("50.000000", float("nan")) / 1e3,
        "p99_us": pct.get("99.000000", float("nan")) / 1e3,
        "lat_mean_us": (lat["mean"] + sync_per_write) / 1e3,
        "proc_cpu_s": cpu, "machine_busy_s": busy, "wall_s": wall, "kernel_threads_s": kt,
        "fio_usr_cpu_pct": j.get("usr_cpu"), "fio_sys_cpu_pct": j.get("sys_cpu"),
        "fio_version": d.get("fio version"),
    }


def run_t_io_uring(opts, dev, qd, tag):
    """fio's t/io_uring (built from fio's source; --t-io-uring PATH) on `dev`: 4 KiB random
    reads, one thread, O_DIRECT, fixed buffers and registered files, batches of
    --t-io-uring-batch submissions and completions. Its figures: IOPS (the mean of its
    per-second lines) and the process CPU of the run."""
    log = os.path.join(opts.workdir, f"{tag}.t_io_uring.log")
    s, c = opts.t_io_uring_batch
    cmd = [opts.t_io_uring, f"-d{qd}", f"-s{s}", f"-c{c}", "-b4096", "-p0", "-B1", "-F1", "-n1",
           "-O1", "-R1", f"-r{opts.duration}", dev]
    rc, cpu, busy, wall, kt = run_measured(cmd, log)
    with open(log, errors="replace") as f:
        text = f.read()
    per_sec = [float(x[:-1]) * 1000 if x.endswith("K") else float(x)
               for x in re.findall(r"IOPS=([\d.]+K?),", text)]
    if rc != 0 or not per_sec:
        raise ToolError(f"t/io_uring exited with status {rc}: {' '.join(cmd)}\n{tail(log)}")
    iops = sum(per_sec) / len(per_sec)
    # Its first line covers the ring's start; the rest are whole seconds.
    return {"tool": "t/io_uring", "cmd": cmd, "iops": iops, "ios": sum(per_sec),
            "mb_s": iops * 4096 / 1e6, "p50_us": float("nan"), "p99_us": float("nan"),
            "lat_mean_us": float("nan"), "proc_cpu_s": cpu, "machine_busy_s": busy,
            "wall_s": wall, "kernel_threads_s": kt}


# ---- scenarios ------------------------------------------------------------------------------------

# At low depth dbio must give fio's IOPS and latency with no more CPU (median of pair ratios;
# parity within the noise of this machine).
LOW_DEPTH = [("iops", "io_uring", ">=", 0.98), ("p50_us", "io_uring", "<=", 1.05),
             ("proc_cpu_us_per_io", "io_uring", "<=", 1.00)]
# The depth sweep: every depth judged like the low ones, plus the tail; CPU at QD 32.
SWEEP_DEPTHS = (1, 2, 4, 8, 16, 32, 64)
SWEEP_RULES = [("iops", "io_uring", ">=", 0.98), ("p50_us", "io_uring", "<=", 1.05),
               ("p99_us", "io_uring", "<=", 1.10)]
SWEEP_QD32_CPU = ("proc_cpu_us_per_io", "io_uring", "<=", 0.70)

URING_COMMON = ["--ioengine=io_uring", "--direct=1", "--hipri=0", "--sqthread_poll=0",
                "--norandommap", "--randrepeat=0"]


def scenario_defs(opts):
    """name -> (list of (tool, variant, run-function), thresholds)."""
    defs = {}
    if opts.loop:
        dev = opts.loop
        fio_base = [f"--filename={dev}", *URING_COMMON, "--iodepth=32", "--rw=randread", "--bs=4k"]
        defs["loop-4k-randread"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, fio_base, tag)),
             ("fio", "io_uring+fixedbufs+registerfiles",
              lambda tag: run_fio(opts, fio_base + ["--fixedbufs=1", "--registerfiles=1"], tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, dev, "uring", "randread", "4k", 32, tag))],
            [("iops", "io_uring", ">=", 1.00),
             ("iops", "io_uring+fixedbufs+registerfiles", ">=", 1.00),
             ("proc_cpu_us_per_io", "io_uring", "<=", 0.80),
             ("proc_cpu_us_per_io", "io_uring+fixedbufs+registerfiles", "<=", 0.80),
             ("machine_cpu_us_per_io", "io_uring", "<=", 1.00),
             ("machine_cpu_us_per_io", "io_uring+fixedbufs+registerfiles", "<=", 1.00)])
        if opts.t_io_uring:
            # The floor: fio's own minimal io_uring loop, no statistics at all.
            variants, rules = defs["loop-4k-randread"]
            variants.insert(2, ("t/io_uring", "t/io_uring",
                                lambda tag: run_t_io_uring(opts, dev, 32, tag)))
            rules += [("iops", "t/io_uring", ">=", 1.00),
                      ("proc_cpu_us_per_io", "t/io_uring", "<=", 1.05)]
    if opts.shm_file:
        # The same reads of the loop device's backing file itself: a tmpfs file read with
        # O_DIRECT is done by io_uring's own workers, threads of the tool's process, so the
        # process (not a kernel thread outside it, as under the loop device) sets the rate.
        f = opts.shm_file
        fio_shm = [f"--filename={f}", *URING_COMMON, "--iodepth=32", "--rw=randread", "--bs=4k",
                   "--fixedbufs=1", "--registerfiles=1"]
        variants = [("fio", "io_uring+fixedbufs+registerfiles",
                     lambda tag: run_fio(opts, fio_shm, tag)),
                    ("dbio", "uring", lambda tag: run_dbio(opts, f, "uring", "randread", "4k", 32,
                                                           tag))]
        rules = [("iops", "io_uring+fixedbufs+registerfiles", ">=", 1.00)]
        if opts.t_io_uring:
            variants.insert(1, ("t/io_uring", "t/io_uring",
                                lambda tag: run_t_io_uring(opts, f, 32, tag)))
            rules += [("iops", "t/io_uring", ">=", 1.00),
                      ("proc_cpu_us_per_io", "t/io_uring", "<=", 1.05)]
        defs["shm-4k-randread"] = (variants, rules)
    if opts.loop:
        # For information: the same reads at twice the queue depth. On this kind of machine both
        # tools rise together with depth, so at QD 32 the loop device's kernel path, not the
        # tool, sets the rate (see bench/RESULTS.md).
        dev = opts.loop
        fio_64 = [f"--filename={dev}", *URING_COMMON, "--iodepth=64", "--rw=randread", "--bs=4k",
                  "--fixedbufs=1", "--registerfiles=1"]
        defs["loop-4k-randread-qd64"] = (
            [("fio", "io_uring+fixedbufs+registerfiles", lambda tag: run_fio(opts, fio_64, tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, dev, "uring", "randread", "4k", 64, tag))],
            [("iops", "io_uring+fixedbufs+registerfiles", "ratio-info", None)])
    if opts.loop:
        # Low depth, where a database waits: a session's single-block read at QD 1, 2 and 4.
        dev = opts.loop
        for qd in (1, 2, 4):
            fio_lo = [f"--filename={dev}", *URING_COMMON, f"--iodepth={qd}", "--rw=randread",
                      "--bs=4k"]
            defs[f"loop-4k-randread-qd{qd}"] = (
                [("fio", "io_uring", lambda tag, a=fio_lo: run_fio(opts, a, tag)),
                 ("dbio", "uring",
                  lambda tag, q=qd: run_dbio(opts, dev, "uring", "randread", "4k", q, tag))],
                LOW_DEPTH)
        # The log writer: 8 KiB sequential writes at QD 1, each durable before the next.
        log_w = [f"--filename={dev}", *URING_COMMON, "--iodepth=1", "--rw=write", "--bs=8k"]
        defs["loop-8k-write-dsync-qd1"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, log_w + ["--sync=dsync"], tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, dev, "uring", "write", "8k", 1, tag,
                                                    ["--sync", "dsync", "--destroy-data"]))],
            LOW_DEPTH)
        # With an fdatasync after every write, at QD 1 both tools do one durable write at a
        # time, so 1/IOPS is the time per durable write and the IOPS rule is the latency rule.
        # Their latency figures differ in kind: fio times the write and the flush apart and
        # leaves out its own step between them (write mean + flush mean falls short of the
        # cycle); dbio times a write until its flush is done, as a commit waits. The means are
        # printed for information.
        defs["loop-8k-write-fdatasync-qd1"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, log_w + ["--fdatasync=1"], tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, dev, "uring", "write", "8k", 1, tag,
                                                    ["--sync", "fdatasync:1", "--destroy-data"]))],
            [("iops", "io_uring", ">=", 0.98), ("lat_mean_us", "io_uring", "ratio-info", None),
             ("proc_cpu_us_per_io", "io_uring", "<=", 1.00)])
    if opts.loop:
        # What making reducible data costs: the same 8 KiB random writes with random data
        # and with --data dedupe:3,compress:2 (its unit, 8 KiB, is the block size).
        dev = opts.loop
        wr = lambda extra: (lambda tag: run_dbio(opts, dev, "uring", "randwrite", "8k", 32, tag,
                                                  ["--destroy-data", *extra]))
        defs["loop-8k-randwrite-data"] = (
            [("dbio", "dedupe:3,compress:2", wr(["--data", "dedupe:3,compress:2"])),
             ("dbio", "random", wr(["--data", "random"]))],
            [("iops", "dbio:random", ">=", 0.97)])
        # What write verification costs: the same 8 KiB random writes with --verify (a header
        # and checksum in every 4 KiB block, a check of every read) and with --verify-journal
        # too (the last acknowledged write of every block kept in a file on the root file
        # system, synced every 100 ms), each against the run without. The verify pass after
        # the run is not in the measured time.
        journal = lambda tag: ["--verify-journal", os.path.join(opts.workdir, f"{tag}.journal")]
        wr_tag = lambda extra: (lambda tag: run_dbio(opts, dev, "uring", "randwrite", "8k", 32,
                                                      tag, ["--destroy-data", *extra(tag)]))
        defs["loop-8k-randwrite-verify"] = (
            [("dbio", "verify+journal", wr_tag(journal)),
             ("dbio", "plain", wr_tag(lambda tag: []))],
            [("iops", "dbio:plain", ">=", 0.80)])
        defs["loop-8k-randwrite-verify-nojournal"] = (
            [("dbio", "verify", wr_tag(lambda tag: ["--verify"])),
             ("dbio", "plain", wr_tag(lambda tag: []))],
            [("iops", "dbio:plain", ">=", 0.80)])
    if opts.file:
        f = opts.file
        fio_8k = [f"--filename={f}", *URING_COMMON, "--iodepth=32", "--rw=randread", "--bs=8k"]
        defs["file-8k-randread"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, fio_8k, tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, f, "uring", "randread", "8k", 32, tag))],
            [("iops", "io_uring", ">=", 0.98)])
        fio_qd1 = [f"--filename={f}", *URING_COMMON, "--iodepth=1", "--rw=randread", "--bs=4k"]
        defs["file-4k-randread-qd1"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, fio_qd1, tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, f, "uring", "randread", "4k", 1, tag))],
            LOW_DEPTH)
        fio_1m = [f"--filename={f}", *URING_COMMON, "--iodepth=8", "--rw=read", "--bs=1m"]
        defs["file-1m-seqread"] = (
            [("fio", "io_uring", lambda tag: run_fio(opts, fio_1m, tag)),
             ("dbio", "uring", lambda tag: run_dbio(opts, f, "uring", "read", "1m", 8, tag))],
            [("mb_s", "io_uring", ">=", 0.98)])
    if opts.null_file:
        fio_null = ["--ioengine=null", "--rw=randread", "--bs=4k", "--iodepth=32", "--size=1g"]
        defs["null"] = (
            [("fio", "null", lambda tag: run_fio(opts, fio_null, tag)),
             ("dbio", "null",
              lambda tag: run_dbio(opts, opts.null_file, "null", "randread", "4k", 32, tag))],
            [("iops", "null", "ratio-info", None), ("iops", None, "abs>=", 10_000_000)])
    return defs


# ---- printing and judging -------------------------------------------------------------------------

def add_derived(run):
    run["proc_cpu_us_per_io"] = run["proc_cpu_s"] / run["ios"] * 1e6
    run["machine_cpu_us_per_io"] = run["machine_busy_s"] / run["ios"] * 1e6
    run["kernel_threads_pct"] = 100.0 * run["kernel_threads_s"] / run["wall_s"]
    if run["tool"] == "dbio":
        run["dbio_own_cpu_us_per_io"] = run["dbio_own_cpu_s"] / run["ios"] * 1e6


def run_line(scen, pair, pairs, run, variant):
    s = (f"  [{scen}] pair {pair + 1}/{pairs}  {run['tool']:<4} {variant:<34} "
         f"IOPS {run['iops']:>12,.0f}  MB/s {run['mb_s']:>8.1f}  "
         f"p50 {run['p50_us']:7.1f} µs  p99 {run['p99_us']:7.1f} µs  mean {run['lat_mean_us']:7.1f} µs  "
         f"proc CPU {run['proc_cpu_us_per_io']:6.3f} µs/IO  "
         f"machine CPU {run['machine_cpu_us_per_io']:6.3f} µs/IO  "
         f"kernel threads {run['kernel_threads_pct']:4.0f} % of a CPU")
    if run["tool"] == "dbio":
        s += f"  (dbio's own getrusage: {run['dbio_own_cpu_us_per_io']:.3f} µs/IO)"
    return s


METRIC_LABEL = {"iops": "IOPS", "mb_s": "MB/s", "proc_cpu_us_per_io": "process CPU µs/IO",
                "p50_us": "p50 latency", "p99_us": "p99 latency", "lat_mean_us": "mean latency",
                "machine_cpu_us_per_io": "machine CPU µs/IO"}
MEDIAN_KEYS = ["iops", "mb_s", "p50_us", "p99_us", "lat_mean_us", "proc_cpu_us_per_io",
               "machine_cpu_us_per_io", "kernel_threads_pct"]


def fmt(metric, v):
    if metric == "iops":
        return f"{v:,.0f}"
    if metric == "mb_s":
        return f"{v:.1f}"
    return f"{v:.3f}"


def summarize(scen, variants, runs, thresholds):
    """runs: {(tool, variant): [run per pair]}. Prints medians, ratios, verdicts; returns dict."""
    print(f"\n== {scen}: medians over {len(next(iter(runs.values())))} runs")
    medians = {}
    for tool, variant, _ in variants:
        rs = runs[(tool, variant)]
        m = {k: statistics.median(r[k] for r in rs) for k in MEDIAN_KEYS}
        if tool == "dbio":
            m["dbio_own_cpu_us_per_io"] = statistics.median(r["dbio_own_cpu_us_per_io"] for r in rs)
        medians[f"{tool}/{variant}"] = m
        line = (f"   {tool:<4} {variant:<34} IOPS {m['iops']:>12,.0f}  MB/s {m['mb_s']:>8.1f}  "
                f"p50 {m['p50_us']:7.1f} µs  p99 {m['p99_us']:7.1f} µs  "
                f"mean {m['lat_mean_us']:7.1f} µs  "
                f"proc CPU {m['proc_cpu_us_per_io']:6.3f} µs/IO  "
                f"machine CPU {m['machine_cpu_us_per_io']:6.3f} µs/IO  "
                f"kernel threads {m['kernel_threads_pct']:4.0f} % of a CPU")
        if tool == "dbio":
            line += f"  (dbio's own: {m['dbio_own_cpu_us_per_io']:.3f} µs/IO)"
        print(line)
    dbio_runs = next(runs[(t, v)] for t, v, _ in variants if t == "dbio")
    verdicts = []
    for metric, fio_variant, op, limit in thresholds:
        label = METRIC_LABEL[metric]
        if op == "abs>=":
            med = statistics.median(r[metric] for r in dbio_runs)
            ok = med >= limit
            print(f"   {'PASS' if ok else 'FAIL'}  dbio {label} median {fmt(metric, med)} "
                  f">= {fmt(metric, limit)}")
            verdicts.append({"metric": metric, "op": ">=", "limit": limit, "dbio_median": med,
                             "pass": ok})
            continue
        # A base of "dbio:VARIANT" holds dbio against itself (e.g. data kinds), else against fio.
        base = (("dbio", fio_variant[5:]) if fio_variant.startswith("dbio:")
                else next((t, v) for t, v, _ in variants if v == fio_variant and t != "dbio"))
        fio_runs = runs[base]
        pair_ratios = [d[metric] / f[metric] for d, f in zip(dbio_runs, fio_runs)]
        med_ratio = statistics.median(pair_ratios)
        ratio_of_medians = (statistics.median(r[metric] for r in dbio_runs)
                            / statistics.median(r[metric] for r in fio_runs))
        ratios = ", ".join(f"{x:.3f}" for x in pair_ratios)
        first = next(v for t, v, _ in variants if t == "dbio")
        who = (f"dbio[{first}]/dbio[{base[1]}]" if base[0] == "dbio"
               else f"dbio/{base[0]}[{fio_variant}]")
        head = (f"{who} {label}: median of pair ratios {med_ratio:.3f} "
                f"(spread {min(pair_ratios):.3f}–{max(pair_ratios):.3f}; pairs: {ratios}; "
                f"ratio of medians {ratio_of_medians:.3f})")
        if op == "ratio-info":
            print(f"   info  {head}")
            verdicts.append({"metric": metric, "fio_variant": fio_variant, "op": "info",
                             "pair_ratios": pair_ratios, "median_ratio": med_ratio,
                             "ratio_of_medians": ratio_of_medians})
            continue
        ok = med_ratio >= limit if op == ">=" else med_ratio <= limit
        print(f"   {'PASS' if ok else 'FAIL'}  {head} {op} {limit:.2f}")
        verdicts.append({"metric": metric, "fio_variant": fio_variant, "op": op, "limit": limit,
                         "pair_ratios": pair_ratios, "median_ratio": med_ratio,
                         "spread": [min(pair_ratios), max(pair_ratios)],
                         "ratio_of_medians": ratio_of_medians, "pass": ok})
    return {"medians": medians, "verdicts": verdicts}


def run_sweep_scenario(opts, scen):
    """`dbio sweep --vary qd=1..64x2` against fio at each depth: a pair is one dbio sweep and
    one fio run per depth, dbio first in even pairs and fio first in odd ones. Judged per depth
    like the other scenarios; returns {depth name: summary}."""
    dev = opts.loop
    runs = {d: {("fio", "io_uring"): [], ("dbio", "uring"): []} for d in SWEEP_DEPTHS}

    def fio_all(pair):
        for qd in SWEEP_DEPTHS:
            args = [f"--filename={dev}", *URING_COMMON, f"--iodepth={qd}", "--rw=randread",
                    "--bs=4k"]
            run = run_fio(opts, args, f"{scen}.{pair}.fio.qd{qd}")
            yield qd, run

    def dbio_all(pair):
        for qd, run in zip(SWEEP_DEPTHS, run_dbio_sweep(opts, dev, "randread", "4k",
                                                        SWEEP_DEPTHS, f"{scen}.{pair}.dbio")):
            yield qd, run

    for pair in range(opts.pairs):
        order = (dbio_all, fio_all) if pair % 2 == 0 else (fio_all, dbio_all)
        for source in order:
            for qd, run in source(pair):
                run["pair"] = pair
                add_derived(run)
                variant = "uring" if run["tool"] == "dbio" else "io_uring"
                runs[qd][(run["tool"], variant)].append(run)
                print(run_line(f"{scen} qd={qd}", pair, opts.pairs, run, variant), flush=True)
    variants = [("fio", "io_uring", None), ("dbio", "uring", None)]
    out = {}
    for qd in SWEEP_DEPTHS:
        rules = SWEEP_RULES + ([SWEEP_QD32_CPU] if qd == 32 else [])
        summary = summarize(f"{scen} qd={qd}", variants, runs[qd], rules)
        summary["runs"] = {f"{t}/{v}": rs for (t, v), rs in runs[qd].items()}
        out[f"{scen}-qd{qd}"] = summary
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--duration", type=int, required=True)
    ap.add_argument("--pairs", type=int, required=True)
    ap.add_argument("--workdir", required=True, help="where the per-run JSON and logs go")
    ap.add_argument("--scenarios", required=True, help="space-separated names, in order")
    ap.add_argument("--loop")
    ap.add_argument("--shm-file")
    ap.add_argument("--file")
    ap.add_argument("--null-file")
    ap.add_argument("--json-out")
    ap.add_argument("--cpu-idle", choices=["poll", "allow"], default="poll")
    ap.add_argument("--t-io-uring", help="fio's t/io_uring binary: the floor of loop-4k-randread")
    ap.add_argument("--t-io-uring-batch", default="32,32",
                    help="its submit and complete batch sizes, S,C (its own defaults: 32,32)")
    opts = ap.parse_args()
    opts.t_io_uring_batch = tuple(int(x) for x in opts.t_io_uring_batch.split(","))

    # Started in the background by bash, which leaves SIGINT ignored: take it back (fio and
    # dbio then get the default disposition across exec, and install their own handlers).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_term)

    dbio_version = subprocess.run([opts.dbio, "--version"], capture_output=True,
                                  text=True).stdout.strip().split("\n")[0]
    fio_version = subprocess.run(["fio", "--version"], capture_output=True,
                                 text=True).stdout.strip()
    env = {"kernel": platform.release(), "cpus": os.cpu_count(), "fio": fio_version,
           "dbio": dbio_version, "dbio_path": opts.dbio, "duration_s": opts.duration,
           "pairs": opts.pairs, "loop_device": opts.loop, "file": opts.file}
    try:
        with open("/proc/cpuinfo") as f:
            env["cpu_model"] = next((l.split(":", 1)[1].strip() for l in f
                                     if l.startswith("model name")), "")
    except OSError:
        pass
    print(f"vs-fio: {dbio_version} ({opts.dbio}) against {fio_version}; "
          f"{opts.pairs} pairs of {opts.duration} s; kernel {env['kernel']}, {env['cpus']} CPUs "
          f"({env.get('cpu_model', '?')})")

    # Both tools run under the same idle policy. "poll" holds /dev/cpu_dma_latency at 0 us for
    # the whole bench (dbio would hold it itself; fio would not), so neither is charged with a
    # vCPU's wake-up from halt; "allow" leaves idle states on and runs dbio --cpu-idle allow.
    qos = None
    if opts.cpu_idle == "poll":
        try:
            qos = os.open("/dev/cpu_dma_latency", os.O_WRONLY)
            os.write(qos, (0).to_bytes(4, sys.byteorder, signed=True))
        except OSError as e:
            print(f"vs-fio: cannot hold /dev/cpu_dma_latency ({e}); CPUs may idle", file=sys.stderr)
            qos = None
    env["cpu_idle"] = "held awake for both tools" if qos is not None else "allowed for both tools"
    print(f"vs-fio: CPU idle states {env['cpu_idle']}")
    defs = scenario_defs(opts)
    results = {"env": env, "scenarios": {}}
    try:
        for scen in opts.scenarios.split():
            if scen == "loop-qd-sweep":
                results["scenarios"].update(run_sweep_scenario(opts, scen))
                continue
            variants, thresholds = defs[scen]
            idle_busy = background_busy_pct()
            print(f"\n== {scen}  (machine {idle_busy:.1f} % busy just before, with nothing of ours running)")
            if idle_busy > 5:
                print(f"   warning: other load on the machine ({idle_busy:.0f} % of all CPUs); "
                      "CPU and IOPS figures will be skewed")
            runs = {(t, v): [] for t, v, _ in variants}
            for pair in range(opts.pairs):
                # Rotate the order so that no tool always runs first (or right after the other).
                k = pair % len(variants)
                for tool, variant, fn in variants[k:] + variants[:k]:
                    bg = background_busy_pct(0.5)
                    run = fn(f"{scen}.{pair}.{tool}.{variant}".replace("+", "_").replace("/", "_"))
                    run["pair"] = pair
                    run["background_busy_pct"] = bg
                    add_derived(run)
                    runs[(tool, variant)].append(run)
                    line = run_line(scen, pair, opts.pairs, run, variant)
                    if bg > 5:
                        line += f"  [other load: machine {bg:.0f} % busy just before]"
                    print(line, flush=True)
                    for w in run.get("dbio_warnings", []):
                        print(f"      dbio warning: {w}")
            summary = summarize(scen, variants, runs, thresholds)
            summary["background_busy_pct"] = idle_busy
            summary["runs"] = {f"{t}/{v}": rs for (t, v), rs in runs.items()}
            results["scenarios"][scen] = summary
            sys.stdout.flush()
    except ToolError as e:
        print(f"\nbench/vs-fio: error: {e}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Stop):
        print("\nbench/vs-fio: interrupted", file=sys.stderr)
        return 130

    print("\n== verdicts")
    all_ok = True
    for scen, s in results["scenarios"].items():
        for v in s["verdicts"]:
            if "pass" not in v:
                continue
            all_ok &= v["pass"]
            who = ("dbio" if v["fio_variant"].startswith("dbio:") else
                   "dbio/t/io_uring" if v["fio_variant"] == "t/io_uring" else "dbio/fio")
            what = (f"{who}[{v['fio_variant']}] {METRIC_LABEL[v['metric']]} "
                    f"{v['median_ratio']:.3f} {v['op']} {v['limit']:.2f}"
                    if "fio_variant" in v else
                    f"dbio {METRIC_LABEL[v['metric']]} {fmt(v['metric'], v['dbio_median'])} "
                    f">= {fmt(v['metric'], v['limit'])}")
            print(f"   {'PASS' if v['pass'] else 'FAIL'}  {scen:<17} {what}")
    print(f"vs-fio: {'PASS' if all_ok else 'FAIL'} (all thresholds)")
    results["pass"] = all_ok
    if opts.json_out:
        with open(opts.json_out, "w") as f:
            json.dump(results, f, indent=1)
        print(f"raw numbers: {opts.json_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
