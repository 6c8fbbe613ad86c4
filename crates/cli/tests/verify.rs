//! Write verification end to end: clean runs of every shape find nothing and check every
//! block the test itself finds written; a run killed with SIGKILL leaves a journal that
//! `dbio verify` holds the target against with no false alarm; and blocks the test damages by
//! hand (torn, misdirected, an older copy, zeros) are each found, by kind and offset. The
//! oracle is the test's own reading of the target and the journal (`verify_oracle`).

#![forbid(unsafe_code)]

mod common;
mod verify_oracle;
use common::*;
use serde_json::Value;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::time::{Duration, Instant};
use verify_oracle::{block, blocks_of, journal, run_id, Block, UNIT};

/// The good blocks of this run in `path`, each checked to sit at its own offset.
fn good_blocks(path: &Path, run: u64) -> u64 {
    let mut good = 0;
    for (i, b) in blocks_of(path, run).iter().enumerate() {
        match b {
            Block::Good { offset, .. } => {
                assert_eq!(
                    *offset,
                    (i * UNIT) as u64,
                    "block {i} of {}",
                    path.display()
                );
                good += 1;
            }
            Block::BadSum => panic!("block {i} of {} has a bad checksum", path.display()),
            Block::Foreign => {}
        }
    }
    good
}

#[test]
fn clean_runs_of_every_shape_verify_every_block_and_find_nothing() {
    let dir = scratch();
    let f = dir.path().join("f");
    let fs = f.to_str().unwrap();
    let shapes: [&[&str]; 4] = [
        &[
            "--rw",
            "randrw",
            "--bs",
            "4k:2,16k:1",
            "--threads",
            "2",
            "--qd",
            "8",
        ],
        &["--rw", "write", "--bs", "64k", "--qd", "4"],
        &[
            "--rw",
            "randwrite",
            "--bs",
            "8k",
            "--engine",
            "psync",
            "--threads",
            "2",
        ],
        &[
            "--rw",
            "randrw",
            "--bs",
            "4k",
            "--buffered",
            "--skew",
            "hotspot:90/10",
        ],
    ];
    for shape in shapes {
        let mut args = vec!["--target", fs, "--size", "8MiB", "--duration", "1s"];
        args.extend_from_slice(shape);
        args.extend(["--verify", "--no-store"]);
        let r = run_ok(dir.path(), &args);
        let v = &r["verify"];
        assert_eq!(v["corrupt"]["torn"], 0, "{shape:?}: {v}");
        assert_eq!(
            v["corrupt"]
                .as_object()
                .unwrap()
                .values()
                .map(|n| n.as_u64().unwrap())
                .sum::<u64>(),
            0,
            "{shape:?}: {v}"
        );
        assert_eq!(v["final_pass"], "done", "{shape:?}");
        assert!(v["blocks_written"].as_u64().unwrap() > 0, "{shape:?}: {v}");
        // The pass after the run judged exactly the blocks the test finds written by the run.
        let good = good_blocks(&f, run_id(&r));
        assert!(good > 0, "{shape:?}: no block of the run in the file");
        assert_eq!(
            v["blocks_checked_after"].as_u64().unwrap(),
            good,
            "{shape:?}: {v}"
        );
    }
}

#[test]
fn each_stream_of_a_multi_stream_profile_verifies_its_own_target() {
    let dir = scratch();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let r = run_ok(
        dir.path(),
        &[
            "oltp-mix",
            "--target",
            &format!("data={}", data.display()),
            "--target",
            &format!("log={}", log.display()),
            "--size",
            "8MiB",
            "--duration",
            "1s",
            "--verify",
            "--no-store",
        ],
    );
    let run = run_id(&r);
    let (gd, gl) = (good_blocks(&data, run), good_blocks(&log, run));
    assert!(gd > 0 && gl > 0, "data {gd}, log {gl} good blocks");
    assert_eq!(
        r["verify"]["blocks_checked_after"].as_u64().unwrap(),
        gd + gl
    );
    assert_eq!(r["verify"]["first"].as_array().unwrap().len(), 0);
}

/// Nonzero entries of the journal's first table.
fn journaled(j: &Path) -> usize {
    match std::fs::read(j) {
        Ok(b) if b.len() > 12 => journal(j).targets[0].2.iter().filter(|e| **e > 0).count(),
        _ => 0,
    }
}

#[test]
fn a_run_killed_mid_way_leaves_a_journal_with_no_false_alarm_and_damage_is_found() {
    let dir = scratch();
    let (f, j) = (dir.path().join("f"), dir.path().join("journal"));
    let mut child = dbio_command()
        .args([
            "run",
            "--rw",
            "randwrite",
            "--bs",
            "4k:3,16k:1",
            "--threads",
            "2",
        ])
        .args([
            "--qd",
            "8",
            "--size",
            "8MiB",
            "--duration",
            "600s",
            "--no-store",
            "-q",
        ])
        .arg("--target")
        .arg(&f)
        .arg("--verify-journal")
        .arg(&j)
        .spawn()
        .unwrap();
    let waited = Instant::now();
    let wait = |what: &str, done: &mut dyn FnMut() -> bool| {
        while !done() {
            assert!(
                waited.elapsed() < Duration::from_secs(180),
                "waited 180 s for {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait("500 journaled blocks", &mut || journaled(&j) >= 500);
    // An older copy of the file: its good blocks are older writes than the ones to come.
    let run = journal(&j).run;
    let old = std::fs::read(&f).unwrap();
    let old_seq = |i: usize| match block(&old[i * UNIT..(i + 1) * UNIT], run) {
        Block::Good { seq, offset, .. } if offset == (i * UNIT) as u64 => Some(seq),
        _ => None,
    };
    wait("blocks journaled as rewritten since the copy", &mut || {
        let t = &journal(&j).targets[0].2;
        (0..t.len())
            .filter(|&i| old_seq(i).is_some_and(|s| s < t[i]))
            .count()
            >= 50
    });
    child.kill().unwrap();
    child.wait().unwrap();

    // No false alarm: and the test's own reading agrees block by block.
    let jv = journal(&j);
    let table = jv.targets[0].2.clone();
    let now = blocks_of(&f, run);
    for (i, e) in table.iter().enumerate().filter(|(_, e)| **e > 0) {
        match now[i] {
            Block::Good { offset, seq, .. } => {
                assert_eq!(offset, (i * UNIT) as u64, "block {i}");
                assert!(seq >= *e, "block {i}: write #{seq} on disk, #{e} journaled");
            }
            b => panic!("block {i} journaled as write #{e} holds {b:?}"),
        }
    }
    let out = dir.path().join("clean.json");
    let (code, _, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(0), "dbio verify after SIGKILL: {err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let good = now
        .iter()
        .filter(|b| matches!(b, Block::Good { .. }))
        .count() as u64;
    assert_eq!(v["blocks_checked_after"].as_u64().unwrap(), good);
    assert_eq!(
        v["blocks_written"].as_u64().unwrap(),
        table.iter().filter(|e| **e > 0).count() as u64
    );

    // Damage four journaled blocks, one of each kind.
    let written: Vec<usize> = (0..table.len()).filter(|&i| table[i] > 0).collect();
    let lost = (0..table.len())
        .find(|&i| old_seq(i).is_some_and(|s| s < table[i]))
        .expect("a block rewritten since the copy");
    let others: Vec<usize> = written.iter().copied().filter(|&i| i != lost).collect();
    let (torn, from, misdirected, zeroed) = (others[0], others[1], others[2], others[3]);
    let file = std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    let at = |i: usize| (i * UNIT) as u64;
    let mut b = now_block(&f, torn);
    b[2000] ^= 0xff;
    file.write_all_at(&b, at(torn)).unwrap();
    file.write_all_at(&now_block(&f, from), at(misdirected))
        .unwrap();
    file.write_all_at(&old[lost * UNIT..(lost + 1) * UNIT], at(lost))
        .unwrap();
    file.write_all_at(&[0u8; UNIT], at(zeroed)).unwrap();
    file.sync_all().unwrap();
    let out = dir.path().join("damaged.json");
    let (code, _, err) = verify_journal(dir.path(), &j, &out, &[]);
    assert_eq!(code, Some(3), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let c = &v["corrupt"];
    assert_eq!(
        (
            c["torn"].as_u64(),
            c["misdirected"].as_u64(),
            c["lost"].as_u64(),
            c["never_written"].as_u64()
        ),
        (Some(1), Some(1), Some(1), Some(1)),
        "{v}"
    );
    let found: Vec<(String, u64)> = v["first"]
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
    for (kind, i) in [
        ("torn", torn),
        ("misdirected", misdirected),
        ("lost", lost),
        ("never_written", zeroed),
    ] {
        assert!(
            found.contains(&(kind.to_string(), at(i))),
            "{kind} at {}: {found:?}",
            at(i)
        );
    }
    assert!(err.contains("4 bad blocks"), "{err}");
}

/// Block `i` of `path` as it is now.
fn now_block(path: &Path, i: usize) -> Vec<u8> {
    let mut b = vec![0u8; UNIT];
    std::fs::File::open(path)
        .unwrap()
        .read_exact_at(&mut b, (i * UNIT) as u64)
        .unwrap();
    b
}

#[test]
fn a_file_that_is_not_a_journal_is_refused_with_exit_2() {
    let dir = scratch();
    let p = dir.path().join("notes.txt");
    std::fs::write(&p, "hello").unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["verify", "--journal", p.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a dbio verify journal"), "{err}");
}

/// `dbio verify --journal J ARGS` run in `dir`: exit status, stderr and the JSON report.
fn verify_in(dir: &Path, j: &Path, args: &[&str]) -> (Option<i32>, String, Option<Value>) {
    let out = dir.join("verify-report.json");
    let _ = std::fs::remove_file(&out);
    let (code, _, err) = verify_journal(dir, j, &out, args);
    let v = std::fs::read(&out)
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap());
    (code, err, v)
}

/// A verifying 4k randwrite run of 2000 writes on `target` keeping journal `j` (both as
/// given, from working directory `dir`); returns its JSON result.
fn journaled_run(dir: &Path, target: &str, j: &str) -> Value {
    let json = dir.join("run.json");
    let (code, _, err) = dbio_in(
        dir,
        &[
            "run",
            "--target",
            target,
            "--size",
            "8MiB",
            "--rw",
            "randwrite",
            "--bs",
            "4k",
            "--ops",
            "2000",
            "--verify-journal",
            j,
            "--no-store",
            "-q",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

#[test]
fn a_journal_finds_its_target_from_any_folder_and_at_a_new_path() {
    let dir = scratch();
    let elsewhere = scratch();
    let r = journaled_run(dir.path(), "r.dat", "j");
    let (f, j) = (dir.path().join("r.dat"), dir.path().join("j"));
    let good = good_blocks(&f, run_id(&r));
    assert!(good > 0);
    // From another working directory, with the target given relative at the run.
    let (code, err, v) = verify_in(elsewhere.path(), &j, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(v.unwrap()["blocks_checked_after"].as_u64(), Some(good));
    // The target moved (a failover, a restore elsewhere): given as NEW, and as OLD=NEW.
    let moved = elsewhere.path().join("moved.dat");
    std::fs::rename(&f, &moved).unwrap();
    let (code, err, _) = verify_in(elsewhere.path(), &j, &[]);
    assert_eq!(code, Some(1), "a missing target is no success: {err}");
    assert!(err.contains("--target"), "the way out is named: {err}");
    let old = dir.path().join("r.dat");
    for t in [
        moved.display().to_string(),
        format!("{}={}", old.display(), moved.display()),
    ] {
        let (code, err, v) = verify_in(elsewhere.path(), &j, &["--target", &t]);
        assert_eq!(code, Some(0), "--target {t}: {err}");
        assert_eq!(v.unwrap()["blocks_checked_after"].as_u64(), Some(good));
    }
    // A target the journal does not name is refused, naming the ones it does.
    let (code, err, _) = verify_in(elsewhere.path(), &j, &["--target", "/nowhere=/x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("names no target /nowhere") && err.contains(&old.display().to_string()),
        "{err}"
    );
}

#[test]
fn a_block_restored_from_an_earlier_run_is_found_lost_not_never_written() {
    let dir = scratch();
    let f = dir.path().join("f");
    let fs = f.to_str().unwrap();
    let first = journaled_run(dir.path(), fs, "j1");
    let earlier = std::fs::read(&f).unwrap();
    let second = journaled_run(dir.path(), fs, "j2");
    let (run1, run2) = (run_id(&first), run_id(&second));
    // A block both runs wrote, now holding the second run's write (the test's own reading).
    let table = journal(&dir.path().join("j2")).targets[0].2.clone();
    let now = blocks_of(&f, run2);
    let i = (0..table.len())
        .find(|&i| {
            table[i] > 0
                && matches!(now[i], Block::Good { .. })
                && matches!(
                    block(&earlier[i * UNIT..(i + 1) * UNIT], run1),
                    Block::Good { .. }
                )
        })
        .expect("a block written by both runs");
    let file = std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    file.write_all_at(&earlier[i * UNIT..(i + 1) * UNIT], (i * UNIT) as u64)
        .unwrap();
    file.sync_all().unwrap();
    let (code, err, v) = verify_in(dir.path(), &dir.path().join("j2"), &[]);
    assert_eq!(code, Some(3), "{err}");
    let v = v.unwrap();
    assert_eq!(v["corrupt"]["lost"], 1, "{v}");
    assert_eq!(v["corrupt"]["never_written"], 0, "{v}");
    assert_eq!(v["first"][0]["offset"].as_u64(), Some((i * UNIT) as u64));
}

#[test]
fn a_second_run_writing_the_same_target_is_refused_naming_the_first() {
    let dir = scratch();
    let (f, j) = (dir.path().join("f"), dir.path().join("j"));
    let json = dir.path().join("first.json");
    let first = dbio_command()
        .args(["run", "--rw", "randwrite", "--bs", "4k", "--size", "8MiB"])
        .args(["--duration", "600s", "--no-store", "-q", "--json"])
        .arg(&json)
        .arg("--target")
        .arg(&f)
        .arg("--verify-journal")
        .arg(&j)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The journal is made once the targets are open: the first run is writing from then on.
    let waited = Instant::now();
    while journaled(&j) == 0 {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the first run wrote nothing in 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = dbio_run(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randwrite",
            "--bs",
            "4k",
            "--duration",
            "1s",
            "--verify",
            "--no-store",
        ],
    );
    let pid = first.id();
    interrupt(&first);
    let out = wait_bounded(first, Duration::from_secs(120));
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = &second.stderr;
    assert_eq!(second.code, Some(2), "{err}");
    assert!(err.contains(f.to_str().unwrap()), "names the target: {err}");
    assert!(
        err.contains(&format!("pid {pid} (dbio)")),
        "names the first run: {err}"
    );
    // The first run was not disturbed: it found nothing wrong.
    let r: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["verify"]["first"].as_array().unwrap().len(), 0, "{r}");
}

/// A run that reports to a launcher (`--progress-lines`, as every fleet host's does) says it
/// is finishing once its window is over and before its verify pass, so that the launcher
/// does not take the pass's minutes without a tick for a host gone silent.
#[test]
fn a_run_reporting_to_a_launcher_says_it_is_finishing_before_its_verify_pass() {
    let dir = scratch();
    let f = dir.path().join("f");
    let fs = f.to_str().unwrap();
    let args = [
        "--target",
        fs,
        "--size",
        "8MiB",
        "--duration",
        "1s",
        "--rw",
        "randwrite",
        "--verify",
        "--no-store",
        "--progress-lines",
    ];
    let ran = dbio_run(dir.path(), &args);
    let stderr = ran.stderr.clone();
    let r = ran.ok();
    assert_eq!(r["verify"]["final_pass"], "done");
    let lines: Vec<&str> = stderr.lines().collect();
    let last_tick = lines.iter().rposition(|l| l.starts_with("dbio-tick "));
    let finishing = lines.iter().position(|l| *l == "dbio-finishing");
    assert!(last_tick.is_some(), "no tick: {stderr}");
    assert!(
        finishing > last_tick,
        "no dbio-finishing after the ticks: {stderr}"
    );
}
