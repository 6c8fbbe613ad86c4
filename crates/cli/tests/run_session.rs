//! Session mode (the SLOB method): the update quota is exact per 100 operations, every
//! operation reads its work unit, redo equals updates × pages × redo stress, commits wait for
//! their log write, and the kernel (/proc/diskstats of loop devices) sees exactly the page
//! reads, page writes and redo bytes the AWR-like report claims.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

/// The wait event `name` of a session run's report.
fn event<'a>(r: &'a Value, name: &str) -> Option<&'a Value> {
    r["session"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
}

fn waits(r: &Value, name: &str) -> u64 {
    event(r, name).map_or(0, |e| e["waits"].as_u64().unwrap())
}

fn load(r: &Value, key: &str) -> u64 {
    r["session"]["load"][key].as_u64().unwrap()
}

#[test]
fn quotas_work_unit_redo_and_commits_on_a_file() {
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let args = [
        "--target",
        f.to_str().unwrap(),
        "--size",
        "16MiB",
        "--sessions",
        "2",
        "--ops",
        "400",
        "--work-unit",
        "4",
        "--update-pct",
        "25",
        "--redo-stress",
        "512",
        "--cache-hit",
        "50",
    ];
    let r = run_ok(dir.path(), &args);
    assert_valid(&schema("run-result.v1.json"), "session run", &r);
    // 200 operations per session: two whole cycles of the per-100 update quota.
    assert_eq!(load(&r, "operations"), 400);
    assert_eq!(load(&r, "updates"), 100, "25 % of 400, exactly");
    // Every operation reads 4 pages; the buffer pool serves exactly half of them.
    assert_eq!(load(&r, "cache_hits"), 800);
    assert_eq!(ios(&r, "read"), 800, "physical page reads");
    assert_eq!(bytes(&r, "read"), 800 * 8192);
    assert_eq!(waits(&r, "db file sequential read"), 800);
    // Every modified page is written back by the data writer, in batches.
    assert_eq!(ios(&r, "write"), 100 * 4);
    assert!(waits(&r, "db file parallel write") >= 1);
    // Redo: updates × pages × redo stress, all of it written to the log.
    assert_eq!(load(&r, "redo_bytes"), 100 * 4 * 512);
    assert_eq!(load(&r, "log_bytes_written"), 100 * 4 * 512);
    assert_eq!(waits(&r, "log file sync"), 100, "one commit per update");
    let lfpw = waits(&r, "log file parallel write");
    assert!((1..=100).contains(&lfpw), "{lfpw} log writes");
    // A commit waits for a whole log write that began after it: never shorter than the
    // fastest log write.
    let min = |e: &str| event(&r, e).unwrap()["latency_ns"]["min"].as_u64().unwrap();
    assert!(
        min("log file sync") as f64 >= min("log file parallel write") as f64 * 0.99,
        "log file sync {} ns < log write {} ns",
        min("log file sync"),
        min("log file parallel write")
    );
    // The redo went to a file beside the data file, and the result says so.
    let redo = format!("{}.redo", f.display());
    assert!(std::path::Path::new(&redo).exists());
    assert!(r["session"]["redo_target"]
        .as_str()
        .unwrap()
        .contains("beside the data target"));
    // Foreground events share DB time; background ones do not count in it.
    let pct: f64 = r["session"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["pct_db_time"].as_f64())
        .sum();
    assert!(pct > 0.0 && pct <= 100.5, "{pct} % of DB time");
}

#[test]
fn batch_reads_are_one_parallel_read_per_operation() {
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--size",
            "16MiB",
            "--sessions",
            "1",
            "--ops",
            "100",
            "--work-unit",
            "8",
            "--batch-reads",
        ],
    );
    assert_eq!(waits(&r, "db file parallel read"), 100);
    assert_eq!(waits(&r, "db file sequential read"), 0);
    assert_eq!(ios(&r, "read"), 800);
    assert!(r["write"].is_null(), "no updates, no writes");
    assert_eq!(waits(&r, "log file sync"), 0);
}

#[test]
fn the_kernel_sees_the_page_reads_writes_and_redo() {
    let Some(data) = LoopDev::attach("session data", &vec![0u8; 32 << 20]) else {
        return;
    };
    let Some(log) = LoopDev::attach("session log", &vec![0u8; 8 << 20]) else {
        return;
    };
    let dir = scratch();
    let (d0, l0) = (DiskStats::of(&data.name), DiskStats::of(&log.name));
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            &format!("data={}", data.dev),
            "--target",
            &format!("log={}", log.dev),
            "--destroy-data",
            "--sessions",
            "4",
            "--ops",
            "800",
            "--work-unit",
            "8",
            "--update-pct",
            "10",
            "--redo-stress",
            "1k",
        ],
    );
    let (d, l) = (
        DiskStats::of(&data.name).since(d0),
        DiskStats::of(&log.name).since(l0),
    );
    assert_eq!(ios(&r, "read"), 800 * 8);
    assert_eq!(ios(&r, "write"), 80 * 8);
    // Slack: the device signature probe before a write run reads up to 256 KiB. Before the
    // run dbio samples the device's content: one 4 KiB read per sampled block.
    let sampled = sampled_blocks(&r, &data.dev);
    assert_eq!(sampled, 256, "the zero-filled device was sampled");
    assert!(warning_codes(&r).contains(&"reducible-content".to_string()));
    assert_near(
        "data reads",
        (d.reads + d.reads_merged) as f64,
        6400.0 + sampled as f64,
        1.0,
    );
    assert_near(
        "data page writes",
        (d.writes + d.writes_merged) as f64,
        640.0,
        1.0,
    );
    assert_eq!(d.sectors_written, 640 * 16, "8 KiB pages");
    // Every redo byte reached the log device: 80 updates × 8 pages × 1 KiB.
    assert_eq!(load(&r, "redo_bytes"), 80 * 8 * 1024);
    assert_eq!(l.sectors_written * 512, 80 * 8 * 1024);
    assert_eq!(
        waits(&r, "log file parallel write"),
        l.writes + l.writes_merged,
        "one request per log write"
    );
}

#[test]
fn the_summary_is_an_awr_report_with_an_awr_info_line() {
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "run",
            "--target",
            f.to_str().unwrap(),
            "--size",
            "16MiB",
            "--sessions",
            "2",
            "--ops",
            "200",
            "--work-unit",
            "2",
            "--update-pct",
            "50",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "% DB time",
        "load profile (per second)",
        "awr_info|SESSIONS|",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
    // The wait-event table, row by row: by hand, 200 operations of 2 page reads each are 400
    // single-page reads; 50 % of them update, so 100 commits wait on log file sync; the
    // data writer writes the 200 modified pages and the log writer the 100 commits' redo in
    // batches (between one write each and one per page or commit).
    let waits_of = |event: &str| -> u64 {
        let row = text
            .lines()
            .find(|l| l.starts_with(event))
            .unwrap_or_else(|| panic!("no {event} row in:\n{text}"));
        row[event.len()..]
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("no waits in {row:?}"))
    };
    assert_eq!(waits_of("db file sequential read  (single-page read)"), 400);
    assert_eq!(waits_of("log file sync            (commit)"), 100);
    let dfpw = waits_of("db file parallel write   (data write)");
    assert!((1..=200).contains(&dfpw), "{dfpw} data writes");
    let lfpw = waits_of("log file parallel write  (log write)");
    assert!((1..=100).contains(&lfpw), "{lfpw} log writes");
    // Redo: 100 updates × 2 pages × 512 B (the default redo stress), all written.
    assert!(
        text.contains("(102400 B of redo from 100 updates; 102400 B written to the log)"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("awr_info|2|"))
        .expect("the awr_info line of 2 sessions");
    assert_eq!(line.split('|').count(), 19, "{line}");
    // Its top wait is a foreground event (which one depends on the device's speed).
    let top = line.rsplit('|').nth(1).unwrap();
    assert!(
        ["log file sync", "db file sequential read"].contains(&top),
        "{line}"
    );
}

#[test]
fn a_sweep_over_sessions_ramps_them() {
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let json = dir.path().join("sweep.json");
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "sweep",
            "--vary",
            "sessions=1,2,4",
            "--target",
            f.to_str().unwrap(),
            "--size",
            "16MiB",
            "--sessions",
            "1",
            "--work-unit",
            "2",
            "--ops",
            "200",
            "--no-store",
            "--json",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let steps = s["steps"].as_array().unwrap();
    let sessions: Vec<u64> = steps
        .iter()
        .map(|r| r["job"]["session"]["sessions"].as_u64().unwrap())
        .collect();
    assert_eq!(sessions, [1, 2, 4]);
    // Every step does the same work whatever its sessions: 200 operations of 2 page reads,
    // no updates.
    for (r, n) in steps.iter().zip([1, 2, 4]) {
        assert_eq!(load(r, "operations"), 200, "{n} sessions");
        assert_eq!(ios(r, "read"), 400, "{n} sessions");
        assert_eq!(waits(r, "db file sequential read"), 400, "{n} sessions");
        assert!(r["write"].is_null(), "{n} sessions: no updates, no writes");
    }
    // SLOB's awr_info line once per step, so the steps make a table.
    let text = String::from_utf8_lossy(&out.stdout);
    let awr: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("awr_info|") && !l.starts_with("awr_info|SESSIONS|"))
        .map(|l| l.split('|').nth(1).unwrap())
        .collect();
    assert_eq!(awr, ["1", "2", "4"], "{text}");
}

#[test]
fn bad_session_input_is_refused_in_one_line() {
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let t = f.to_str().unwrap();
    for (args, needles) in [
        (vec!["--sessions", "0"], vec!["--sessions 0", "1 to 4096"]),
        (
            vec!["--sessions", "2", "--qd", "4"],
            vec!["--qd", "session mode"],
        ),
        (
            vec!["--sessions", "2", "--work-unit", "0"],
            vec!["--work-unit 0"],
        ),
        (
            vec!["--sessions", "2", "--update-pct", "101"],
            vec!["--update-pct 101"],
        ),
        (
            vec!["--sessions", "2", "--think", "5:2ms-1ms"],
            vec!["--think", "MIN is above MAX"],
        ),
        (vec!["--work-unit", "8"], vec!["--work-unit", "--sessions"]),
        (
            vec!["--sessions", "2", "--bs", "8k:50,16k:50"],
            vec!["--bs", "one size"],
        ),
        (
            vec!["oltp-mix", "--sessions", "2"],
            vec!["--sessions", "single-stream"],
        ),
    ] {
        let mut all = vec!["--target", t];
        all.extend(args.iter());
        let ran = dbio_run(dir.path(), &all);
        assert_eq!(ran.code, Some(2), "{all:?}: {}", ran.stderr);
        assert_one_line_error(&ran, &needles);
    }
    let ran = dbio_run(dir.path(), &["--target", "temp=/x", "--sessions", "2"]);
    assert_one_line_error(&ran, &["unknown role 'temp'"]);
    assert!(!f.exists(), "a refused run creates no file");
}

#[test]
fn a_device_without_a_log_target_is_refused() {
    let Some(lo) = LoopDev::attach("session device without log", &vec![0u8; 8 << 20]) else {
        return;
    };
    let dir = scratch();
    let ran = dbio_run(
        dir.path(),
        &["--target", &lo.dev, "--sessions", "2", "--ops", "10"],
    );
    assert_one_line_error(&ran, &["--target log=PATH"]);
    assert!(
        !std::path::Path::new(&format!("{}.redo", lo.dev)).exists(),
        "nothing created in /dev"
    );
}

/// Whether process `pid` has /dev/cpu_dma_latency open (how a latency request is held).
fn holds_cpu_dma_latency(pid: u32) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
        fds.flatten().any(|fd| {
            std::fs::read_link(fd.path())
                .is_ok_and(|p| p == std::path::Path::new("/dev/cpu_dma_latency"))
        })
    })
}

#[test]
fn sessions_hold_the_cpus_awake_while_they_measure() {
    let test = "sessions_hold_the_cpus_awake_while_they_measure";
    let dma = "/dev/cpu_dma_latency";
    if std::fs::OpenOptions::new().write(true).open(dma).is_err() {
        return skip(test, &format!("{dma} writable (root)"));
    }
    let dir = scratch();
    let f = dir.path().join("data.dat");
    let json = dir.path().join("r.json");
    let (f, json) = (f.to_str().unwrap(), json.to_str().unwrap());
    let mut child = dbio_command()
        .args(["run", "--target", f, "--size", "16MiB", "--sessions", "2"])
        .args(["--duration", "3s", "--json", json, "-q", "--no-store"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The oracle is the kernel's own table of the process's open files.
    let mut held = false;
    while !held && child.try_wait().unwrap().is_none() {
        held = holds_cpu_dma_latency(child.id());
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = wait_bounded(child, std::time::Duration::from_secs(120));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(held, "dbio never had {dma} open during the session run");
    let r: Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    assert_eq!(
        r["engine"]["cpu_idle"],
        "held awake (/dev/cpu_dma_latency 0 µs)"
    );
}
