//! Workload profiles: every built-in one runs and does the I/O it claims (sizes from its
//! block-size distribution, read share, durability), a user's TOML file runs, flags override
//! a profile, and mistakes in a profile name the file, line and key.

#![forbid(unsafe_code)]

mod common;
use common::*;

/// Mean I/O size of a distribution written as on the command line: `8k:70,64k:30`.
fn mean_size(bs: &str) -> f64 {
    let parts = sizes(bs);
    let total: f64 = parts.iter().map(|p| p.1).sum();
    parts.iter().map(|(s, w)| s * w).sum::<f64>() / total
}

/// The sizes of a distribution with their weights.
fn sizes(bs: &str) -> Vec<(f64, f64)> {
    let unit = |s: &str| -> f64 {
        let (n, mult) = match s.chars().last() {
            Some('k') => (&s[..s.len() - 1], 1024.0),
            Some('m') => (&s[..s.len() - 1], 1048576.0),
            _ => (s, 1.0),
        };
        n.parse::<f64>().unwrap() * mult
    };
    bs.split(',')
        .map(|p| match p.split_once(':') {
            Some((s, w)) => (unit(s), w.parse().unwrap()),
            None => (unit(p), 1.0),
        })
        .collect()
}

fn toml_value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} = ")))
        .map(|v| v.trim_matches('"'))
}

/// Every built-in profile: its name and its TOML, as `dbio profiles` lists and shows them.
fn builtin_profiles() -> Vec<(String, String)> {
    let dbio = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dbio"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "dbio {args:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let names: Vec<String> = dbio(&["profiles"])
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.is_empty() && !l.starts_with("Run one"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    names
        .into_iter()
        .map(|n| {
            let t = dbio(&["profiles", "--show", &n]);
            (n, t)
        })
        .collect()
}

#[test]
fn every_builtin_profile_does_the_io_it_claims() {
    let dir = scratch();
    for (name, text) in &builtin_profiles() {
        let threads: u64 = toml_value(text, "threads").unwrap_or("1").parse().unwrap();
        let bs = toml_value(text, "bs").unwrap();
        let f = dir.path().join(format!("{name}.dat"));
        // 1200 I/Os per thread: a whole number of every block-size and mix quota cycle.
        let ops = (1200 * threads).to_string();
        let r = run_ok(
            dir.path(),
            &[
                name,
                "--target",
                f.to_str().unwrap(),
                "--size",
                "64MiB",
                "--ops",
                &ops,
            ],
        );
        assert_eq!(r["job"]["profile"], name.as_str());
        let (reads, writes) = (ios(&r, "read"), ios(&r, "write"));
        assert_eq!(reads + writes, 1200 * threads, "{name}");
        let total_bytes = (bytes(&r, "read") + bytes(&r, "write")) as f64;
        let mean = total_bytes / (reads + writes) as f64;
        assert!(
            (mean - mean_size(bs)).abs() < 1e-6 * mean,
            "{name}: mean I/O {mean}, profile says {bs}"
        );
        let rw = toml_value(text, "rw").unwrap();
        let read_pct = reads as f64 * 100.0 / (reads + writes) as f64;
        let want_pct: f64 = match rw {
            "read" | "randread" => 100.0,
            "write" | "randwrite" => 0.0,
            _ => toml_value(text, "mix").unwrap().parse().unwrap(),
        };
        assert_eq!(read_pct, want_pct, "{name}: read share");
        // A profile's bursts are in the job as it ran (checkpoint: "10s/60s").
        assert_eq!(
            r["job"]["burst"].is_object(),
            toml_value(text, "burst").is_some(),
            "{name}: burst"
        );
        if let Some(sync) = toml_value(text, "sync") {
            let mode = sync.split(':').next().unwrap();
            assert_eq!(r["job"]["sync"]["mode"], mode, "{name}");
        }
    }
}

#[test]
fn every_builtin_profile_on_a_loop_device_matches_diskstats() {
    let Some(lo) = LoopDev::attach("profiles against diskstats", &vec![0u8; 64 << 20]) else {
        return;
    };
    let dir = scratch();
    let queue = |attr: &str| {
        std::fs::read_to_string(format!("/sys/block/{}/queue/{attr}", lo.name))
            .ok()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .unwrap_or(f64::MAX / 8192.0)
    };
    // The largest request the kernel keeps whole: by size, and by segments of one page each.
    let max_request = (queue("max_sectors_kb") * 1024.0).min(queue("max_segments") * 4096.0);
    for (name, text) in &builtin_profiles() {
        let threads: u64 = toml_value(text, "threads").unwrap_or("1").parse().unwrap();
        let ops = (1200 * threads).to_string();
        // I/Os larger than the device's largest request are split by the kernel: then only
        // the bytes can be compared, not the request counts.
        let split = sizes(toml_value(text, "bs").unwrap())
            .iter()
            .any(|(s, _)| *s > max_request);
        let before = DiskStats::of(&lo.name);
        let r = run_ok(
            dir.path(),
            &[name, "--target", &lo.dev, "--destroy-data", "--ops", &ops],
        );
        let d = DiskStats::of(&lo.name).since(before);
        // Requests seen = completed + merged (the kernel folds adjacent sequential I/Os).
        // Slack: 1 %, and at least what dbio's own signature probe of a device may read
        // before a write run (128 KiB through the page cache, with readahead).
        let checks = [
            (
                "read requests",
                d.reads + d.reads_merged,
                ios(&r, "read"),
                8.0,
            ),
            (
                // A flush reaches this device as one more write request.
                "write requests",
                d.writes + d.writes_merged,
                ios(&r, "write") + ios(&r, "flush"),
                8.0,
            ),
            (
                "bytes read",
                d.sectors_read * 512,
                bytes(&r, "read"),
                524_288.0,
            ),
            (
                "bytes written",
                d.sectors_written * 512,
                bytes(&r, "write"),
                0.0,
            ),
        ];
        for (what, kernel, dbio, floor) in checks {
            if split && what.ends_with("requests") {
                continue;
            }
            let slack = (dbio as f64 * 0.01).max(floor);
            assert!(
                (kernel as f64 - dbio as f64).abs() <= slack,
                "{name}: {what}: kernel {kernel}, dbio {dbio}"
            );
        }
    }
}

#[test]
fn a_user_profile_runs_and_flags_override_it() {
    let dir = scratch();
    let p = dir.path().join("mine.toml");
    std::fs::write(&p, "rw = \"randrw\"\nmix = 25\nbs = \"16k\"\nqd = 4\n").unwrap();
    let f = dir.path().join("t.dat");
    let r = run_ok(
        dir.path(),
        &[
            "--profile",
            p.to_str().unwrap(),
            "--target",
            f.to_str().unwrap(),
            "--size",
            "32MiB",
            "--ops",
            "4000",
            "--qd",
            "8",
        ],
    );
    assert_eq!(r["job"]["qd"], 8, "the flag wins");
    assert_eq!(r["job"]["bs"][0]["size"], 16384, "the profile's value");
    assert_eq!((ios(&r, "read"), ios(&r, "write")), (1000, 3000));
}

#[test]
fn profile_mistakes_name_the_file_line_and_key() {
    let dir = scratch();
    let cases: &[(&str, &[&str])] = &[
        ("rw = \"randread\"\nqueue = 4\n", &["line 2", "queue"]),
        ("qd = \"deep\"\n", &["line 1", "qd"]),
        ("bs = \"8q\"\n", &["bs: size '8q'", "unknown unit"]),
        ("mix = 150\nrw = \"randrw\"\n", &["mix 150", "percentage"]),
    ];
    for (i, (text, needles)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&p, text).unwrap();
        let t = dir.path().join("t.dat");
        let args = [
            "--profile",
            p.to_str().unwrap(),
            "--target",
            t.to_str().unwrap(),
            "--ops",
            "10",
        ];
        let ran = dbio_run(dir.path(), &args);
        let mut all = vec![p.to_str().unwrap()];
        all.extend_from_slice(needles);
        assert_one_line_error(&ran, &all);
    }
    let t = dir.path().join("t.dat");
    let ran = dbio_run(
        dir.path(),
        &["oltpp", "--target", t.to_str().unwrap(), "--ops", "10"],
    );
    assert_one_line_error(&ran, &["unknown profile 'oltpp'", "oltp-read"]);
}
