//! `--burst ON/PERIOD`: on the simulated device in virtual time, the per-second series holds
//! exactly the I/Os computed by hand (the I/Os in flight at a burst's end land in the next
//! second, nothing after), closed loop and paced; on a real file, counts that do not depend
//! on the machine's speed; bad values are refused with one-line errors.

#![forbid(unsafe_code)]

mod common;
use common::*;

/// I/Os completed in each second of the measured window (the last one takes in the drain
/// after the clock ran out).
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

/// 4 channels, every I/O served in exactly 100 µs, no link limit: 4 I/Os every 100 µs.
const DEVICE: &str = "channels=4,service=100us,dist=const,bw=none";

#[test]
fn io_only_in_the_on_seconds() {
    let dir = scratch();
    let r = run_ok(
        dir.path(),
        &[
            "--engine",
            "sim",
            "--sim",
            DEVICE,
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
    // By hand: in a burst 4 I/Os are issued every 100 µs, at 0, 100 µs, …, 999.9 ms. Those
    // issued last complete at 1.0000 s, on the boundary: 9,999 rounds of 4 land in the burst's
    // second, the last 4 (in flight when it ended) in the next, and none in the third, as
    // nothing is issued between bursts. The same again from 3 s.
    let burst = [39_996.0, 4.0, 0.0];
    assert_eq!(s, [burst, burst].concat(), "{s:?}");
    assert_eq!(ios(&r, "write"), 80_000);
    assert_eq!(num(&r, "/measured_secs"), 6.0);
}

#[test]
fn a_paced_burst_keeps_its_rate_within_the_bursts() {
    let dir = scratch();
    let json = dir.path().join("paced.json");
    let out = dbio_command()
        .args([
            "run", "--engine", "sim", "--sim", DEVICE, "--rw", "randread",
        ])
        .args(["--rate", "400", "--burst", "1s/3s", "--duration", "6s"])
        .args(["--no-store", "--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    // 400 IOPS is one I/O due every 2.5 ms: 400 in a burst of 1 s (the last due at 997.5 ms,
    // done 100 µs later), none in the 2 s between bursts, 800 in the 6 s.
    assert_eq!(
        per_second(&r),
        [400.0, 0.0, 0.0, 400.0, 0.0, 0.0],
        "{}",
        r["timeseries"]
    );
    assert_eq!(ios(&r, "read"), 800);
    assert!(
        !warning_codes(&r).contains(&"rate-not-kept".to_string()),
        "idle time is not a missed schedule: {:?}",
        warning_codes(&r)
    );
    // The summary's IOPS average the whole 6 s (800 / 6); its burst line gives the rate
    // within the 2 s of bursts: 400.
    assert_eq!(num(&r, "/read/iops"), 800.0 / 6.0);
    let line = text
        .lines()
        .find(|l| l.starts_with("bursts of 1 s every 3 s:"))
        .unwrap_or_else(|| panic!("no burst line: {text}"));
    assert!(
        line.contains("averaged over the whole window, idle time included"),
        "{line}"
    );
    assert!(
        line.contains("within bursts (2.0 s of 6.0 s) 400 IOPS"),
        "{line}"
    );
}

#[test]
fn a_real_paced_burst_waits_for_the_next_burst() {
    // 40 I/Os at 20 IOPS within bursts of 1 s every 3 s: 20 fit in the first burst, the rest
    // are due in the second, from 3 s on, the last at 3.95 s. A slower machine only ends
    // later; ending sooner means I/O was issued between bursts or ahead of its schedule.
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "16MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randread",
            "--rate",
            "20",
            "--burst",
            "1s/3s",
            "--ops",
            "40",
        ],
    );
    assert_eq!(ios(&r, "read"), 40);
    let secs = num(&r, "/measured_secs");
    assert!(secs >= 3.95, "40 paced I/Os in bursts took only {secs} s");
    // The series adds up to the count.
    assert_eq!(
        per_second(&r).iter().sum::<f64>(),
        40.0,
        "{}",
        r["timeseries"]
    );
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
