//! `dbio fio` given fio's command line (issue 26): the `dbio run` lines against a table
//! written by hand from fio's HOWTO, which job each option belongs to against fio's own
//! parser (fio run on its null engine, its JSON naming each job's options), and fio's
//! `--output-format`/`--output` against fio's JSON as dbio writes it. Under CI=true a missing
//! fio fails the test that needs it.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// `dbio fio WORDS…` in `dir`: the exit status, stdout and stderr.
fn fio_words(dir: &Path, words: &str) -> (Option<i32>, String, String) {
    let mut args = vec!["fio"];
    args.extend(words.split_whitespace());
    dbio_in(dir, &args)
}

/// `dbio fio WORDS… --dry-run` in `dir`, which must succeed: the `dbio run` lines (on stdout,
/// or stderr when the JSON goes to stdout) and all that was printed (stdout, then stderr).
fn dry_runs(dir: &Path, words: &str) -> (Vec<String>, String) {
    let (code, out, err) = fio_words(dir, &format!("{words} --dry-run"));
    assert_eq!(code, Some(0), "dbio fio {words}: {err}");
    let all = format!("{out}{err}");
    let runs = all
        .lines()
        .filter(|l| l.starts_with("dbio run "))
        .map(str::to_string)
        .collect();
    (runs, all)
}

/// The value after `flag` in a `dbio run` line.
fn value<'a>(run: &'a str, flag: &str) -> Option<&'a str> {
    let mut words = run.split_whitespace();
    words.find(|w| *w == flag)?;
    words.next()
}

/// The issue's command line. From fio's HOWTO: rw=randrw with rwmixread=70 is a random mix
/// of 70 % reads (--rw randrw --mix 70), bs=8k (--bs 8k), iodepth=32 with libaio and
/// direct=1 is 32 in flight (--qd 32, on dbio's io_uring), numjobs=4 clones (--threads 4),
/// direct=1 is O_DIRECT (dbio's default: no --buffered), runtime=60 with time_based runs
/// 60 s (--duration 60s), filename= is the target, and the job's name its label.
#[test]
fn the_issues_command_line_is_the_run_fios_howto_describes() {
    let dir = scratch();
    let f = dir.path().join("f");
    let f = f.to_str().unwrap();
    let words = format!("--name=oltp --filename={f} --rw=randrw --rwmixread=70 --bs=8k --iodepth=32 --numjobs=4 --direct=1 --ioengine=libaio --runtime=60 --time_based --group_reporting");
    let (runs, out) = dry_runs(dir.path(), &words);
    let want = format!("dbio run --rw randrw --mix 70 --bs 8k --qd 32 --threads 4 --duration 60s --engine uring --target {f} --label oltp");
    assert_eq!(runs, [want], "{out}");
    for word in [
        "--time_based: mapped",
        "--group_reporting: mapped",
        "--name=oltp: mapped",
    ] {
        assert!(out.contains(word), "{word}: {out}");
    }
}

/// fio's rules for several jobs on one line: options before the first --name are global,
/// a job's own option overrides the global one, each --name starts a job, and jobs without
/// stonewall between them run at once, as in fio (one run of a stream each).
#[test]
fn each_name_is_a_job_under_the_globals_before_the_first() {
    let dir = scratch();
    let globals = "--bs=4k --size=1m --ioengine=psync --runtime=5";
    let words = format!("{globals} --name=a --rw=randread --bs 8k --name=b --stonewall --rw=write");
    let (runs, out) = dry_runs(dir.path(), &words);
    assert_eq!(runs.len(), 2, "{out}");
    // (label, rw, bs): a's own bs, b the global one.
    let want = [("a", "randread", "8k"), ("b", "write", "4k")];
    for (run, (label, rw, bs)) in runs.iter().zip(want) {
        assert_eq!(value(run, "--label"), Some(label), "{run}");
        assert_eq!(value(run, "--rw"), Some(rw), "{run}");
        assert_eq!(value(run, "--bs"), Some(bs), "{run}");
        assert_eq!(value(run, "--duration"), Some("5s"), "{run}");
        assert_eq!(value(run, "--engine"), Some("psync"), "{run}");
    }
    // Without stonewall fio runs them at once: one run, a stream each, globals in both.
    let words = format!("{globals} --name=a --rw=randread --name=b --rw=write");
    let (runs, out) = dry_runs(dir.path(), &words);
    assert_eq!(runs.len(), 1, "{out}");
    let streams: Vec<&str> = runs[0].split("--stream ").skip(1).collect();
    assert_eq!(streams.len(), 2, "{}", runs[0]);
    for (s, (name, rw)) in streams.iter().zip([("a", "randread"), ("b", "write")]) {
        for part in [
            format!("name = \"{name}\""),
            format!("rw = \"{rw}\""),
            "bs = \"4k\"".into(),
        ] {
            assert!(s.contains(&part), "{part} missing from {s}");
        }
    }
    assert_eq!(value(&runs[0], "--duration"), Some("5s"), "{}", runs[0]);
}

/// Which job each option lands in, as fio's own parser puts it: fio runs the same words on
/// its null engine (no I/O, no files) and its JSON gives the global options and each job's
/// own; a job's setting is its own, else the global one. The words mix `--opt value`,
/// switches that take no value (`--norandommap`), `--name=global` and a job file after
/// the command line's jobs (fio reads it last, its jobs under the command line's globals).
#[test]
fn options_land_in_the_jobs_fios_own_parser_puts_them_in() {
    let test = "options_land_in_the_jobs_fios_own_parser_puts_them_in";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    let d = dir.path();
    std::fs::write(d.join("k.fio"), "[k]\nstonewall\nrw=randwrite\nsize=1m\n").unwrap();
    let words = "--bs=16k --size=2m --ioengine=null --name=a --rw=randread --norandommap --bs 8k --name=global --bs=32k --name=b --stonewall --rw=write k.fio";
    let out = Command::new(fio)
        .current_dir(d)
        .args(words.split_whitespace())
        .arg("--output-format=json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let fio: Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    let (runs, printed) = dry_runs(d, words);
    let jobs = fio["jobs"].as_array().unwrap();
    assert_eq!(runs.len(), jobs.len(), "{printed}");
    let sizes = |s: &str| s.trim_end_matches('k').parse::<u64>().unwrap();
    for (run, job) in runs.iter().zip(jobs) {
        let setting = |key: &str| {
            job["job options"][key]
                .as_str()
                .or_else(|| fio["global options"][key].as_str())
        };
        assert_eq!(value(run, "--label"), job["jobname"].as_str(), "{run}");
        assert_eq!(value(run, "--rw"), setting("rw"), "{run}");
        let bs = setting("bs").unwrap();
        assert_eq!(value(run, "--bs").map(sizes), Some(sizes(bs)), "{run}");
    }
}

/// fio's options dbio does not run are refused by name, with the words a job file's line
/// gets; a word neither fio's nor dbio's is not taken for a fio option.
#[test]
fn an_option_dbio_cannot_run_is_refused_by_name_as_in_a_job_file() {
    let dir = scratch();
    let d = dir.path();
    let (code, _, err) = dbio_in(d, &["fio", "--name=a", "--size=1m", "--zonemode=zbd"]);
    assert_eq!(code, Some(2), "{err}");
    let line = err
        .lines()
        .find(|l| l.contains("--zonemode=zbd: refused: "))
        .unwrap_or_else(|| panic!("{err}"));
    let why = line.split_once(": refused: ").unwrap().1;
    std::fs::write(d.join("z.fio"), "[a]\nsize=1m\nzonemode=zbd\n").unwrap();
    let (code, _, err) = dbio_in(d, &["fio", "z.fio"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!("zonemode=zbd: refused: {why}")),
        "{err}"
    );
    let (code, _, err) = dbio_in(d, &["fio", "--name=a", "--size=1m", "--bogus=1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--bogus"), "{err}");
    let (code, _, err) = dbio_in(d, &["fio", "--bs=4k", "--size=1m"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no job: --name=NAME starts one"), "{err}");
}

/// dbio's own flags after fio's words: the first word that is not fio's starts them, and a
/// setting given again is dbio's, with a note.
#[test]
fn dbios_flags_follow_fios_words_and_the_later_word_wins() {
    let dir = scratch();
    let (runs, out) = dry_runs(
        dir.path(),
        "--name=a --size=1m --rw=randread --runtime=60 --time_based --duration 5s --qd 4",
    );
    assert_eq!(runs.len(), 1, "{out}");
    assert_eq!(value(&runs[0], "--duration"), Some("5s"), "{out}");
    assert!(!runs[0].contains("60s"), "{out}");
    assert!(
        out.contains("note: --duration 60s of the fio job is replaced by yours"),
        "{out}"
    );
    assert!(
        out.contains("note: --qd 1 of the fio job is replaced by yours"),
        "{out}"
    );
    // After a job file dbio's flags start at the first flag, but fio's own are still fio's.
    let job = "[j]\nfilename=j.dat\nrw=randread\nbs=8k\nsize=1m\n";
    std::fs::write(dir.path().join("j.fio"), job).unwrap();
    let (runs, out) = dry_runs(dir.path(), "j.fio --output-format=json --bs 4k");
    assert_eq!(runs.len(), 1, "{out}");
    assert!(
        runs[0].ends_with(" --json-format fio --json - --bs 4k"),
        "{out}"
    );
    assert!(
        out.contains("note: --bs 8k of the fio job is replaced by yours"),
        "{out}"
    );
}

/// `--output-format=json --output=F` on a short run: F holds fio's JSON (json+, with
/// clat_ns.bins), whose read IOPS are those of dbio's own JSON of the same run; without
/// --output the JSON is all that goes to stdout.
#[test]
fn output_format_json_writes_fios_json_to_the_output_file() {
    let dir = scratch();
    let d = dir.path();
    let job = "--name=t --filename=t.dat --rw=randread --bs=4k --size=1m --number_ios=500";
    let (code, _, err) = fio_words(
        d,
        &format!("{job} --output-format=json --output=F.json --db h.db"),
    );
    assert_eq!(code, Some(0), "{err}");
    let fio: Value = serde_json::from_slice(&std::fs::read(d.join("F.json")).unwrap()).unwrap();
    let (code, _, err) = dbio_in(d, &["export", "t", "--db", "h.db", "--json", "dbio.json"]);
    assert_eq!(code, Some(0), "{err}");
    let ours: Value = serde_json::from_slice(&std::fs::read(d.join("dbio.json")).unwrap()).unwrap();
    let read = &fio["jobs"][0]["read"];
    assert_eq!(fio["jobs"][0]["jobname"], "t");
    assert_eq!(read["total_ios"], 500);
    assert_eq!(read["iops"], ours["read"]["iops"]);
    assert!(!read["clat_ns"]["bins"].as_object().unwrap().is_empty());

    let (code, out, err) = fio_words(d, &format!("{job} --output-format=json+ --no-store"));
    assert_eq!(code, Some(0), "{err}");
    let fio: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(fio["jobs"][0]["read"]["total_ios"], 500);
}

/// fio's output formats dbio has no counterpart for are refused by name, and nothing runs.
#[test]
fn other_output_formats_are_refused_by_name() {
    let dir = scratch();
    let d = dir.path();
    for (flag, why) in [
        (
            "--output-format=xyz",
            "'xyz' is not one of fio's output formats",
        ),
        ("--output-format=terse", "terse"),
        ("--minimal", "terse"),
        (
            "--output-format=json,normal",
            "give one of normal, json or json+",
        ),
    ] {
        let (code, _, err) = dbio_in(
            d,
            &["fio", "--name=a", "--filename=a.dat", "--size=1m", flag],
        );
        assert_eq!(code, Some(2), "{flag}: {err}");
        let line = format!("dbio fio: {flag}: refused: ");
        assert!(err.contains(&line) && err.contains(why), "{flag}: {err}");
    }
    let (code, _, err) = dbio_in(
        d,
        &[
            "fio",
            "--name=a",
            "--filename=a.dat",
            "--size=1m",
            "--output=out.txt",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--output=out.txt: refused: ") && err.contains("> FILE"),
        "{err}"
    );
    assert!(!d.join("out.txt").exists() && !d.join("a.dat").exists());
}
