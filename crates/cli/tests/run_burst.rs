//! `--burst ON/PERIOD` on a real temporary file: the per-second time series shows I/O in
//! the ON seconds and none (but what was in flight at the edge) in the OFF seconds; with
//! `--rate` the rate holds within bursts; bad values are refused with one-line errors.

#![forbid(unsafe_code)]

mod common;
use common::*;

/// I/Os completed in each second of the measured window (the last one takes in the few
/// milliseconds of drain after the clock ran out).
fn per_second(r: &serde_json::Value) -> Vec<f64> {
    let mut prev = 0.0;
    r["timeseries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let t = p["t"].as_f64().unwrap();
            let rate = p["read_iops"].as_f64().unwrap() + p["write_iops"].as_f64().unwrap();
            let n = (rate * (t - prev)).round();
            prev = t;
            n
        })
        .collect()
}

#[test]
fn io_only_in_the_on_seconds() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let qd = 4.0;
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randwrite",
            "--bs",
            "16k",
            "--qd",
            "4",
            "--burst",
            "1s/3s",
            "--duration",
            "6s",
        ],
    );
    assert_eq!(r["job"]["burst"]["on_secs"], 1.0);
    assert_eq!(r["job"]["burst"]["period_secs"], 3.0);
    let s = per_second(&r);
    assert_eq!(s.len(), 6, "{s:?}");
    // Seconds 1 and 4 are bursts; the second after each holds at most the QD I/Os that were
    // in flight when the burst ended; the third holds none.
    for on in [0, 3] {
        assert!(s[on] > 10.0 * qd, "second {}: {s:?}", on + 1);
        assert!(s[on + 1] <= qd, "second {}: {s:?}", on + 2);
        assert_eq!(s[on + 2], 0.0, "second {}: {s:?}", on + 3);
    }
    assert_eq!(ios(&r, "write") as f64, s.iter().sum::<f64>());
}

#[test]
fn a_paced_burst_keeps_its_rate_within_the_bursts() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let json = dir.path().join("paced.json");
    let out = dbio_command()
        .args(["run", "--target", f.to_str().unwrap(), "--rw", "randread"])
        .args(["--rate", "400", "--burst", "1s/3s", "--duration", "6s"])
        .args(["--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let s = per_second(&r);
    // 400 IOPS during 2 bursts of 1 s: 400 in each, 800 in all, nothing in between.
    assert_near("first burst", s[0], 400.0, 3.0);
    assert_near("second burst", s[3], 400.0, 3.0);
    // After a burst only the I/Os still in flight at its end complete (one every 2.5 ms is
    // issued, so a handful at most); the last second of each period is empty.
    assert!(s[1] <= 8.0 && s[4] <= 8.0, "{s:?}");
    assert_eq!([s[2], s[5]], [0.0; 2], "{s:?}");
    assert_near("reads", ios(&r, "read") as f64, 800.0, 3.0);
    assert!(
        !warning_codes(&r).contains(&"rate-not-kept".to_string()),
        "idle time is not a missed schedule: {:?}",
        warning_codes(&r)
    );
    // The summary's IOPS average the whole 6 s (800 / 6 ≈ 133); its burst line gives the
    // rate within the 2 s of bursts: about 400.
    assert_near("average IOPS", num(&r, "/read/iops"), 800.0 / 6.0, 3.0);
    let line = text
        .lines()
        .find(|l| l.starts_with("bursts of 1 s every 3 s:"))
        .unwrap_or_else(|| panic!("no burst line: {text}"));
    assert!(
        line.contains("averaged over the whole window, idle time included"),
        "{line}"
    );
    let within: f64 = line
        .split("within bursts")
        .nth(1)
        .and_then(|t| t.split(") ").nth(1))
        .and_then(|t| t.split(" IOPS").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no rate within bursts: {line}"));
    assert_near("IOPS within bursts", within, 400.0, 3.0);
}

#[test]
fn bad_bursts_are_refused_in_one_line() {
    let dir = scratch();
    let t = dir.path().join("never.dat");
    let t = t.to_str().unwrap();
    for (v, needle) in [
        ("3s/3s", "shorter than PERIOD"),
        ("4s/3s", "shorter than PERIOD"),
        ("0/3s", "at least 1ms"),
        ("1x/3s", "unknown unit"),
        ("1s", "ON/PERIOD"),
    ] {
        let ran = dbio_run(dir.path(), &["--target", t, "--ops", "10", "--burst", v]);
        assert_one_line_error(&ran, &[&format!("--burst {v}"), needle]);
    }
}
