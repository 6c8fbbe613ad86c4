//! Faults injected for real: a FUSE file system of the tests' own (`faultfs`) returns EIO,
//! drops, tears, misdirects or slows writes, and dbio, reading and writing through the
//! kernel (directly, or through a loop device over the FUSE file), must say so. The oracle
//! is what the file system recorded doing, not dbio's own figures.

#![forbid(unsafe_code)]

mod common;
mod faultfs;
mod verify_oracle;
use common::*;
use faultfs::{FaultMount, Faults, FuseLoop, Stored};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use verify_oracle::UNIT;

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
    let Some(mkfs) = require_tool(t, "mkfs.ext4") else {
        return;
    };
    let Some(lo) = LoopDev::attach(t, &vec![0u8; 64 << 20]) else {
        return;
    };
    let dir = scratch();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let ok = std::process::Command::new(mkfs)
        .args(["-q", "-F", &lo.dev])
        .status()
        .unwrap()
        .success()
        && std::process::Command::new("mount")
            .arg(&lo.dev)
            .arg(&mnt)
            .status()
            .unwrap()
            .success();
    if !ok {
        skip(t, &format!("cannot make and mount ext4 on {}", lo.dev));
        return;
    }
    struct Unmount(std::path::PathBuf);
    impl Drop for Unmount {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }
    let _m = Unmount(mnt.clone());
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
