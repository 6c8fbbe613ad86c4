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
