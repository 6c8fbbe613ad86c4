#!/usr/bin/env python3
"""Helper of bench/fio-examples: each of fio's examples/*.fio through `dbio fio`, classified.

Per example, in a fresh temporary working directory (removed after it):
  dbio fio FILE --dry-run      exit 0 with `dbio run` lines: translates;
                               exit 2 where every refusal names what it refuses, an option
                               (`startdelay=4: refused: ...`), a section (`[a] [b]: refused: ...`)
                               or a job file's line (`FILE line 3: '${POOL}': ...`): refused, named;
                               anything else (a panic, exit 101, another status, a time-out, an
                               exit 2 whose message names nothing): wrong.
  dbio fio FILE --duration D -q --no-store [--size S]
                               for those that translate and whose targets are all relative
                               paths (temporary files in that directory): ran (exit 0) or wrong;
                               a target elsewhere (/dev/sdb, /mnt/...) is not run: not here.
With --before OLD the same for a second binary, tallied side by side.
bench/fio_roundtrip.py imports dry_run(), run_lines() and targets_here() from here.
"""

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile

# The outcomes, in the tally's order, and how the tally names them.
OUTCOMES = {
    "ran": "translates, ran",
    "not here": "translates, target not here",
    "refused": "refused, option named",
    "wrong": "wrong",
}

# What a refusal line may name before ": refused: " (see dbio_spec::translate::Note::line).
OPTION = re.compile(r"(--)?[A-Za-z_][\w.-]*(=.*)?( \(fio's default: [^)]*\))?")
SECTIONS = re.compile(r"\[[^\]]+\]( \[[^\]]+\])*( \S.*)?")
FILE_LINE = re.compile(r"(.+ line \d+): ('[^']*'|\S+)")
PREFIX = "dbio fio: "
SUMMARY = "dbio fio: nothing was run: "


def on_term(signum, frame):
    """SIGTERM ends the bench as Ctrl-C does: the temporary directories are removed."""
    raise KeyboardInterrupt()


def call(argv, cwd, timeout):
    """(status, stdout, stderr) of argv run in cwd; status None when it outlived timeout."""
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=timeout,
                           encoding="utf-8", errors="replace", stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return p.returncode, p.stdout, p.stderr


def named(line):
    """What one `dbio fio: ...` refusal line names (`startdelay=4`, `[a] [b]`, `[a] size`,
    `x.fio line 3: '${POOL}'`), or None when it names nothing."""
    body = line[len(PREFIX):]
    head, sep, _ = body.partition(": refused: ")
    if sep and (OPTION.fullmatch(head) or SECTIONS.fullmatch(head)):
        return head
    m = FILE_LINE.match(body)
    return f"{os.path.basename(m.group(1))}: {m.group(2)}" if m else None


# The line of a failed run's message that says what went wrong (not the echoed command line).
CAUSE = re.compile(r"(error|dbio run: |dbio fio: (?!dbio run )|.*panicked at)")


def failure(status, err):
    """A short account of a run that went wrong: its status and the line that says why."""
    if status is None:
        return "timed out"
    lines = [ln for ln in err.splitlines() if ln.strip()]
    why = next((ln for ln in lines if CAUSE.match(ln)), lines[-1] if lines else "")
    kind = "panic, exit" if "panicked at" in err else "exit"
    return f"{kind} {status}" + (f": {why}" if why else "")


def run_lines(out):
    """The `dbio run` lines a dry run printed."""
    return [ln for ln in out.splitlines() if ln.startswith("dbio run ")]


def classify_dry(status, out, err):
    """(outcome, detail, run lines) of `dbio fio FILE --dry-run`; outcome 'translates',
    'refused' or 'wrong'."""
    if status == 0:
        lines = run_lines(out)
        if not lines:
            return "wrong", "exit 0 but no dbio run line", []
        return "translates", f"{len(lines)} run" + ("s" if len(lines) > 1 else ""), lines
    refusals = [ln for ln in err.splitlines()
                if ln.startswith(PREFIX) and not ln.startswith(SUMMARY)]
    names = [named(ln) for ln in refusals]
    if status == 2 and refusals and all(names):
        more = f" (+{len(names) - 1} more)" if len(names) > 1 else ""
        return "refused", names[0] + more, []
    if status == 2:
        unnamed = next((ln for ln, n in zip(refusals, names) if not n), None)
        return "wrong", "names nothing: " + (unnamed or failure(2, err)), []
    return "wrong", failure(status, err), []


def load_average():
    """The machine's load averages (1, 5, 15 min), as printed before and after the runs."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def targets(line):
    """The paths of the --target values of one `dbio run` line (`ROLE=PATH` gives PATH)."""
    words = shlex.split(line)
    out = [w.split("=", 1)[1] for w in words if w.startswith("--target=")]
    out += [b for a, b in zip(words, words[1:]) if a == "--target"]
    return [path_of(t) for t in out]


def path_of(target):
    """A stream's target `ROLE=PATH` as its PATH; a plain path as it is."""
    role, eq, path = target.partition("=")
    return path if eq and "/" not in role else target


def targets_here(lines, work):
    """Whether every target of these run lines is a file inside work (a relative path)."""
    def inside(t):
        full = os.path.realpath(os.path.join(work, t))
        return not os.path.isabs(t) and full.startswith(os.path.realpath(work) + os.sep)
    return all(inside(t) for line in lines for t in targets(line))


def dry_run(dbio, path, base, timeout):
    """classify_dry() of one example, in a fresh temporary directory under base."""
    with tempfile.TemporaryDirectory(prefix="dbio-fio-ex.", dir=base) as work:
        return classify_dry(*call([dbio, "fio", path, "--dry-run"], work, timeout))


def one(dbio, path, opts):
    """(outcome, detail) of one example with one dbio binary: the dry run, then the short run."""
    with tempfile.TemporaryDirectory(prefix="dbio-fio-ex.", dir=opts.work_dir) as work:
        outcome, detail, lines = classify_dry(
            *call([dbio, "fio", path, "--dry-run"], work, opts.timeout))
        if outcome != "translates":
            return outcome, detail
        if not targets_here(lines, work):
            elsewhere = [t for ln in lines for t in targets(ln) if os.path.isabs(t)]
            return "not here", f"{detail}; target {elsewhere[0] if elsewhere else '?'}"
        argv = [dbio, "fio", path, "--duration", opts.duration, "-q", "--no-store"]
        if opts.size:
            argv += ["--size", opts.size]
        status, _, err = call(argv, work, opts.timeout)
        if status == 0:
            return "ran", detail
        return "wrong", f"{detail}, then the run: {failure(status, err)}"


def pick(examples, only, me):
    """The job files of examples: all of them, or those only names (with or without .fio)."""
    names = sorted(f for f in os.listdir(examples) if f.endswith(".fio"))
    if not only:
        return names
    wanted = [n if n.endswith(".fio") else n + ".fio" for n in only.split(",") if n]
    missing = [n for n in wanted if n not in names]
    if missing:
        sys.exit(f"{me}: not in {examples}: {', '.join(missing)}")
    return wanted


def clip(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"


def report(names, results, binaries):
    """Prints the table per example and the tally, one column per binary."""
    heads = list(binaries)
    print(f"  {'example':34}" + "".join(f"{h:10}" for h in heads) + "what")
    for name in names:
        row = [results[h][name] for h in heads]
        what = row[-1][1]
        if len(row) > 1 and row[0][0] != row[-1][0]:
            what += f"  | {heads[0]}: {row[0][1]}"
        print(f"  {name:34}" + "".join(f"{r[0]:10}" for r in row) + clip(what, 150))
    print()
    print(f"  {'tally':34}" + "".join(f"{h:>10}" for h in heads))
    for key, label in OUTCOMES.items():
        counts = [sum(1 for r in results[h].values() if r[0] == key) for h in heads]
        print(f"  {label:34}" + "".join(f"{c:10}" for c in counts))
    print(f"  {'total':34}" + "".join(f"{len(results[h]):10}" for h in heads))


def version(dbio):
    status, out, _ = call([dbio, "--version"], None, 30)
    return out.strip() if status == 0 else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", required=True, help="fio's examples/ folder")
    ap.add_argument("--dbio", required=True)
    ap.add_argument("--before", help="an older dbio, tallied beside --dbio")
    ap.add_argument("--duration", default="1s")
    ap.add_argument("--size", help="dbio's --size for every run (default: the job's)")
    ap.add_argument("--only", help="comma-separated example names (default: every *.fio)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--work-dir", required=True)
    opts = ap.parse_args()
    signal.signal(signal.SIGTERM, on_term)
    names = pick(opts.examples, opts.only, "bench/fio-examples")
    binaries = {"before": opts.before} if opts.before else {}
    binaries["after" if opts.before else "dbio"] = opts.dbio
    for head, path in binaries.items():
        print(f"{head}: {path} ({version(path)})")
    print(f"fio's examples: {opts.examples}, {len(names)} job files; runs of {opts.duration}"
          + (f", --size {opts.size}" if opts.size else "") + f" in {opts.work_dir}")
    print(f"load average before: {load_average()}\n")
    results = {head: {} for head in binaries}
    for i, name in enumerate(names, 1):
        for head, path in binaries.items():
            results[head][name] = one(path, os.path.join(opts.examples, name), opts)
        outcomes = ", ".join(results[h][name][0] for h in binaries)
        print(f"[{i}/{len(names)}] {name}: {outcomes}", file=sys.stderr, flush=True)
    report(names, results, binaries)
    print(f"\nload average after: {load_average()}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
