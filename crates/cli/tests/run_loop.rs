//! Runs bounded by time rather than by count: `--duration` measures that long with a time
//! series that adds up to the totals; `--rate` holds an open loop at the asked IOPS (exactly,
//! on the simulated device in virtual time; on a real file, never ahead of its schedule),
//! says when it cannot, and then measures latency from each I/O's scheduled start; Ctrl-C
//! stops a run with a partial result printed and written. No bound here depends on the
//! machine's speed: a slower machine only makes a run longer.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;

/// 4 channels, every I/O served in exactly 100 µs, no link limit.
const DEVICE: &str = "channels=4,service=100us,dist=const,bw=none";

/// Checks that the time series increases, ends where the run ended, and adds up to the
/// run's I/Os; returns its points.
fn series_adds_up(r: &Value) -> Vec<Value> {
    let ts = r["timeseries"].as_array().unwrap().clone();
    let (mut prev, mut sum) = (0.0, 0.0);
    for p in &ts {
        let t = p["t"].as_f64().unwrap();
        assert!(t > prev, "time series not increasing: {ts:?}");
        sum += (p["read_iops"].as_f64().unwrap() + p["write_iops"].as_f64().unwrap()) * (t - prev);
        prev = t;
    }
    let total = (ios(r, "read") + ios(r, "write")) as f64;
    assert!(total > 0.0);
    assert!(
        (sum - total).abs() < 0.5,
        "time series I/Os {sum}, run {total}"
    );
    let secs = num(r, "/measured_secs");
    assert!(
        (prev - secs).abs() < 0.01,
        "series ends at {prev}, run measured {secs}"
    );
    ts
}

#[test]
fn duration_run_has_a_time_series_that_adds_up() {
    let dir = scratch();
    // In virtual time, 4 channels serving every I/O in exactly 70 µs, 4 outstanding: all
    // four complete together every 70 µs. The first completion at or past 3 s (the 42,858th,
    // at 3.00006 s) ends the run: 3 whole seconds, then a short last point.
    let r = run_ok(
        dir.path(),
        &[
            "--engine",
            "sim",
            "--sim",
            "channels=4,service=70us,dist=const,bw=none",
            "--duration",
            "3s",
            "--qd",
            "4",
        ],
    );
    assert_eq!(num(&r, "/measured_secs"), 3.00006);
    let ts = series_adds_up(&r);
    let t: Vec<f64> = ts.iter().map(|p| p["t"].as_f64().unwrap()).collect();
    assert_eq!(t, [1.0, 2.0, 3.0, 3.00006]);
    assert_eq!(ios(&r, "read") + ios(&r, "write"), 42_858 * 4);

    // On a real file: at least the 3 s asked (a slow machine only adds drain), a point per
    // second, and the same additions.
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
    assert!(secs >= 3.0, "measured {secs} s of a 3 s run");
    let ts = series_adds_up(&r);
    assert!(ts.len() >= 3, "{} points: {ts:?}", ts.len());
}

#[test]
fn open_loop_keeps_the_asked_rate() {
    let dir = scratch();
    // In virtual time: one I/O due every 500 µs, each done 100 µs later: exactly 4000 in 2 s.
    let r = run_ok(
        dir.path(),
        &[
            "--engine",
            "sim",
            "--sim",
            DEVICE,
            "--rate",
            "2000",
            "--duration",
            "2s",
            "--rw",
            "randread",
        ],
    );
    assert_eq!(ios(&r, "read"), 4000);
    assert_eq!(num(&r, "/read/iops"), 2000.0);
    let codes = warning_codes(&r);
    assert!(!codes.contains(&"rate-not-kept".to_string()), "{codes:?}");

    // On a real file, pacing is never ahead of its schedule: the 1000th I/O is due 999 ×
    // 500 µs after the first, so 1000 I/Os take at least 0.4995 s however fast the device.
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rate",
            "2000",
            "--ops",
            "1000",
            "--rw",
            "randread",
        ],
    );
    assert_eq!(ios(&r, "read"), 1000);
    let secs = num(&r, "/measured_secs");
    assert!(secs >= 0.4995, "1000 I/Os at 2000 IOPS took only {secs} s");
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
fn ctrl_c_stops_the_run_and_prints_and_writes_a_partial_result() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "1MiB");
    let json = dir.path().join("out.json");
    let child = dbio_command()
        .args([
            "run",
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randwrite",
            "--duration",
            "600s",
            "--no-store",
        ])
        .arg("--json")
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Measuring has begun once the run's writes change the (already prefilled) file.
    wait_for_change(&f, Duration::from_secs(120));
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(60));
    assert_eq!(out.status.code(), Some(130));
    let r: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "interrupted");
    assert!(ios(&r, "write") > 0);
    let secs = num(&r, "/measured_secs");
    assert!(secs < 600.0, "measured {secs} s: the run was not stopped");
    assert!(warning_codes(&r).contains(&"partial".to_string()));
    // The summary is still printed, and says the result is partial.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("dbio run"), "no summary printed: {text}");
    assert!(text.to_lowercase().contains("partial"), "{text}");
}

#[test]
fn ctrl_c_during_the_prefill_stops_and_leaves_no_trusted_file() {
    let dir = scratch();
    let f = dir.path().join("big.dat");
    let json = dir.path().join("out.json");
    let child = dbio_command()
        .args(["run", "--target", f.to_str().unwrap(), "--size", "4GiB"])
        .args(["--rw", "randread", "--duration", "1s", "--no-store"])
        .arg("--json")
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The prefill has begun once the file has blocks on disk.
    let waited = std::time::Instant::now();
    while std::fs::metadata(&f).map_or(true, |m| {
        use std::os::unix::fs::MetadataExt;
        m.blocks() == 0
    }) {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "no prefill began"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted before measuring began; nothing was measured"),
        "{stderr}"
    );
    assert!(!json.exists(), "no result for a run that measured nothing");
    // The half-prefilled file (if dbio kept it) is not taken for a prefilled one: cut to
    // 64 MiB, the next run on it prefills it again, where a file whose prefill finished is
    // used as it is.
    let done = dbio_file(dir.path(), "done.dat", "64MiB");
    let cases = [(&f, false), (&done, true)];
    for (file, prefilled_before) in cases.into_iter().filter(|(f, _)| f.exists()) {
        let cut = std::fs::OpenOptions::new().write(true).open(file).unwrap();
        cut.set_len(64 << 20).unwrap();
        drop(cut);
        let r = run_ok(
            dir.path(),
            &[
                "--target",
                file.to_str().unwrap(),
                "--size",
                "64MiB",
                "--rw",
                "randread",
                "--ops",
                "1",
            ],
        );
        assert_eq!(
            r["data"]["prefill"][0] == "prefilled by dbio earlier",
            prefilled_before,
            "{}: {}",
            file.display(),
            r["data"]["prefill"]
        );
    }
}
