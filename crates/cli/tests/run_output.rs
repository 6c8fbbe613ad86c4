//! What `dbio run` hands back: a JSON result that validates against the committed schema
//! (and a broken one that does not), `--json -` with nothing but that JSON on stdout and
//! the summary on stderr, flush figures that agree with `--sync fdatasync:N`, and output paths
//! that cannot be written refused before anything runs.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

#[test]
fn results_validate_against_the_committed_schema() {
    let v = schema("run-result.v1.json");
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let f = f.to_str().unwrap();
    let mixed = run_ok(
        dir.path(),
        &[
            "--target",
            f,
            "--rw",
            "randrw",
            "--ops",
            "5000",
            "--bs",
            "4k:80,16k:20",
        ],
    );
    assert!(dir_stats(&mixed, "read").is_some() && dir_stats(&mixed, "write").is_some());
    assert_valid(&v, "randrw result", &mixed);

    let synced = run_ok(
        dir.path(),
        &[
            "--target",
            f,
            "--rw",
            "write",
            "--ops",
            "400",
            "--sync",
            "fdatasync:4",
        ],
    );
    assert!(dir_stats(&synced, "flush").is_some(), "no flush stats");
    assert_valid(&v, "fdatasync result", &synced);

    // The schema has teeth: a wrong outcome or a missing count fails it.
    let mut bad = mixed.clone();
    bad["outcome"]["status"] = "fine".into();
    assert!(!v.is_valid(&bad), "an unknown outcome passed the schema");
    let mut bad = mixed;
    bad["read"].as_object_mut().unwrap().remove("ios");
    assert!(!v.is_valid(&bad), "a read without ios passed the schema");
}

fn run_json_stdout(dir: &std::path::Path, extra: &[&str]) -> (Value, String) {
    let f = dir.join("t.dat");
    let mut args = vec!["run", "--target", f.to_str().unwrap(), "--size", "16MiB"];
    args.extend(["--ops", "2000", "--buffered", "--json", "-"]);
    args.extend(extra);
    let out = dbio_command().args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (r, stderr)
}

#[test]
fn json_to_stdout_is_one_document_and_the_summary_goes_to_stderr() {
    let dir = scratch();
    let (r, stderr) = run_json_stdout(dir.path(), &[]);
    assert_eq!(ios(&r, "read") + ios(&r, "write"), 2000);
    // The summary: its header, the latency table with a row per direction, the warning.
    assert!(
        stderr.contains("2000 I/Os"),
        "no summary on stderr:\n{stderr}"
    );
    assert!(
        stderr.contains("latency µs"),
        "no table on stderr:\n{stderr}"
    );
    assert!(stderr.lines().any(|l| l.starts_with("read ")), "{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("write ")), "{stderr}");
    assert!(stderr.contains("warning: buffered I/O"), "{stderr}");

    let (r, stderr) = run_json_stdout(dir.path(), &["-q"]);
    assert_eq!(ios(&r, "read") + ios(&r, "write"), 2000);
    assert!(
        !stderr.contains("latency µs"),
        "-q printed the summary:\n{stderr}"
    );
}

#[test]
fn json_to_stdout_quiet_still_prints_warnings() {
    let dir = scratch();
    let (r, stderr) = run_json_stdout(dir.path(), &["-q"]);
    assert!(warning_codes(&r).contains(&"buffered".to_string()));
    assert!(
        stderr.contains("warning: buffered I/O"),
        "-q hides progress and summary, not warnings; stderr was: {stderr:?}"
    );
}

/// (value, count) buckets of a direction's histogram.
fn buckets(r: &Value, dir: &str) -> Vec<(u64, u64)> {
    r[dir]["histogram"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b[0].as_u64().unwrap(), b[1].as_u64().unwrap()))
        .collect()
}

#[test]
fn fdatasync_every_4_writes_flushes_and_counts_the_flush_in_the_write() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "write",
            "--ops",
            "4000",
            "--bs",
            "4k",
            "--sync",
            "fdatasync:4",
        ],
    );
    assert_eq!(ios(&r, "write"), 4000);
    assert_eq!(ios(&r, "flush"), 1000, "one flush per 4 writes");
    assert_eq!(bytes(&r, "flush"), 0, "a flush moves no bytes of its own");
    // Every 4th write's latency contains a whole flush, so for any latency x there are at
    // least as many writes as flushes at x or above (write latencies dominate flush ones).
    let (w, fl) = (buckets(&r, "write"), buckets(&r, "flush"));
    assert_eq!(
        w.iter().map(|b| b.1).sum::<u64>(),
        4000,
        "write histogram count"
    );
    assert_eq!(
        fl.iter().map(|b| b.1).sum::<u64>(),
        1000,
        "flush histogram count"
    );
    let at_or_above =
        |h: &[(u64, u64)], x: u64| h.iter().filter(|b| b.0 >= x).map(|b| b.1).sum::<u64>();
    for &(x, _) in &fl {
        let (nw, nf) = (at_or_above(&w, x), at_or_above(&fl, x));
        assert!(
            nw >= nf,
            "{nf} flushes but only {nw} writes took {x} ns or more"
        );
    }
    let lat = |d: &str, q: &str| num(&r, &format!("/{d}/latency_ns/{q}"));
    assert!(lat("write", "max") >= lat("flush", "max"));
    assert!(
        lat("write", "mean") * 4000.0 >= lat("flush", "mean") * 1000.0 * 0.999,
        "the writes' total latency is less than the flushes' they contain"
    );
}

#[test]
fn an_output_path_that_cannot_be_written_stops_before_any_io() {
    let dir = scratch();
    for (args, says) in [
        (
            vec!["run", "--json", "missing/r.json"],
            "--json missing/r.json: the folder missing does not exist",
        ),
        (vec!["run", "--html", "."], "--html .: is a folder"),
        (vec!["run", "--html", "-"], "--html needs a file name"),
        (
            vec![
                "sweep",
                "oltp-read",
                "--vary",
                "qd=1,2",
                "--html",
                "missing/s.html",
            ],
            "--html missing/s.html: the folder missing does not exist",
        ),
        (
            vec!["suite", "--quick", "--json", "missing/s.json"],
            "--json missing/s.json: the folder missing does not exist",
        ),
    ] {
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        // Refused before the run: no test file was made.
        assert!(
            !dir.path().join("dbio-testfile").exists(),
            "{args:?} ran anyway"
        );
    }
}

#[test]
fn an_output_that_is_one_of_the_inputs_is_refused_and_the_input_kept() {
    let dir = scratch();
    let d = dir.path();
    let keep = |name: &str| {
        let bytes: Vec<u8> = (0..65536u32).map(|i| (i * 7 + 3) as u8).collect();
        std::fs::write(d.join(name), &bytes).unwrap();
        bytes
    };
    let data = keep("user.dat");
    std::fs::create_dir(d.join("tree")).unwrap();
    let inside = keep("tree/a.bin");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // A foreign file read as the target.
        (
            vec![
                "run",
                "--rw",
                "randread",
                "--target",
                "user.dat",
                "--ops",
                "10",
                "--json",
                "user.dat",
                "--no-store",
            ],
            "--json user.dat: that would write over user.dat",
        ),
        // The same file by another name.
        (
            vec![
                "run",
                "--rw",
                "randread",
                "--target",
                "user.dat",
                "--ops",
                "10",
                "--html",
                "./tree/../user.dat",
                "--no-store",
            ],
            "that would write over user.dat",
        ),
        // A file inside a tree that reduce reads.
        (
            vec!["reduce", "tree", "--json", "tree/a.bin", "--no-store"],
            "that would write over a file inside tree",
        ),
        // The history the result is stored in.
        (
            vec![
                "run",
                "--engine",
                "sim",
                "--ops",
                "100",
                "--db",
                "tree/a.bin",
                "--json",
                "tree/a.bin",
            ],
            "--json tree/a.bin: that would write over tree/a.bin",
        ),
        // An empty name.
        (
            vec![
                "run",
                "--engine",
                "sim",
                "--ops",
                "100",
                "--json",
                "",
                "--no-store",
            ],
            "--json: give a file name",
        ),
    ];
    for (args, says) in cases {
        let (code, _, err) = dbio_in(d, &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert_eq!(std::fs::read(d.join("user.dat")).unwrap(), data);
    assert_eq!(std::fs::read(d.join("tree/a.bin")).unwrap(), inside);
    // A new file inside the tree is no input: reduce writes it.
    let (code, _, err) = dbio_in(
        d,
        &[
            "reduce",
            "tree",
            "--json",
            "tree/r.json",
            "--no-store",
            "-q",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn output_lost_on_a_full_stdout_is_an_error_not_a_success() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    for args in [
        vec!["profiles"],
        vec![
            "run",
            "--engine",
            "sim",
            "--ops",
            "100",
            "--no-store",
            "--json",
            "-",
        ],
    ] {
        let out = dbio_command().args(&args).stdout(full()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
}
