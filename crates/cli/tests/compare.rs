//! `dbio compare` against hand-computed answers, on simulated runs whose only differences
//! are known: the settings that differ are listed (and nothing else), the ratio B/A is the
//! one the model's parameters give, a verdict appears only beyond the runs' own spread, and
//! the per-device figure is (devices A / devices B) × ratio.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::path::Path;

/// A simulated 8 KiB random-read run at queue depth `qd` on `channels` channels of 100 µs.
fn sim_run(dir: &Path, db: &str, label: &str, channels: u32, qd: u32, seed: u32) {
    let sim = format!("channels={channels},service=100us,dist=exp,bw=none");
    let (code, _, err) = dbio_in(
        dir,
        &[
            "run",
            "--engine",
            "sim",
            "--sim",
            &sim,
            "--rw",
            "randread",
            "--bs",
            "8k",
            "--qd",
            &qd.to_string(),
            "--duration",
            "10s",
            "--seed",
            &seed.to_string(),
            "--db",
            db,
            "--label",
            label,
            "-q",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
}

/// The row of `metric` in the first direction table: (A, B, B/A, verdict).
fn row(text: &str, metric: &str) -> (f64, f64, f64, String) {
    let line = text
        .lines()
        .find(|l| l.starts_with(metric))
        .unwrap_or_else(|| panic!("no {metric} row in:\n{text}"));
    let f: Vec<&str> = line[metric.len()..].split_whitespace().collect();
    let verdict = f[5..].join(" ");
    (
        f[0].parse().unwrap(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        verdict,
    )
}

#[test]
fn twice_the_channels_is_twice_the_iops_and_only_those_settings_differ() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    // Queue depth = channels: no queueing, so IOPS = channels / 100 µs exactly in the mean.
    sim_run(dir.path(), db, "four", 4, 4, 1);
    sim_run(dir.path(), db, "eight", 8, 8, 1);
    let (code, out, _) = dbio_in(
        dir.path(),
        &[
            "compare",
            "four",
            "eight",
            "--db",
            db,
            "--devices",
            "A=4,B=8",
        ],
    );
    assert_eq!(code, Some(0));
    let listed: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.trim().split(':').next().unwrap())
        .collect();
    assert_eq!(listed, ["job.qd", "job.sim.channels"], "{out}");
    let (a, b, ratio, verdict) = row(&out, "IOPS");
    assert!(
        (a - 40_000.0).abs() < 400.0 && (b - 80_000.0).abs() < 800.0,
        "{a} {b}"
    );
    assert!((ratio - 2.0).abs() < 0.02, "{ratio}");
    assert_eq!(verdict, "B better");
    // Per device: (4 / 8) × 2 = 1.00.
    assert!(out.contains("B does 1.00× what A does per device"), "{out}");
    // The page overlays both runs: one series per run and direction in each chart.
    let html = dir.path().join("c.html");
    let (code, _, _) = dbio_in(
        dir.path(),
        &[
            "compare",
            "four",
            "eight",
            "--db",
            db,
            "--html",
            html.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0));
    let page = std::fs::read_to_string(&html).unwrap();
    for chart in [
        "compare-latency-histogram",
        "compare-percentiles",
        "compare-iops",
    ] {
        let at = page
            .find(&format!("data-chart=\"{chart}\""))
            .unwrap_or_else(|| panic!("no {chart}"));
        let svg = &page[at..at + page[at..].find("</svg>").unwrap()];
        assert_eq!(svg.matches("data-series=").count(), 2, "{chart}: A and B");
    }
    assert!(
        page.contains("data-series=\"four read\"") && page.contains("data-series=\"eight read\"")
    );
    // Self-contained: no script, and no address but the SVG namespace.
    let addresses = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(
        !page.contains("<script")
            && !addresses.contains("http://")
            && !addresses.contains("https://")
    );
}

#[test]
fn the_same_settings_with_another_seed_get_no_verdict() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    sim_run(dir.path(), db, "one", 4, 4, 1);
    sim_run(dir.path(), db, "two", 4, 4, 2);
    let (_, out, _) = dbio_in(dir.path(), &["compare", "one", "two", "--db", db]);
    assert!(out.contains("conditions: the same workload"), "{out}");
    let (_, _, ratio, verdict) = row(&out, "IOPS");
    assert!((ratio - 1.0).abs() < 0.01, "{ratio}");
    assert_eq!(
        verdict, "",
        "a difference within the spread is not called one:\n{out}"
    );
}

#[test]
fn a_run_with_itself_a_sweep_and_bad_devices_are_refused() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    sim_run(dir.path(), db, "one", 4, 4, 1);
    let (code, _, err) = dbio_in(dir.path(), &["compare", "one", "1", "--db", db]);
    assert_eq!(code, Some(2));
    assert!(err.contains("are the same run"), "{err}");
    let (code, _, _) = dbio_in(
        dir.path(),
        &[
            "sweep", "--vary", "qd=1,2", "--engine", "sim", "--ops", "1000", "--db", db, "-q",
        ],
    );
    assert_eq!(code, Some(0));
    let (code, _, err) = dbio_in(dir.path(), &["compare", "1", "2", "--db", db]);
    assert_eq!(code, Some(2));
    assert!(err.contains("2 is not a run result"), "{err}");
    let (code, _, err) = dbio_in(
        dir.path(),
        &["compare", "1", "1", "--db", db, "--devices", "A=0,B=6"],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("--devices A=0,B=6"), "{err}");
}
