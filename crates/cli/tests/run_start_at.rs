//! `--start-at`: several hosts start measuring at one instant. Every worker is set up before
//! it, and only the clock starts at it; a stop while waiting ends the run with nothing measured.

mod common;
use common::*;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_nanos(t).to_string()
}

#[test]
fn measuring_starts_at_the_common_start_not_before() {
    let dir = scratch();
    let target = dir.path().join("t.dat");
    let start = SystemTime::now() + Duration::from_secs(3);
    let r = run_ok(
        dir.path(),
        &[
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--qd",
            "2",
            "--size",
            "4MiB",
            "--duration",
            "1s",
            "--target",
            target.to_str().unwrap(),
            "--no-store",
            "--start-at",
            &rfc3339(start),
        ],
    );
    let start_ns = start.duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64;
    let began = r["started_unix_ns"].as_u64().unwrap();
    assert!(
        began >= start_ns,
        "measuring began {} µs before the common start",
        (start_ns - began) / 1000
    );
    assert!(ios(&r, "read") > 0);
}

#[test]
fn ctrl_c_while_waiting_for_the_common_start_measures_nothing() {
    let dir = scratch();
    let target = dir.path().join("t.dat");
    let start = SystemTime::now() + Duration::from_secs(120);
    let child = dbio_command()
        .current_dir(dir.path())
        .args([
            "run",
            "--rw",
            "randread",
            "--size",
            "4MiB",
            "--duration",
            "1s",
            "--target",
            "t.dat",
            "--no-store",
            "--start-at",
            &rfc3339(start),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Prefilled (the file at its full size), then the wait for the start.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::fs::metadata(&target).map_or(true, |m| m.len() < 4 << 20) {
        assert!(std::time::Instant::now() < deadline, "never prefilled");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(60));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted before measuring began"), "{err}");
}
