//! `--steady`: on the simulated device in virtual time, a paced run settles exactly when its
//! first window is full and then measures exactly its duration (the settling I/Os left
//! out), and a criterion no run can meet stops exactly at the cap with a warning; on a loop
//! device, the kernel counts the settling I/Os that dbio's totals leave out; sweeps carry
//! it per step; bad values are refused with one-line errors.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

/// I/Os of the time series: the sum of each point's rate times its length.
fn series_ios(r: &Value) -> f64 {
    let mut prev = 0.0;
    r["timeseries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let t = p["t"].as_f64().unwrap();
            let n =
                (p["read_iops"].as_f64().unwrap() + p["write_iops"].as_f64().unwrap()) * (t - prev);
            prev = t;
            n
        })
        .sum()
}

#[test]
fn a_paced_run_settles_and_then_measures_its_duration() {
    let dir = scratch();
    // Paced at 2000 IOPS (one I/O every 500 µs, served in 100 µs), every settling second
    // holds exactly 2000 I/Os: the window holds as soon as it is full, at 3 s.
    let r = run_ok(
        dir.path(),
        &[
            "--engine",
            "sim",
            "--sim",
            "channels=4,service=100us,dist=const,bw=none",
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
    assert_eq!(num(&r, "/steady/settle_secs"), 3.0);
    assert_eq!(num(&r, "/steady/spread_pct"), 0.0);
    assert_eq!(num(&r, "/steady/window_mean"), 2000.0);
    // The measured window is the asked 2 s after settling (the last I/O, due at 1.9995 s, is
    // done by then), and holds only its own I/Os: 4000, where the 6000 of settling would
    // have made 10,000.
    assert_eq!(num(&r, "/measured_secs"), 2.0);
    assert_eq!(ios(&r, "read"), 4000);
    assert_eq!(series_ios(&r).round(), 4000.0, "{}", r["timeseries"]);
    assert!(!warning_codes(&r).contains(&"not-settled".to_string()));
    assert_valid(&schema("run-result.v1.json"), "run result", &r);
}

#[test]
fn an_impossible_criterion_stops_at_the_cap_and_warns() {
    let dir = scratch();
    let args = [
        "--engine",
        "sim",
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
    assert_eq!(num(&r, "/steady/settle_secs"), 3.0, "the cap");
    assert!(
        st["slope_pct"].is_number(),
        "the last window is reported: {st}"
    );
    assert!(warning_codes(&r).contains(&"not-settled".to_string()));
    let secs = num(&r, "/measured_secs");
    assert!((1.0..1.01).contains(&secs), "measured {secs} s of 1 s");
    // The summary says so in one line.
    let out = dbio_command()
        .arg("run")
        .args(args)
        .arg("--no-store")
        .output()
        .unwrap();
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
fn settling_ios_reach_the_device_but_not_the_totals() {
    let test = "settling_ios_reach_the_device_but_not_the_totals";
    let Some(lo) = LoopDev::attach(test, &vec![0u8; 32 << 20]) else {
        return;
    };
    let dir = scratch();
    let before = DiskStats::of(&lo.name);
    // A criterion that never holds: 2 s of settling at full speed, then 300 measured reads.
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            &lo.dev,
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--steady",
            "iops_slope:0%",
            "--steady-window",
            "2s",
            "--steady-max",
            "2s",
            "--ops",
            "300",
        ],
    );
    let d = DiskStats::of(&lo.name).since(before);
    assert_eq!(r["steady"]["settled"], false);
    assert!(warning_codes(&r).contains(&"not-settled".to_string()));
    assert_eq!(ios(&r, "read"), 300, "the measured reads only");
    assert_eq!(series_ios(&r).round(), 300.0, "{}", r["timeseries"]);
    // The kernel saw the content sample, the settling reads and the 300.
    let sampled = sampled_blocks(&r, &lo.dev);
    let kernel = d.reads + d.reads_merged;
    assert!(
        kernel > sampled + 300,
        "the kernel saw {kernel} reads: no settling I/O before the {sampled} + 300"
    );
}

#[test]
fn a_sweep_settles_every_step_and_marks_those_that_did_not() {
    let dir = scratch();
    let json = dir.path().join("sweep.json");
    let out = dbio_command()
        .args([
            "sweep",
            "oltp-read",
            "--engine",
            "sim",
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
            "--no-store",
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
        assert_eq!(num(step, "/steady/settle_secs"), 2.0);
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
