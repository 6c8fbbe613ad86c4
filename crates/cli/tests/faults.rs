//! Faults injected for real: a FUSE file system of the tests' own (`faultfs`) returns EIO,
//! drops, tears, misdirects or slows writes, and dbio, reading and writing through the
//! kernel (directly, or through a loop device over the FUSE file), must say so. The oracle
//! is what the file system recorded doing, not dbio's own figures.

#![forbid(unsafe_code)]

mod common;
mod faultfs;
mod verify_oracle;
use common::*;
use dbio_db::testkit::{or_skip, Ext4Loop};
use faultfs::{FaultMount, Faults, FuseLoop, Stored};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;
use verify_oracle::{block, Block, UNIT};

const SIZE: usize = 8 << 20;

/// A mounted fault file system over 8 MiB of pseudo-random bytes.
fn mount(test: &str) -> Option<FaultMount> {
    FaultMount::new(test, pseudo_random(SIZE, 7))
}

/// Runs dbio in the background with `args` (plus `--json` and `-q`) and waits, up to a
/// generous bound, for it to end.
fn run_bounded(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, Option<Value>) {
    let json = dir.join("out.json");
    let _ = std::fs::remove_file(&json);
    let child = dbio_command()
        .arg("run")
        .args(args)
        .args(["--no-store", "-q", "--json"])
        .arg(&json)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_bounded(child, Duration::from_secs(300));
    let r = std::fs::read(&json)
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        r,
    )
}

/// The offset in "pread|pwrite at offset N" of a message.
fn offset_in(msg: &str, op: &str) -> u64 {
    let at = msg
        .find(&format!("{op} at offset "))
        .unwrap_or_else(|| panic!("no '{op} at offset' in: {msg}"));
    msg[at + op.len() + 11..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn eio_case(test: &str, op: &str, via_loop: bool) {
    let Some(m) = mount(test) else { return };
    let lo = if via_loop {
        match FuseLoop::attach(test, &m.file) {
            Some(l) => Some(l),
            None => return,
        }
    } else {
        None
    };
    let target = lo
        .as_ref()
        .map_or(m.file.display().to_string(), |l| l.dev.clone());
    let range = (3 << 20)..(4 << 20);
    m.fs.set(Faults {
        eio_read: (op == "pread").then(|| range.clone()),
        eio_write: (op == "pwrite").then(|| range.clone()),
        ..Faults::default()
    });
    let dir = scratch();
    let rw = if op == "pread" {
        "randread"
    } else {
        "randwrite"
    };
    let (code, err, r) = run_bounded(
        dir.path(),
        &[
            "--target",
            &target,
            "--rw",
            rw,
            "--bs",
            "4k",
            "--duration",
            "120s",
            "--destroy-data",
        ],
    );
    assert_eq!(code, Some(1), "{test}: {err}");
    let r = r.expect("a partial result is written");
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "io_error");
    let msg = r["outcome"]["detail"].as_str().unwrap().to_string();
    assert!(err.contains(&msg), "{test}: stderr {err:?} lacks {msg:?}");
    assert!(msg.contains(&target), "{test}: {msg}");
    assert!(msg.contains("Input/output error"), "{test}: {msg}");
    let off = offset_in(&msg, op);
    assert!(
        range.contains(&off),
        "{test}: offset {off} outside the faulty range"
    );
    // The file system returned EIO for that very block.
    let kind = if op == "pread" { "read" } else { "write" };
    let hit = m.fs.log(|l| {
        l.eio
            .iter()
            .any(|&(k, o, n)| k == kind && o <= off && off < o + n as u64)
    });
    assert!(hit, "{test}: faultfs returned no EIO at {off}");
    let dir_key = if op == "pread" { "read" } else { "write" };
    assert!(
        ios(&r, dir_key) > 0,
        "{test}: the partial result kept what was done"
    );
}

#[test]
fn eio_on_reads_names_the_op_target_and_offset_and_keeps_a_partial_result() {
    eio_case(
        "eio_on_reads_names_the_op_target_and_offset_and_keeps_a_partial_result",
        "pread",
        false,
    );
}

#[test]
fn eio_on_writes_names_the_op_target_and_offset_and_keeps_a_partial_result() {
    eio_case(
        "eio_on_writes_names_the_op_target_and_offset_and_keeps_a_partial_result",
        "pwrite",
        false,
    );
}

#[test]
fn eio_through_a_loop_device_over_the_fuse_file() {
    eio_case(
        "eio_through_a_loop_device_over_the_fuse_file",
        "pwrite",
        true,
    );
}

/// What the final state of each 4 KiB block must be judged, from the file system's record
/// of every write in the order it stored them: the block's last storage event decides.
fn expected_bad(log: &[(u64, u32, Stored)]) -> (BTreeMap<u64, &'static str>, BTreeSet<u64>) {
    let mut last: BTreeMap<u64, Option<&'static str>> = BTreeMap::new();
    let mut faulted = BTreeSet::new();
    let u = UNIT as u64;
    for &(off, len, what) in log {
        let blocks = (off / u)..((off + len as u64) / u);
        match what {
            Stored::Whole => blocks.for_each(|b| {
                last.insert(b * u, None);
            }),
            Stored::Dropped => blocks.for_each(|b| {
                last.insert(b * u, Some("lost-or-never"));
                faulted.insert(b * u);
            }),
            Stored::Half => {
                // The first half of the write is stored: blocks wholly in it are good, the
                // block the cut falls in is torn, the rest keep older contents.
                let cut = off + len as u64 / 2;
                for b in blocks {
                    let (s, e) = (b * u, b * u + u);
                    let v = if e <= cut {
                        None
                    } else if s < cut {
                        Some("torn")
                    } else {
                        Some("lost-or-never")
                    };
                    last.insert(s, v);
                    faulted.insert(s);
                }
            }
            Stored::Moved(to) => {
                for b in blocks.clone() {
                    last.insert(b * u, Some("lost-or-never"));
                    faulted.insert(b * u);
                }
                for k in 0..(len as u64 / u) {
                    last.insert(to + k * u, Some("misdirected"));
                    faulted.insert(to + k * u);
                }
            }
        }
    }
    let bad = last
        .into_iter()
        .filter_map(|(b, v)| v.map(|v| (b, v)))
        .collect();
    (bad, faulted)
}

/// Runs a verifying randrw run with `faults` on the file (or a loop device over it) and
/// holds the bad blocks dbio lists against what the file system did.
fn verify_case(test: &str, faults: Faults, bs: &str, via_loop: bool) {
    let Some(m) = mount(test) else { return };
    let lo = if via_loop {
        match FuseLoop::attach(test, &m.file) {
            Some(l) => Some(l),
            None => return,
        }
    } else {
        None
    };
    let target = lo
        .as_ref()
        .map_or(m.file.display().to_string(), |l| l.dev.clone());
    let limit = faults.limit;
    m.fs.set(faults);
    let dir = scratch();
    let (code, err, r) = run_bounded(
        dir.path(),
        &[
            "--target",
            &target,
            "--rw",
            "randrw",
            "--bs",
            bs,
            "--qd",
            "8",
            "--ops",
            "6000",
            "--destroy-data",
            "--verify",
        ],
    );
    let r = r.expect("a result");
    let (bad, faulted) = expected_bad(&m.fs.log(|l| l.writes.clone()));
    let used = m.fs.log(|l| l.faults);
    assert_eq!(used, limit, "{test}: faults injected");
    assert!(!bad.is_empty(), "{test}: every fault was overwritten");
    assert_eq!(code, Some(3), "{test}: {err}");
    assert!(err.contains("bad blocks (exit status 3)"), "{err}");
    let listed: Vec<(String, u64)> = r["verify"]["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap().to_string(),
                c["offset"].as_u64().unwrap(),
            )
        })
        .collect();
    let total = r["verify"]["corrupt"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum::<u64>();
    assert!(
        total as usize <= 20,
        "{test}: {total} bad blocks, more than listed"
    );
    // Every block the file system left bad is found, as its kind ...
    for (off, kind) in &bad {
        let found: Vec<&String> = listed
            .iter()
            .filter(|(_, o)| o == off)
            .map(|(k, _)| k)
            .collect();
        let ok = found.iter().any(|k| match *kind {
            "lost-or-never" => *k == "lost" || *k == "never_written",
            other => *k == other,
        });
        assert!(
            ok,
            "{test}: block {off} left {kind}, dbio listed {found:?}; all: {listed:?}"
        );
    }
    // ... and nothing is listed that no fault touched.
    for (k, off) in &listed {
        assert!(
            faulted.contains(off),
            "{test}: {k} at {off}, where no fault was"
        );
    }
}

#[test]
fn dropped_writes_are_found_lost() {
    let t = "dropped_writes_are_found_lost";
    let f = Faults {
        drop_writes: Some(0..SIZE as u64),
        limit: 6,
        ..Faults::default()
    };
    verify_case(t, f, "4k", false);
}

#[test]
fn half_stored_writes_are_found_torn() {
    let t = "half_stored_writes_are_found_torn";
    let f = Faults {
        half_writes: Some(0..SIZE as u64),
        limit: 6,
        ..Faults::default()
    };
    verify_case(t, f, "4k", false);
}

#[test]
fn misdirected_writes_are_found_at_both_ends() {
    let t = "misdirected_writes_are_found_at_both_ends";
    let f = Faults {
        misdirect: Some((0..SIZE as u64, 1 << 20)),
        limit: 5,
        ..Faults::default()
    };
    verify_case(t, f, "4k", false);
}

#[test]
fn faults_through_a_loop_device_are_found_too() {
    let t = "faults_through_a_loop_device_are_found_too";
    let f = Faults {
        drop_writes: Some(0..SIZE as u64),
        limit: 4,
        ..Faults::default()
    };
    verify_case(t, f, "8k", true);
}

#[test]
fn a_slow_device_under_an_open_loop_rate_shows_latency_growing_from_each_scheduled_start() {
    let t = "a_slow_device_under_an_open_loop_rate_shows_latency_growing_from_each_scheduled_start";
    let Some(m) = mount(t) else { return };
    let service = Duration::from_millis(4);
    m.fs.set(Faults {
        latency: Some(service),
        ..Faults::default()
    });
    let dir = scratch();
    let rate = 2000u64;
    let (code, err, r) = run_bounded(
        dir.path(),
        &[
            "--target",
            m.file.to_str().unwrap(),
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--qd",
            "16",
            "--rate",
            "2000",
            "--duration",
            "3s",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let r = r.unwrap();
    let served = m.fs.log(|l| l.reads);
    let secs = num(&r, "/measured_secs");
    // At most 4 file-system threads each serve one read per 4 ms: far below the rate.
    assert!(
        (served as f64) < rate as f64 * secs * 0.9,
        "served {served} reads in {secs} s"
    );
    let lat = &r["read"]["latency_ns"];
    let min = lat["min"].as_u64().unwrap();
    assert!(
        min >= service.as_nanos() as u64 * 99 / 100,
        "min latency {min} ns under the device's 4 ms"
    );
    // Read k is due at k/rate; it cannot complete before the file system has served k reads,
    // so the last ones wait for most of the run: the latency from their scheduled start.
    let behind = secs - served as f64 / rate as f64;
    let max = lat["max"].as_u64().unwrap() as f64 / 1e9;
    assert!(
        max >= behind * 0.5,
        "max latency {max} s; the schedule fell {behind} s behind"
    );
    let series = r["timeseries"].as_array().unwrap();
    let p99 = |p: &Value| p["p99_us"].as_f64().unwrap();
    assert!(
        p99(series.last().unwrap()) > 2.0 * p99(&series[0]),
        "latency did not grow over the run: {series:?}"
    );
    assert!(
        warning_codes(&r).iter().any(|c| c == "rate-not-kept"),
        "{:?}",
        warning_codes(&r)
    );
}

#[test]
fn a_full_file_system_mid_run_gives_enospc_with_op_target_and_offset() {
    let t = "a_full_file_system_mid_run_gives_enospc_with_op_target_and_offset";
    let Some(fs) = ext4(t, 64) else {
        return;
    };
    let mnt = fs.path().to_path_buf();
    let dir = scratch();
    // A sparse file dbio writes into (so its writes allocate), and a filler that takes the rest.
    let target = mnt.join("data");
    std::fs::File::create(&target)
        .unwrap()
        .set_len(40 << 20)
        .unwrap();
    let json = dir.path().join("out.json");
    let child = dbio_command()
        .args([
            "run",
            "--rw",
            "write",
            "--bs",
            "64k",
            "--buffered",
            "--rate",
            "100",
        ])
        .args([
            "--duration",
            "600s",
            "--destroy-data",
            "--no-store",
            "-q",
            "--json",
        ])
        .arg(&json)
        .arg("--target")
        .arg(&target)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::os::unix::fs::MetadataExt;
    let waited = std::time::Instant::now();
    while std::fs::metadata(&target).unwrap().blocks() * 512 < (1 << 20) {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "dbio wrote nothing in 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut filler = std::fs::File::create(mnt.join("filler")).unwrap();
    let chunk = vec![1u8; 1 << 20];
    use std::io::Write;
    while filler.write_all(&chunk).is_ok() {}
    let _ = filler.sync_all();
    let out = wait_bounded(child, Duration::from_secs(300));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let r: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["partial"], true);
    let msg = r["outcome"]["detail"].as_str().unwrap();
    assert!(msg.contains("No space left on device"), "{msg}");
    assert!(msg.contains(target.to_str().unwrap()), "{msg}");
    let off = offset_in(msg, "pwrite");
    // Independently: the file system is full, and the failed write lay beyond what the file
    // had allocated.
    let st = nix_free(&mnt);
    assert!(st < 4 << 20, "{st} bytes still free");
    assert!(off < 40 << 20 && off.is_multiple_of(65536), "offset {off}");
    assert!(
        ios(&r, "write") > 0,
        "the partial result kept the writes done"
    );
}

/// Bytes free on the file system at `p` (df, so no unsafe here).
fn nix_free(p: &std::path::Path) -> u64 {
    let out = std::process::Command::new("df")
        .args(["-B1", "--output=avail"])
        .arg(p)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// A fresh ext4 of `mib` MiB on a loop device, mounted; None (after a skip) when it cannot
/// be made. Unmounted (lazily when still busy) and detached on drop.
fn ext4(test: &str, mib: u64) -> Option<Ext4Loop> {
    or_skip(test, Ext4Loop::make(mib << 20))
}

/// Fills the file system of `dir` until under `left` bytes are free (a file `filler`).
fn fill(dir: &Path, left: u64) {
    use std::io::Write;
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    for chunk in [1 << 20, UNIT] {
        let bytes = vec![1u8; chunk];
        while f.write_all(&bytes).is_ok() {}
        let _ = f.sync_all();
    }
    let len = f.metadata().unwrap().len();
    f.set_len(len.saturating_sub(left / 2)).unwrap();
    f.sync_all().unwrap();
    let free = nix_free(dir);
    assert!(free < left, "{free} bytes free after filling");
}

#[test]
fn a_journal_that_cannot_be_written_fails_the_run_and_is_refused_after() {
    let t = "a_journal_that_cannot_be_written_fails_the_run_and_is_refused_after";
    let Some(fs) = ext4(t, 64) else {
        return;
    };
    fill(fs.path(), 64 << 10);
    let dir = scratch();
    let target = dir.path().join("x.dat");
    let j = fs.path().join("j.jnl");
    // 64 MiB of 4 KiB blocks: a 128 KiB table, more than the journal's file system has free.
    let (code, err, r) = run_bounded(
        dir.path(),
        &[
            "--rw",
            "randwrite",
            "--bs",
            "8k",
            "--size",
            "64MiB",
            "--duration",
            "5s",
            "--target",
            target.to_str().unwrap(),
            "--verify-journal",
            j.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    let r = r.expect("a partial result is written");
    assert_eq!(r["outcome"]["status"], "io_error", "{r}");
    let msg = r["outcome"]["detail"].as_str().unwrap();
    assert!(err.contains(msg), "stderr {err:?} lacks {msg:?}");
    assert!(
        msg.contains(j.to_str().unwrap()),
        "names the journal: {msg}"
    );
    assert!(msg.contains("No space left on device"), "{msg}");
    let off = offset_in(msg, "pwrite");
    let len = std::fs::metadata(&j).unwrap().len();
    assert!(off > 0 && off < len, "offset {off} in a {len}-byte journal");
    // dbio verify knows the journal to be incomplete.
    let (code, _, err) = dbio_in(dir.path(), &["verify", "--journal", j.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("incomplete"), "{err}");
}

#[test]
fn a_journal_failure_in_a_sweep_is_a_failure_not_an_interruption() {
    let t = "a_journal_failure_in_a_sweep_is_a_failure_not_an_interruption";
    let Some(fs) = ext4(t, 64) else {
        return;
    };
    fill(fs.path(), 64 << 10);
    let dir = scratch();
    let target = dir.path().join("x.dat");
    let j = fs.path().join("j.jnl");
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "sweep",
            "--vary",
            "qd=1,2",
            "--rw",
            "randwrite",
            "--bs",
            "8k",
        ])
        .args(["--size", "64MiB", "--duration", "5s", "--no-store"])
        .arg("--target")
        .arg(&target)
        .arg("--verify-journal")
        .arg(&j)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = wait_bounded(out, Duration::from_secs(300));
    let err = String::from_utf8_lossy(&out.stderr);
    // The step failed (exit 1); it was not taken for the user's Ctrl-C (exit 130).
    let said = format!("{}{err}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("partial: the sweep stopped"), "{said}");
    // And it says why, naming the step and the journal.
    assert!(
        said.contains("before its last step, at step qd=1: the journal"),
        "{said}"
    );
}

#[test]
fn a_verify_pass_that_cannot_read_fails_the_run_and_counts_only_what_it_checked() {
    let t = "a_verify_pass_that_cannot_read_fails_the_run_and_counts_only_what_it_checked";
    let Some(m) = mount(t) else { return };
    let range = (3 << 20)..(4 << 20);
    m.fs.set(Faults {
        eio_read: Some(range.clone()),
        ..Faults::default()
    });
    let dir = scratch();
    let (code, err, r) = journaled_4k(
        dir.path(),
        &m.file,
        "randwrite",
        None,
        "4000",
        &dir.path().join("j"),
    );
    assert_eq!(code, Some(1), "{err}");
    let r = r.expect("a result");
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "io_error");
    let msg = r["outcome"]["detail"].as_str().unwrap();
    assert!(err.contains(msg), "stderr {err:?} lacks {msg:?}");
    assert!(msg.contains("Input/output error"), "{msg}");
    // The pass reads in order: it stops at the first block of the failing range.
    assert_eq!(offset_in(msg, "pread"), range.start, "{msg}");
    // What it checked: every block of the run before that one (the test's own reading).
    let run = verify_oracle::run_id(&r);
    let bytes = m.fs.bytes();
    let good = bytes[..range.start as usize]
        .chunks_exact(UNIT)
        .filter(|b| matches!(block(b, run), Block::Good { .. }))
        .count() as u64;
    assert!(good > 0);
    assert_eq!(r["verify"]["blocks_checked_after"].as_u64(), Some(good));
    // dbio verify of the run's journal: the same failure, the same count, said incomplete.
    let out = dir.path().join("verify.json");
    let j = dir.path().join("j");
    let (code, stdout, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(offset_in(&err, "pread"), range.start, "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["blocks_checked_after"].as_u64(), Some(good), "{v}");
    assert!(
        stdout.contains("INCOMPLETE") && stdout.contains(&format!("among the {good} checked")),
        "{stdout}"
    );
}

#[test]
fn blocks_found_bad_during_a_run_stay_bad_for_dbio_verify() {
    let t = "blocks_found_bad_during_a_run_stay_bad_for_dbio_verify";
    let Some(m) = mount(t) else { return };
    m.fs.set(Faults {
        drop_writes: Some(0..SIZE as u64),
        limit: 8,
        ..Faults::default()
    });
    let dir = scratch();
    let j = dir.path().join("j");
    let (code, err, _) = journaled_4k(dir.path(), &m.file, "randrw", Some("8"), "6000", &j);
    assert_eq!(code, Some(3), "{err}");
    let (bad, faulted) = expected_bad(&m.fs.log(|l| l.writes.clone()));
    assert!(!bad.is_empty(), "every fault was overwritten");
    let out = dir.path().join("verify.json");
    let (code, _, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(3), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let listed = first_offsets(&v);
    // Every block the file system left bad is reported, and nothing a fault did not touch.
    for off in bad.keys() {
        assert!(
            listed.contains(off),
            "block {off} left bad, not reported: {v}"
        );
    }
    assert!(listed.iter().all(|o| faulted.contains(o)), "{v}");
}

/// The offsets of the bad blocks a `dbio verify` report lists (its "first").
fn first_offsets(v: &Value) -> BTreeSet<u64> {
    v["first"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["offset"].as_u64().unwrap())
        .collect()
}

/// `run_bounded` of `--target TARGET --rw RW --bs 4k [--qd QD] --ops OPS --destroy-data
/// --verify-journal J`: a journaled run of `ops` 4 KiB operations on the faulty file system.
fn journaled_4k(
    dir: &Path,
    target: &Path,
    rw: &str,
    qd: Option<&str>,
    ops: &str,
    j: &Path,
) -> (Option<i32>, String, Option<Value>) {
    let mut args = vec![
        "--target",
        target.to_str().unwrap(),
        "--rw",
        rw,
        "--bs",
        "4k",
    ];
    if let Some(qd) = qd {
        args.extend(["--qd", qd]);
    }
    args.extend([
        "--ops",
        ops,
        "--destroy-data",
        "--verify-journal",
        j.to_str().unwrap(),
    ]);
    run_bounded(dir, &args)
}

/// Starts a verifying `dbio run` of `args` (plus `--no-store -q --json out.json`) in `dir`.
fn spawn_run(dir: &Path, args: &[&str]) -> std::process::Child {
    dbio_command()
        .current_dir(dir)
        .arg("run")
        .args(args)
        .args(["--no-store", "-q", "--json", "out.json"])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits, up to a generous bound, until `cond` holds.
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let waited = std::time::Instant::now();
    while !cond() {
        assert!(
            waited.elapsed() < Duration::from_secs(180),
            "waited 180 s for {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_stop_during_the_final_pass_ends_the_pass_not_the_window() {
    let t = "a_stop_during_the_final_pass_ends_the_pass_not_the_window";
    let Some(m) = mount(t) else { return };
    // Slow reads: the pass (64 reads of 128 KiB at least) takes many seconds.
    m.fs.set(Faults {
        read_latency: Some(Duration::from_millis(300)),
        ..Faults::default()
    });
    let dir = scratch();
    let target = m.file.to_str().unwrap();
    let args = [
        "--target",
        target,
        "--rw",
        "randwrite",
        "--bs",
        "4k",
        "--ops",
        "500",
    ];
    let child = spawn_run(
        dir.path(),
        &[&args[..], &["--destroy-data", "--verify"]].concat(),
    );
    // The run's writes only write; the reads before them sample the target.
    wait_for("the first write", || m.fs.log(|l| !l.writes.is_empty()));
    let sampled = m.fs.log(|l| l.reads);
    wait_for("the pass's first read", || m.fs.log(|l| l.reads > sampled));
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(300));
    let err = String::from_utf8_lossy(&out.stderr);
    let r: Value = serde_json::from_slice(&std::fs::read(dir.path().join("out.json")).unwrap())
        .unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(r["outcome"]["status"], "complete", "{err}{r}");
    assert_eq!(r["partial"], false, "{r}");
    let pass = r["verify"]["final_pass"].as_str().unwrap();
    assert!(pass.starts_with("interrupted"), "{pass}");
    let v = &r["verify"];
    let read_back =
        v["blocks_checked_after"].as_u64().unwrap() + v["blocks_unwritten"].as_u64().unwrap();
    assert!(
        read_back < (SIZE / UNIT) as u64,
        "the pass ended early: {r}"
    );
}

#[test]
fn a_pass_failing_after_ctrl_c_is_not_said_to_have_stopped_the_run() {
    let t = "a_pass_failing_after_ctrl_c_is_not_said_to_have_stopped_the_run";
    let Some(m) = mount(t) else { return };
    m.fs.set(Faults {
        eio_read: Some((3 << 20)..(4 << 20)),
        ..Faults::default()
    });
    let dir = scratch();
    let target = m.file.to_str().unwrap();
    let args = [
        "--target",
        target,
        "--rw",
        "randwrite",
        "--bs",
        "4k",
        "--duration",
        "600s",
    ];
    let child = spawn_run(
        dir.path(),
        &[&args[..], &["--destroy-data", "--verify"]].concat(),
    );
    wait_for("100 writes", || m.fs.log(|l| l.writes.len() >= 100));
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(300));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let r: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out.json")).unwrap()).unwrap();
    assert_eq!(r["outcome"]["status"], "io_error", "{r}");
    assert!(
        r["outcome"]["detail"].as_str().unwrap().contains("pread"),
        "{r}"
    );
    let partial: Vec<&str> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "partial")
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert_eq!(partial.len(), 1, "{r}");
    assert!(partial[0].contains("interrupted (Ctrl-C"), "{partial:?}");
    assert!(
        !partial[0].contains("stopped by a verification failure"),
        "{partial:?}"
    );
}

/// The sequence part of a journal entry (its top bits are flags: bit 62 "not to be checked").
const SEQ: u64 = (1 << 59) - 1;

/// A journal entry's "found bad during the run" bit.
const BAD: u64 = 1 << 61;

#[test]
fn blocks_the_final_pass_finds_bad_are_journaled_bad() {
    let t = "blocks_the_final_pass_finds_bad_are_journaled_bad";
    let Some(m) = mount(t) else { return };
    m.fs.set(Faults {
        drop_writes: Some(0..SIZE as u64),
        limit: 6,
        ..Faults::default()
    });
    let dir = scratch();
    let j = dir.path().join("j");
    // Writes only: no read of the run finds a dropped block, the final pass does.
    let (code, err, r) = journaled_4k(dir.path(), &m.file, "randwrite", Some("8"), "3000", &j);
    assert_eq!(code, Some(3), "{err}");
    let r = r.expect("a result");
    let by_pass: BTreeSet<u64> = r["verify"]["first"]
        .as_array()
        .unwrap()
        .iter()
        .inspect(|c| assert_eq!(c["found_by"], "final-pass", "{c}"))
        .map(|c| c["offset"].as_u64().unwrap())
        .collect();
    assert!(!by_pass.is_empty(), "{r}");
    // The journal holds every one of them as found bad ...
    let jv = verify_oracle::journal(&j);
    for off in &by_pass {
        let e = jv.targets[0].2[*off as usize / UNIT];
        assert!(
            e & BAD != 0,
            "block {off}: journal entry {e:#x} lacks the bad bit"
        );
    }
    // ... and dbio verify --journal reports them.
    let out = dir.path().join("verify.json");
    let (code, _, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(3), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let listed = first_offsets(&v);
    assert!(by_pass.is_subset(&listed), "{by_pass:?} not all in {v}");
}

#[test]
fn after_sigkill_every_block_left_bad_is_reported_by_dbio_verify() {
    let t = "after_sigkill_every_block_left_bad_is_reported_by_dbio_verify";
    let Some(m) = mount(t) else { return };
    let limit = 100;
    m.fs.set(Faults {
        drop_writes: Some(0..SIZE as u64),
        limit,
        ..Faults::default()
    });
    let dir = scratch();
    let j = dir.path().join("j");
    let mut child = dbio_command()
        .args(["run", "--rw", "randrw", "--bs", "4k", "--qd", "8"])
        .args(["--duration", "600s", "--destroy-data", "--no-store", "-q"])
        .arg("--target")
        .arg(&m.file)
        .arg("--verify-journal")
        .arg(&j)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Every drop used, and reads of the run have found blocks bad (marked "not to be checked"
    // in the journal) before it is killed.
    let found_bad = || match std::fs::read(&j) {
        Ok(b) if b.len() > 12 => verify_oracle::journal(&j).targets[0]
            .2
            .iter()
            .filter(|e| **e & (1 << 62) != 0)
            .count(),
        _ => 0,
    };
    let waited = std::time::Instant::now();
    while m.fs.log(|l| l.faults) < limit || found_bad() < 20 {
        assert!(
            waited.elapsed() < Duration::from_secs(180),
            "waited 180 s: {} drops, {} blocks found bad",
            m.fs.log(|l| l.faults),
            found_bad()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The test's own reading: a block journaled as written must hold that write or a later one.
    let jv = verify_oracle::journal(&j);
    let bytes = m.fs.bytes();
    let bad: BTreeSet<u64> = jv.targets[0]
        .2
        .iter()
        .enumerate()
        .filter(|(_, e)| **e & SEQ > 0)
        .filter(|&(i, e)| {
            let at = (i * UNIT) as u64;
            !matches!(block(&bytes[i * UNIT..(i + 1) * UNIT], jv.run),
                Block::Good { offset, seq, .. } if offset == at && seq >= e & SEQ)
        })
        .map(|(i, _)| (i * UNIT) as u64)
        .collect();
    let (_, faulted) = expected_bad(&m.fs.log(|l| l.writes.clone()));
    assert!(
        bad.iter().all(|b| faulted.contains(b)),
        "bad where no fault was"
    );
    assert!(!bad.is_empty());
    let out = dir.path().join("verify.json");
    let (code, _, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(3), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let total: u64 = v["corrupt"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    // Every block bad now is reported; so may be blocks the run found bad whose rewrite
    // landed but was not yet acknowledged at the kill. Nothing where no fault was.
    assert!(
        total >= bad.len() as u64 && total <= faulted.len() as u64,
        "{total} reported, {} bad now, {} faulted: {v}",
        bad.len(),
        faulted.len()
    );
    for c in v["first"].as_array().unwrap() {
        assert!(faulted.contains(&c["offset"].as_u64().unwrap()), "{c}");
    }
}
