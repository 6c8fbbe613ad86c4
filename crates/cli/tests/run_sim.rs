//! `--engine sim` through the binary: a queue-depth sweep whose knee and saturation step are
//! computed by hand from the device's parameters, a result that validates and says it is
//! simulated, the same seed giving the same figures, no file touched, and bad input refused.
//! Also `--arrivals poisson`: a Poisson count within 6 deviations on the simulated device,
//! and recorded on a real open-loop run. Statistical checks use a fixed seed.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

/// The device of the sweep: 4 channels, every I/O served in exactly 100 µs, no link limit.
const CHANNELS: f64 = 4.0;
const S_US: f64 = 100.0;
const DEVICE: &str = "channels=4,service=100us,dist=const,bw=none";

/// `dbio ARGS` run in `dir` as the working directory.
fn dbio_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    dbio_command().current_dir(dir).args(args).output().unwrap()
}

#[test]
fn a_queue_depth_sweep_finds_the_knee_and_saturation_computed_by_hand() {
    let dir = scratch();
    let json = dir.path().join("sweep.json");
    let qds: [f64; 5] = [1.0, 2.0, 4.0, 8.0, 16.0];
    let out = dbio_in(
        dir.path(),
        &[
            "sweep",
            "oltp-read",
            "--engine",
            "sim",
            "--sim",
            DEVICE,
            "--bs",
            "4k",
            "--vary",
            "qd=1,2,4,8,16",
            "--ops",
            "20000",
            "--slo",
            "p99<150us",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("SIMULATED"), "{stdout}");
    // No process did a simulated step's work: its CPU column says so rather than 0.
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    assert_eq!(rows.len(), 5, "{stdout}");
    assert!(rows.iter().all(|r| r.ends_with(" -")), "{stdout}");
    // By hand: with q I/Os outstanding on c channels of constant service S, IOPS = min(q, c)/S
    // and every I/O takes max(1, q/c)·S. So 100, 100, 100, 200, 400 µs.
    let iops: Vec<f64> = qds
        .iter()
        .map(|q| q.min(CHANNELS) / (S_US * 1e-6))
        .collect();
    let lat_us: Vec<f64> = qds.iter().map(|q| (q / CHANNELS).max(1.0) * S_US).collect();
    // The knee under p99 < 150 µs: the most IOPS among steps whose latency is within it.
    let knee = (0..qds.len())
        .filter(|&i| lat_us[i] < 150.0)
        .max_by(|&a, &b| iops[a].total_cmp(&iops[b]))
        .unwrap();
    // Saturation: the last step before IOPS stop growing while latency does.
    let saturation = (1..qds.len()).find(|&i| iops[i] <= iops[i - 1]).unwrap() - 1;
    assert_eq!(
        (knee, saturation),
        (2, 2),
        "qd=4 both, by the figures above"
    );

    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(&schema("sweep-result.v1.json"), "sweep", &s);
    assert_eq!(s["knee"]["step"], knee);
    assert_eq!(s["knee"]["value"], "4");
    assert_eq!(s["saturation"]["step"], saturation);
    let steps = s["steps"].as_array().unwrap();
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["engine"]["name"], "sim");
        assert_near(
            &format!("IOPS at qd {}", qds[i]),
            num(step, "/read/iops"),
            iops[i],
            0.5,
        );
        assert_near(
            &format!("mean latency at qd {}", qds[i]),
            num(step, "/read/latency_ns/mean") / 1000.0,
            lat_us[i],
            0.5,
        );
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(
        left.len(),
        1,
        "only the JSON result; no test file was created"
    );
}

#[test]
fn a_poisson_rate_sweep_on_one_exponential_channel_follows_mm1() {
    let dir = scratch();
    let json = dir.path().join("sweep.json");
    let rates = [2000.0, 4000.0, 6000.0, 8000.0];
    let out = dbio_in(
        dir.path(),
        &[
            "sweep",
            "oltp-read",
            "--engine",
            "sim",
            "--sim",
            "channels=1,service=100us,dist=exp,bw=none",
            "--arrivals",
            "poisson",
            "--qd",
            "1024",
            "--ops",
            "1000000",
            "--vary",
            "rate=2000,4000,6000,8000",
            "--slo",
            "avg<300us",
            "--json",
            json.to_str().unwrap(),
            "-q",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // M/M/1 with S = 100 µs: U = rate·S, mean = S/(1 − U): 125, 167, 250, 500 µs. At U = 0.8
    // successive responses are strongly correlated: the standard error of the mean of n is
    // about 44·S/√n (the M/M/1 asymptotic variance), under 1 % of 500 µs at n = 10^6.
    let mean_us: Vec<f64> = rates
        .iter()
        .map(|r| S_US / (1.0 - r * S_US * 1e-6))
        .collect();
    // The knee under avg < 300 µs is the highest rate whose mean is within it: 6000.
    let knee = (0..rates.len()).rfind(|&i| mean_us[i] < 300.0).unwrap();
    assert_eq!(knee, 2);
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(s["knee"]["step"], knee);
    // Below capacity (10,000 IOPS) every step adds IOPS: no saturation.
    assert!(s["saturation"].is_null(), "{}", s["saturation"]);
    for (i, step) in s["steps"].as_array().unwrap().iter().enumerate() {
        let what = format!("rate {}", rates[i]);
        assert_near(&what, num(step, "/read/iops"), rates[i], 1.0);
        assert_near(
            &what,
            num(step, "/read/latency_ns/mean") / 1000.0,
            mean_us[i],
            3.0,
        );
    }
}

#[test]
fn a_simulated_run_validates_says_so_and_repeats_for_the_same_seed() {
    let dir = scratch();
    let run = |seed: &str| {
        let out = dbio_in(
            dir.path(),
            &[
                "run", "--engine", "sim", "--sim", "sata-ssd", "--ops", "20000", "--seed", seed,
                "--json", "-",
            ],
        );
        assert!(out.status.success());
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(summary.contains("SIMULATED"), "{summary}");
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let a = run("7");
    assert_valid(&schema("run-result.v1.json"), "run", &a);
    assert_eq!(a["engine"]["name"], "sim");
    assert_eq!(a["job"]["engine"], "sim");
    assert_eq!(a["job"]["sim"]["name"], "sata-ssd");
    assert_eq!(a["job"]["sim"]["channels"], 8);
    assert!(a["targets"].as_array().unwrap().is_empty());
    assert!(warning_codes(&a).contains(&"simulated".to_string()));
    let b = run("7");
    for key in ["read", "write", "timeseries", "measured_secs"] {
        assert_eq!(a[key], b[key], "{key} differs between two runs of seed 7");
    }
    assert_ne!(run("8")["read"], a["read"], "another seed, other draws");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a simulated run creates no ./dbio-testfile"
    );
}

#[test]
fn the_default_simulated_run_models_nvme_gen3_for_200000_ios() {
    let dir = scratch();
    let r = run_ok(dir.path(), &["--engine", "sim"]);
    assert_eq!(r["job"]["sim"]["name"], "nvme-gen3");
    assert_eq!(ios(&r, "read") + ios(&r, "write"), 200_000);
    // The log profile's dsync is dropped: the model has no volatile cache to flush.
    let r = run_ok(dir.path(), &["log", "--engine", "sim", "--ops", "1000"]);
    assert_eq!(r["job"]["sync"]["mode"], "none");
    assert_eq!(ios(&r, "write"), 1000);
}

#[test]
fn flags_that_do_not_fit_a_simulated_run_are_refused() {
    let dir = scratch();
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--engine", "sim", "--target", "x.dat"],
            &["--target x.dat", "--engine sim", "leave --target out"],
        ),
        (
            &["--engine", "sim", "--sim", "nvme-gen9"],
            &["--sim nvme-gen9", "unknown preset", "hdd-15k"],
        ),
        (
            &["--engine", "sim", "--sim", "channels=0"],
            &["--sim channels=0", "1 to 65536"],
        ),
        (&["--sim", "sata-ssd"], &["--sim sata-ssd", "--engine sim"]),
        (
            &["--engine", "sim", "--rw", "write", "--sync", "dsync"],
            &["--sync", "--engine sim"],
        ),
        (
            &["--arrivals", "poisson"],
            &["--arrivals poisson", "--rate"],
        ),
    ];
    for (args, needles) in cases {
        assert_one_line_error(&dbio_run(dir.path(), args), needles);
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing created by a refused run"
    );
}

#[test]
fn poisson_arrivals_count_as_a_poisson_process_does() {
    // On the simulated device (fixed seed): arrivals at 2000/s for 20 s are a Poisson count
    // of mean 40,000 and deviation 200; 6 deviations (±1,200, 3 %) hold unless the gaps are
    // not exponential with the asked mean. A far-off device keeps up, so every arrival
    // completes in the window but those of its last 100 µs.
    let dir = scratch();
    let r = run_ok(
        dir.path(),
        &[
            "--engine",
            "sim",
            "--sim",
            "channels=64,service=100us,dist=const,bw=none",
            "--rate",
            "2000",
            "--arrivals",
            "poisson",
            "--duration",
            "20s",
            "--rw",
            "randread",
            "--seed",
            "11",
        ],
    );
    assert_eq!(r["job"]["arrivals"], "poisson");
    let n = ios(&r, "read") as f64;
    assert!(
        (n - 40_000.0).abs() <= 6.0 * 200.0,
        "{n} arrivals in 20 s at 2000/s"
    );
    // Gaps vary: with even spacing the count would be exactly 40,000 and every second 2000.
    let per_second: Vec<f64> = r["timeseries"].as_array().unwrap()[..20]
        .iter()
        .map(|p| p["read_iops"].as_f64().unwrap())
        .collect();
    let var = per_second.iter().map(|x| (x - 2000.0).powi(2)).sum::<f64>() / 20.0;
    // A Poisson second has variance 2000: the mean square deviation of 20 of them is 2000 ×
    // χ²(20) / 20, within (0.1, 4) × 2000 but for odds under one in a million.
    assert!(
        (200.0..8000.0).contains(&var),
        "per-second counts {per_second:?} vary by {var} (Poisson: 2000)"
    );
    let codes = warning_codes(&r);
    assert!(!codes.contains(&"rate-not-kept".to_string()), "{codes:?}");
}

#[test]
fn a_real_open_loop_with_poisson_arrivals_is_recorded_and_runs() {
    // The count of a real Poisson run is random and its rate depends on the machine keeping
    // up, so here only that the job says so and its I/Os add up.
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rate",
            "2000",
            "--arrivals",
            "poisson",
            "--ops",
            "500",
            "--rw",
            "randread",
        ],
    );
    assert_eq!(r["job"]["arrivals"], "poisson");
    assert_eq!(ios(&r, "read"), 500);
}
