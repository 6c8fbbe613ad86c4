//! `dbio merge` of hosts' results run with `--start-at` (no ssh needed): what it refuses,
//! what it accepts, and what the merged result says of each host.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A simulated run of `secs` on this host, measuring from `start`, with `extra` flags; its
/// JSON result is written to `dir/name`.
fn sim_run(dir: &Path, name: &str, start: &str, secs: &str, extra: &[&str]) -> Value {
    let json = dir.join(name);
    let mut args = vec![
        "run",
        "--engine",
        "sim",
        "--rw",
        "randread",
        "--duration",
        secs,
        "--start-at",
        start,
        "--no-store",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend(extra);
    let (code, _, err) = dbio_in(dir, &args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap()
}

fn soon() -> String {
    humantime::format_rfc3339_nanos(SystemTime::now() + Duration::from_secs(1)).to_string()
}

/// `dbio merge FILES… --json m.json`: exit status and stderr.
fn merge(dir: &Path, files: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["merge"];
    args.extend(files);
    args.extend(["--json", "m.json", "--no-store", "-q"]);
    let (code, _, err) = dbio_in(dir, &args);
    (code, err)
}

#[test]
fn one_run_given_twice_or_copied_is_refused_naming_both_files() {
    let dir = scratch();
    let d = dir.path();
    sim_run(d, "a.json", &soon(), "1s", &["--label", "node1"]);
    std::fs::copy(d.join("a.json"), d.join("copy.json")).unwrap();
    for files in [["a.json", "a.json"], ["a.json", "copy.json"]] {
        let (code, err) = merge(d, &files);
        assert_eq!(code, Some(2), "{files:?} merged: {err}");
        assert!(
            err.contains(&format!("{}: the same run as a.json (host ", files[1])),
            "{err}"
        );
        assert!(err.contains("count twice"), "{err}");
        assert!(!d.join("m.json").exists(), "a merged result was written");
    }
}

/// Runs `sim_run` on two hosts at once (two processes with one `--start-at`): each host's
/// own flags after the common ones.
fn two_hosts(dir: &Path, secs: &str, a: &[&str], b: &[&str]) -> (Value, Value) {
    let start = soon();
    std::thread::scope(|s| {
        let first = s.spawn(|| sim_run(dir, "a.json", &start, secs, a));
        let second = sim_run(dir, "b.json", &start, secs, b);
        (first.join().unwrap(), second)
    })
}

/// Hosts that ran with their own seeds are one workload; the merged result keeps each host's
/// seed in its row and judges the two simulated devices as two.
#[test]
fn runs_that_differ_only_in_seed_merge_and_are_judged_as_a_cluster() {
    let dir = scratch();
    let d = dir.path();
    let (a, b) = two_hosts(d, "1s", &["--seed", "7"], &["--seed", "8"]);
    let (code, err) = merge(d, &["a.json", "b.json"]);
    assert_eq!(code, Some(0), "{err}");
    let m: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("m.json")).unwrap()).unwrap();
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    assert_eq!(rows[0]["seed"], 7);
    assert_eq!(rows[1]["seed"], 8);
    // Each host's simulated device reads at most 3,500 MB/s: the cluster's ceiling is twice it.
    let mb_s = |r: &Value| r["read"]["mb_s"].as_f64().unwrap();
    let sum = mb_s(&a) + mb_s(&b);
    let verdict = m["verdict"]["message"].as_str().unwrap();
    assert!(
        verdict.contains(&format!(
            "{sum:.0} MB/s is {:.0} % of their 7000 MB/s (3500 MB/s on each of 2 hosts)",
            sum / 7000.0 * 100.0
        )),
        "{verdict}"
    );
    assert!(verdict.contains("; the slowest host was "), "{verdict}");
}

/// `--split-region 2/4` writes only in the second quarter of the target (read back from the
/// file, which starts as zeros), and the result says which part it took.
#[test]
fn split_region_keeps_a_host_in_its_part_of_the_target() {
    let dir = scratch();
    let d = dir.path();
    let target = d.join("shared.dat");
    let f = std::fs::File::create(&target).unwrap();
    f.set_len(16 << 20).unwrap();
    drop(f);
    let r = run_ok(
        d,
        &[
            "--rw",
            "randwrite",
            "--bs",
            "4k",
            "--ops",
            "2000",
            "--target",
            target.to_str().unwrap(),
            "--destroy-data",
            "--split-region",
            "2/4",
            "--no-store",
        ],
    );
    assert_eq!(r["job"]["region"]["split"]["part"], 2);
    assert_eq!(r["job"]["region"]["split"]["parts"], 4);
    let blocks: Vec<usize> = written_blocks(&target);
    // 16 MiB is 4,096 blocks; the second quarter is blocks 1,024 to 2,047.
    assert!(blocks.len() > 500, "only {} blocks written", blocks.len());
    assert!(
        blocks.iter().all(|b| (1024..2048).contains(b)),
        "written outside the second quarter: {:?}",
        blocks.iter().find(|b| !(1024..2048).contains(*b))
    );
}

#[test]
fn a_split_region_that_is_not_a_part_of_parts_is_refused() {
    let dir = scratch();
    let d = dir.path();
    for (value, says) in [
        ("5/4", "the part is a number from 1 to the number of parts"),
        ("0/4", "the part is a number from 1 to the number of parts"),
        ("half", "write PART/PARTS"),
    ] {
        let ran = dbio_run(
            d,
            &["--engine", "sim", "--split-region", value, "--no-store"],
        );
        assert_one_line_error(&ran, &[&format!("--split-region {value}"), says]);
    }
    let ran = dbio_run(d, &["--engine", "sim", "--no-store", "--split-region"]);
    assert_one_line_error(
        &ran,
        &["--split-region alone splits the region among --hosts"],
    );
    let ran = dbio_run(
        d,
        &[
            "--engine",
            "sim",
            "--no-store",
            "--hosts",
            "db1,db2",
            "--split-region",
            "2/4",
        ],
    );
    assert_one_line_error(&ran, &["with --hosts give --split-region alone"]);
}
