#!/usr/bin/env python3
"""Tests of bench/fio_examples.py's and bench/fio_roundtrip.py's reading of dbio's words.

The messages below are written by hand in the forms dbio prints (dbio_spec::translate::Note::line,
the job-file reader's `FILE line N:`, clap's errors, Rust's panic); the bench's tally is only as
true as this reading. Run: python3 -m unittest discover -s bench -p 'test_*.py'
"""

import os
import re
import unittest

import fio_examples as fx
import fio_roundtrip as rt

SUMMARY = "dbio fio: nothing was run: 2 option(s) above have no dbio counterpart\n"


class DryRun(unittest.TestCase):
    def test_translated_runs_are_counted_from_the_printed_lines(self):
        out = ("dbio run --rw read --bs 4k --target f1 --label f1\n"
               "  bs=4k: mapped: --bs\n"
               "dbio run --rw write --bs 4k --target f2 --label f2\n")
        self.assertEqual(fx.classify_dry(0, out, ""),
                         ("translates", "2 runs", [out.splitlines()[0], out.splitlines()[2]]))

    def test_exit_0_without_a_run_line_is_wrong(self):
        self.assertEqual(fx.classify_dry(0, "  bs=4k: mapped: --bs\n", "")[0], "wrong")

    def test_refusals_naming_options_sections_and_lines_are_named(self):
        for line, name in [
            ("startdelay=4: refused: dbio starts every worker together", "startdelay=4"),
            ("rw=read:-8k: refused: the ':-8k' modifier is not a dbio pattern", "rw=read:-8k"),
            ("listen: refused: not a fio option dbio knows how to run", "listen"),
            ("ioengine (fio's default: psync): refused: no counterpart",
             "ioengine (fio's default: psync)"),
            ("[punch hole-fuzzer] [b]: refused: fio runs these jobs at the same time",
             "[punch hole-fuzzer] [b]"),
            ("[write-verify] offset_increment: refused: an increment other than the job's size",
             "[write-verify] offset_increment"),
            ("[a] dedupe/compression: refused: dbio makes reducible data in units of 4k",
             "[a] dedupe/compression"),
            ("--minimal: refused: fio's terse output is not a dbio output", "--minimal"),
            ("/src/examples/dfs.fio line 3: '${POOL}': the environment variable POOL is not set",
             "dfs.fio line 3: '${POOL}'"),
        ]:
            err = f"dbio fio: {line}\ndbio fio: flow=2: refused: no flow control\n" + SUMMARY
            self.assertEqual(fx.classify_dry(2, "", err), ("refused", f"{name} (+1 more)", []))

    def test_a_refusal_naming_nothing_makes_the_example_wrong(self):
        err = ("dbio fio: bs=4k: refused: something\n"
               "dbio fio: this cannot be run: refused: for some reason\n" + SUMMARY)
        outcome, detail, _ = fx.classify_dry(2, "", err)
        self.assertEqual(outcome, "wrong")
        self.assertIn("this cannot be run", detail)

    def test_a_run_line_dbio_run_rejects_is_wrong_and_says_why(self):
        err = ("dbio fio: dbio run --rw read --bytes 1g --duration 1s\n"
               "error: the argument '--bytes <SIZE>' cannot be used with '--duration <TIME>'\n\n"
               "For more information, try '--help'.\n")
        outcome, detail, _ = fx.classify_dry(2, "", err)
        self.assertEqual((outcome, detail), ("wrong", "names nothing: " + err.splitlines()[0]))
        self.assertEqual(fx.failure(2, err),
                         "exit 2: error: the argument '--bytes <SIZE>' cannot be used with"
                         " '--duration <TIME>'")

    def test_panics_other_statuses_silence_and_time_outs_are_wrong(self):
        panic = "\nthread 'main' panicked at crates/spec/src/x.rs:1:2:\nboom\n"
        self.assertEqual(fx.classify_dry(101, "", panic),
                         ("wrong", "panic, exit 101: thread 'main' panicked at "
                                   "crates/spec/src/x.rs:1:2:", []))
        self.assertEqual(fx.classify_dry(1, "", "dbio fio: x.fio: No such file\n")[0], "wrong")
        self.assertEqual(fx.classify_dry(2, "", "")[0], "wrong")
        self.assertEqual(fx.classify_dry(None, "", ""), ("wrong", "timed out", []))


class Targets(unittest.TestCase):
    def test_relative_targets_are_here_and_absolute_or_escaping_ones_are_not(self):
        work = "/var/tmp/dbio-fio-ex.abc"
        here = ["dbio run --rw read --target f1", "dbio run --rw read --target=sub/f2"]
        self.assertEqual(fx.targets(here[1]), ["sub/f2"])
        self.assertTrue(fx.targets_here(here, work))
        for elsewhere in ["/dev/sdb", "/mnt/d/f", "../f", "'/mount point/f'"]:
            self.assertFalse(fx.targets_here(here + [f"dbio run --target {elsewhere}"], work))
        # A stream's target is ROLE=PATH: its path decides.
        streams = "dbio run --stream '{}' --target data=/data1/file1 --target log=f2"
        self.assertEqual(fx.targets(streams), ["/data1/file1", "f2"])
        self.assertFalse(fx.targets_here([streams], work))
        self.assertTrue(fx.targets_here(["dbio run --target=log=f2 --target a=b/c"], work))


class Roundtrip(unittest.TestCase):
    def test_the_job_s_length_size_and_files_give_way_to_the_roundtrip_s(self):
        line = ("dbio run --rw read --bs 4k --qd 32 --bytes 128m --size 128m --rate 1000 "
                "--engine uring --target a --target=b --label 'fixed rate' --buffered")
        self.assertEqual(rt.rewrite(line, "/t/target.dat", "5s", "256m"),
                         ["run", "--rw", "read", "--bs", "4k", "--qd", "32", "--rate", "1000",
                          "--engine", "uring", "--label", "fixed rate", "--buffered",
                          "--duration", "5s", "--size", "256m", "--target", "/t/target.dat"])

    def test_fio_s_total_latency_is_read_when_dbio_s_job_header_says_so(self):
        # The header dbio writes (crates/report/src/fio_job.rs, latency_note), read from there
        # so that a reworded header fails here rather than silently comparing clat.
        src = os.path.join(os.path.dirname(__file__), "..", "crates/report/src/fio_job.rs")
        with open(src) as f:
            notes = re.findall(r'^\s*"(; [^"]*)"', f.read(), re.M)
        rate = [n for n in notes if "--rate" in n]
        self.assertEqual(len(rate), 1, notes)
        self.assertTrue(rt.LAT_HEADER.search(f"; fio job file\n{rate[0]}\n[global]\n"))
        plain = [n for n in notes if "clat is submission to completion" in n]
        self.assertEqual(len(plain), 1, notes)
        self.assertFalse(rt.LAT_HEADER.search(f"; fio job file\n{plain[0]}\n[global]\n"))


if __name__ == "__main__":
    unittest.main()
