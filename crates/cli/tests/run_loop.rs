//! Runs bounded by time rather than by count: `--duration` measures about that long with a
//! time series that adds up to the totals; `--rate` holds an open loop at the asked IOPS,
//! says when it cannot, and then measures latency from each I/O's scheduled start; Ctrl-C
//! stops a run promptly with a partial result written. Timing bounds are loose on purpose.
//! (One ignored test shows buffer setup eating into the measured window.)

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn duration_run_has_a_time_series_that_adds_up() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--duration",
            "3s",
            "--qd",
            "4",
        ],
    );
    let secs = num(&r, "/measured_secs");
    assert!(
        (2.9..=4.0).contains(&secs),
        "measured {secs} s of a 3 s run"
    );
    let ts = r["timeseries"].as_array().unwrap();
    assert!((3..=4).contains(&ts.len()), "{} points: {ts:?}", ts.len());
    let (mut prev, mut sum) = (0.0, 0.0);
    for p in ts {
        let t = p["t"].as_f64().unwrap();
        assert!(t > prev, "time series not increasing: {ts:?}");
        sum += (p["read_iops"].as_f64().unwrap() + p["write_iops"].as_f64().unwrap()) * (t - prev);
        prev = t;
    }
    let total = (ios(&r, "read") + ios(&r, "write")) as f64;
    assert!(total > 0.0);
    assert_near("time series I/Os", sum, total, 2.0);
    assert!(
        (prev - secs).abs() < 0.01,
        "series ends at {prev}, run measured {secs}"
    );
}

#[test]
fn open_loop_keeps_the_asked_rate() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rate",
            "2000",
            "--duration",
            "2s",
            "--rw",
            "randread",
        ],
    );
    assert_near("read IOPS", num(&r, "/read/iops"), 2000.0, 5.0);
    let by_count = ios(&r, "read") as f64 / num(&r, "/measured_secs");
    assert_near("reads / measured seconds", by_count, 2000.0, 5.0);
    let codes = warning_codes(&r);
    assert!(!codes.contains(&"rate-not-kept".to_string()), "{codes:?}");
}

#[test]
fn open_loop_that_falls_behind_says_so_and_counts_the_wait() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    // One I/O at a time cannot come near 5 million IOPS: the schedule runs ahead, and the
    // I/O completing at time t was due near 0, so its latency is close to t. The median
    // latency is then about half the run, far above any single read's service time.
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rate",
            "5000000",
            "--duration",
            "1s",
            "--rw",
            "randread",
            "--engine",
            "psync",
        ],
    );
    assert!(warning_codes(&r).contains(&"rate-not-kept".to_string()));
    let secs = num(&r, "/measured_secs");
    let p50 = num(&r, "/read/latency_ns/p50") / 1e9;
    let max = num(&r, "/read/latency_ns/max") / 1e9;
    assert!(
        p50 >= 0.2 * secs,
        "p50 {p50} s in a {secs} s run behind schedule"
    );
    assert!(
        max <= secs + 1.0,
        "max latency {max} s exceeds the {secs} s run"
    );
}

#[test]
fn ctrl_c_stops_the_run_and_writes_a_partial_result() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let json = dir.path().join("out.json");
    let mut child = dbio_command()
        .args([
            "run",
            "--target",
            f.to_str().unwrap(),
            "--duration",
            "60s",
            "-q",
        ])
        .arg("--json")
        .arg(&json)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    // kill(1) rather than libc::kill: unsafe code stays in the engine crate.
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill(1)");
    assert!(killed.success(), "kill -INT failed");
    let sent = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > Duration::from_secs(3) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("dbio still running 3 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "interrupted");
    assert!(ios(&r, "read") + ios(&r, "write") > 0);
    let secs = num(&r, "/measured_secs");
    assert!(
        secs > 0.5 && secs < 30.0,
        "measured {secs} s before a Ctrl-C at about 2 s"
    );
    assert!(warning_codes(&r).contains(&"partial".to_string()));
}

#[test]
fn buffer_setup_is_not_measured() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    // 4 MiB reads take a few ms here, so 50 a second is easy; but 32 slots × 4 MiB of
    // buffers are filled after the window's clock has started, and that time is lost.
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rate",
            "50",
            "--duration",
            "1s",
            "--bs",
            "4MiB",
            "--rw",
            "randread",
        ],
    );
    assert_near(
        "reads in 1 s at 50 IOPS",
        ios(&r, "read") as f64,
        50.0,
        10.0,
    );
    let codes = warning_codes(&r);
    assert!(!codes.contains(&"rate-not-kept".to_string()), "{codes:?}");
}
