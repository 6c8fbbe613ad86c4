//! `--steady` on a real temporary file: a paced run settles after at least one window and
//! then measures exactly its duration (the settling I/Os left out, as the rate shows); a
//! criterion no run can meet stops at the cap with a warning; sweeps carry it per step; bad
//! values are refused with one-line errors.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

#[test]
fn a_paced_run_settles_and_then_measures_its_duration() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    // Paced at 2000 IOPS every second carries ~2000 I/Os: within 10 % of the mean at once.
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randread",
            "--qd",
            "8",
            "--rate",
            "2000",
            "--steady",
            "iops:10%",
            "--steady-window",
            "3s",
            "--steady-max",
            "30s",
            "--duration",
            "2s",
        ],
    );
    let st = &r["steady"];
    assert_eq!(st["settled"], true, "{st}");
    assert_eq!(st["criterion"], "iops:10%");
    assert_eq!(
        (st["window_secs"].as_u64(), st["max_secs"].as_u64()),
        (Some(3), Some(30))
    );
    // A window of 3 one-second samples cannot be full before 3 s.
    let settle = num(&r, "/steady/settle_secs");
    assert!((3.0..30.0).contains(&settle), "settled after {settle} s");
    assert!(num(&r, "/steady/spread_pct") < 10.0);
    assert_near("window mean", num(&r, "/steady/window_mean"), 2000.0, 10.0);
    // The measured window is the asked 2 s after settling, and holds only its own I/Os:
    // 2 s at 2000 IOPS is 4000, where settling would have added 2000 a second more.
    assert_near(
        "measured seconds",
        r["measured_secs"].as_f64().unwrap(),
        2.0,
        5.0,
    );
    assert_near("measured reads", ios(&r, "read") as f64, 4000.0, 3.0);
    // The time series covers the same window: its I/Os add up to the measured count.
    let mut prev = 0.0;
    let series: f64 = r["timeseries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let t = p["t"].as_f64().unwrap();
            let n = p["read_iops"].as_f64().unwrap() * (t - prev);
            prev = t;
            n
        })
        .sum();
    assert!(
        (series - ios(&r, "read") as f64).abs() < 1.0,
        "series {series}"
    );
    assert!(!warning_codes(&r).contains(&"not-settled".to_string()));
    assert_valid(&schema("run-result.v1.json"), "run result", &r);
}

#[test]
fn an_impossible_criterion_stops_at_the_cap_and_warns() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let args = [
        "--target",
        f.to_str().unwrap(),
        "--rw",
        "randread",
        "--qd",
        "4",
        // No slope is below 0 %: it can never hold (as fio's strict comparison).
        "--steady",
        "iops_slope:0%",
        "--steady-window",
        "2s",
        "--steady-max",
        "3s",
        "--duration",
        "1s",
    ];
    let r = run_ok(dir.path(), &args);
    let st = &r["steady"];
    assert_eq!(st["settled"], false, "{st}");
    let settle = num(&r, "/steady/settle_secs");
    assert!(
        (3.0..4.0).contains(&settle),
        "cap is 3 s, settled after {settle} s"
    );
    assert!(
        st["slope_pct"].is_number(),
        "the last window is reported: {st}"
    );
    assert!(warning_codes(&r).contains(&"not-settled".to_string()));
    assert_near(
        "measured seconds",
        r["measured_secs"].as_f64().unwrap(),
        1.0,
        10.0,
    );
    // The summary says so in one line.
    let out = dbio_command().arg("run").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("steady state iops_slope:0% NOT reached within 3 s"))
            .count(),
        1,
        "{text}"
    );
}

#[test]
fn a_sweep_settles_every_step_and_marks_those_that_did_not() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let json = dir.path().join("sweep.json");
    let out = dbio_command()
        .args([
            "sweep",
            "oltp-read",
            "--target",
            f.to_str().unwrap(),
            "--vary",
            "qd=1,4",
            "--steady",
            "iops:0%",
            "--steady-window",
            "2s",
            "--steady-max",
            "2s",
            "--duration",
            "1s",
            "--json",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let steps = s["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    for step in steps {
        assert_eq!(step["steady"]["settled"], false);
        assert_eq!(step["job"]["steady"]["window_secs"], 2);
        assert!(num(step, "/steady/settle_secs") >= 2.0);
    }
    let marked = text.lines().filter(|l| l.starts_with('*')).count();
    assert_eq!(marked, 3, "two rows and the footnote: {text}");
    assert_valid(&schema("sweep-result.v1.json"), "sweep result", &s);
}

#[test]
fn bad_steady_values_are_refused_in_one_line() {
    let dir = scratch();
    let t = dir.path().join("never.dat");
    let t = t.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--steady", "foo"], &["--steady foo", "iops:2%"]),
        (
            &["--steady", "iops:-1%"],
            &["--steady iops:-1%", "0 % to 100 %"],
        ),
        (&["--steady", "iops:2"], &["--steady iops:2", "percent"]),
        (
            &[
                "--steady",
                "iops:2%",
                "--steady-window",
                "30s",
                "--steady-max",
                "10s",
            ],
            &["--steady-window 30s", "--steady-max 10s"],
        ),
        (
            &["--steady", "iops:2%", "--steady-window", "1s"],
            &["--steady-window 1s", "at least 2"],
        ),
        (&["--steady-max", "60s"], &["need --steady"]),
    ];
    for (args, needles) in cases {
        let ran = dbio_run(
            dir.path(),
            &[&["--target", t, "--ops", "10"], *args].concat(),
        );
        assert_one_line_error(&ran, needles);
    }
    assert!(
        !std::path::Path::new(t).exists(),
        "a refused run created its target"
    );
    // From a profile, the key is named instead of the flag.
    let p = dir.path().join("p.toml");
    std::fs::write(&p, "steady_window = \"1s\"\nsteady = \"iops:2%\"\n").unwrap();
    let ran = dbio_run(
        dir.path(),
        &[
            "--profile",
            p.to_str().unwrap(),
            "--target",
            t,
            "--ops",
            "10",
        ],
    );
    assert_one_line_error(&ran, &["steady_window 1s", "at least 2"]);
}
