//! `dbio reduce` given only paths that yield nothing to read (an empty file, `/proc/self/mem`,
//! an empty directory, a missing path) refuses in one line naming each path, exits 2, and
//! stores nothing; an empty file beside one that holds data is noted and the rest estimated.
//! The history is counted with `dbio history` against the estimates the test itself stored.

mod common;

use common::*;
use serde_json::Value;
use std::path::Path;

/// What one `dbio reduce` did.
struct Reduced {
    code: Option<i32>,
    stderr: String,
    json: Option<Value>,
}

/// `dbio reduce ARGS --db DIR/history.db --json DIR/reduce.json`.
fn reduce(dir: &Path, args: &[&str]) -> Reduced {
    let json = dir.join("reduce.json");
    let _ = std::fs::remove_file(&json);
    let out = dbio_command()
        .arg("reduce")
        .args(args)
        .arg("--db")
        .arg(dir.join("history.db"))
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run dbio reduce");
    Reduced {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        json: std::fs::read(&json)
            .ok()
            .map(|b| serde_json::from_slice(&b).expect("the JSON result is JSON")),
    }
}

/// Reduce estimates `dbio history` lists in DIR/history.db (rows whose kind is `reduce`).
fn stored_estimates(dir: &Path) -> usize {
    let db = dir.join("history.db");
    let (code, stdout, stderr) = dbio_in(dir, &["history", "--db", db.to_str().unwrap()]);
    assert_eq!(code, Some(0), "dbio history failed: {stderr}");
    stdout
        .lines()
        .filter(|l| l.split_whitespace().nth(2) == Some("reduce"))
        .count()
}

/// A file of 64 KiB that holds data (every byte 7), stored once as an estimate so the
/// history is not empty before the refused run: returns its path.
fn one_estimate_stored(dir: &Path) -> String {
    let good = dir.join("good.dat");
    std::fs::write(&good, vec![7u8; 64 * 1024]).unwrap();
    let p = good.to_str().unwrap().to_string();
    let r = reduce(dir, &[&p, "-q"]);
    assert_eq!(r.code, Some(0), "reduce of a 64 KiB file: {}", r.stderr);
    assert_eq!(stored_estimates(dir), 1, "the first estimate is stored");
    p
}

/// The refusal: exit 2, one line on stderr naming every path in `named`, no JSON, and the
/// history still holding the one estimate stored before.
#[track_caller]
fn assert_refused(dir: &Path, r: &Reduced, named: &[&str]) {
    let msg = r.stderr.trim_end();
    assert_eq!(r.code, Some(2), "exit status; stderr: {msg}");
    assert!(!msg.contains("panicked"), "panicked: {msg}");
    assert_eq!(msg.lines().count(), 1, "not one line: {msg}");
    assert!(msg.starts_with("dbio reduce: nothing to read"), "{msg}");
    assert!(
        msg.contains("Give files, directory trees or block devices that hold data"),
        "the message does not say what to do: {msg}"
    );
    for n in named {
        assert!(msg.contains(n), "the message does not name {n}: {msg}");
    }
    assert!(r.json.is_none(), "a JSON result was written: {:?}", r.json);
    assert_eq!(
        stored_estimates(dir),
        1,
        "the refused run added an estimate to the history"
    );
}

#[test]
fn an_empty_file_alone_is_refused_and_nothing_is_stored() {
    let dir = scratch();
    one_estimate_stored(dir.path());
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    let p = empty.to_str().unwrap();
    let r = reduce(dir.path(), &[p]);
    assert_refused(dir.path(), &r, &[&format!("{p}: size 0")]);
}

#[test]
fn proc_self_mem_is_refused_and_nothing_is_stored() {
    let dir = scratch();
    one_estimate_stored(dir.path());
    // The oracle: the kernel states no size for it, so nothing can be listed to read.
    let md = std::fs::metadata("/proc/self/mem").expect("stat /proc/self/mem");
    assert!(md.is_file() && md.len() == 0, "/proc/self/mem: {md:?}");
    let r = reduce(dir.path(), &["/proc/self/mem"]);
    assert_refused(dir.path(), &r, &["/proc/self/mem: size 0"]);
}

#[test]
fn an_empty_tree_a_missing_path_and_an_empty_file_together_are_refused() {
    let dir = scratch();
    one_estimate_stored(dir.path());
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    let missing = dir.path().join("missing.dat");
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    let (t, m, e) = (
        tree.to_str().unwrap(),
        missing.to_str().unwrap(),
        empty.to_str().unwrap(),
    );
    let r = reduce(dir.path(), &[t, m, e]);
    assert_refused(
        dir.path(),
        &r,
        &[
            &format!("{t}: a directory with no file or block device in it"),
            &format!("{m}: No such file or directory"),
            &format!("{e}: size 0"),
        ],
    );
}

#[test]
fn an_empty_file_beside_one_with_data_is_noted_and_the_rest_estimated() {
    let dir = scratch();
    let good = one_estimate_stored(dir.path());
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    let r = reduce(dir.path(), &[empty.to_str().unwrap(), &good, "-q"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let j = r.json.expect("a JSON result");
    assert_valid(&schema("reduce-result.v1.json"), "reduce result", &j);
    // 64 KiB of one repeated byte: 8 blocks of 8 KiB, every one a pattern block.
    assert_eq!(j["bytes_read"], 64 * 1024);
    let u8k = j["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["unit"] == 8192)
        .expect("the 8 KiB unit");
    assert_eq!(u8k["blocks"], 8);
    assert_eq!(u8k["pattern_blocks"], 8);
    let notes: Vec<&str> = j["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    let e = format!("{}: size 0", empty.display());
    assert!(notes.iter().any(|n| n.starts_with(&e)), "{notes:?}");
    assert_eq!(stored_estimates(dir.path()), 2, "the estimate is stored");
}
