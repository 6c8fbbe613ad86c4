//! Workload profiles: every built-in one runs and does the I/O it claims (sizes from its
//! block-size distribution, read share, durability), per stream for multi-stream ones, a
//! user's TOML file runs, flags override a profile, and mistakes in a profile name the file,
//! line and key.

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

/// What one stream of a profile claims, read from its TOML text: its own keys, else the
/// top level's (a single-stream profile is one stream without a name).
struct Claim<'a> {
    name: Option<&'a str>,
    role: Option<&'a str>,
    rw: &'a str,
    mix: Option<&'a str>,
    bs: &'a str,
    threads: u64,
    sync: Option<&'a str>,
    burst: Option<&'a str>,
}

impl Claim<'_> {
    fn read_pct(&self) -> f64 {
        match self.rw {
            "read" | "randread" => 100.0,
            "write" | "randwrite" => 0.0,
            _ => self.mix.unwrap().parse().unwrap(),
        }
    }
}

fn claims(text: &str) -> Vec<Claim<'_>> {
    let mut parts = text.split("[[stream]]");
    let top = parts.next().unwrap();
    let streams: Vec<&str> = parts.collect();
    let sections = if streams.is_empty() {
        vec![""]
    } else {
        streams
    };
    sections
        .into_iter()
        .map(|own| {
            let get = |k: &str| toml_value(own, k).or_else(|| toml_value(top, k));
            Claim {
                name: toml_value(own, "name"),
                role: toml_value(own, "target"),
                rw: get("rw").unwrap(),
                mix: get("mix"),
                bs: get("bs").unwrap(),
                threads: get("threads").unwrap_or("1").parse().unwrap(),
                sync: get("sync"),
                burst: get("burst"),
            }
        })
        .collect()
}

/// The result of each stream: the streams of a multi-stream run, or the run itself.
fn stream_results<'a>(r: &'a serde_json::Value, claims: &[Claim]) -> Vec<&'a serde_json::Value> {
    let streams = r["streams"].as_array().unwrap();
    if claims[0].name.is_none() {
        assert!(streams.is_empty(), "a single-stream run lists no streams");
        return vec![r];
    }
    assert_eq!(streams.len(), claims.len());
    for (s, c) in streams.iter().zip(claims) {
        assert_eq!(s["name"], c.name.unwrap());
        assert_eq!(s["role"], c.role.unwrap());
    }
    streams.iter().collect()
}

/// Every built-in profile: its name and its TOML, as `dbio profiles` lists and shows them.
fn builtin_profiles() -> Vec<(String, String)> {
    let dbio = |args: &[&str]| {
        let out = dbio_command().args(args).output().unwrap();
        assert!(out.status.success(), "dbio {args:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let names: Vec<String> = dbio(&["profiles"])
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert!(names.len() >= 17, "{names:?}");
    assert!(names.contains(&"oltp-mix".to_string()), "{names:?}");
    names
        .into_iter()
        .map(|n| {
            let t = dbio(&["profiles", "--show", &n]);
            (n, t)
        })
        .collect()
}

/// The sums over `parts` of a direction's I/Os and bytes, and of its histogram's buckets.
fn sums(
    parts: &[&serde_json::Value],
    dir: &str,
) -> (u64, u64, std::collections::BTreeMap<u64, u64>) {
    let mut buckets = std::collections::BTreeMap::new();
    for p in parts {
        for b in dir_stats(p, dir)
            .map(|d| d["histogram"]["buckets"].as_array().unwrap().clone())
            .unwrap_or_default()
        {
            *buckets.entry(b[0].as_u64().unwrap()).or_insert(0) += b[1].as_u64().unwrap();
        }
    }
    let ios = parts.iter().map(|p| ios(p, dir)).sum();
    let bytes = parts.iter().map(|p| bytes(p, dir)).sum();
    (ios, bytes, buckets)
}

/// A session-mode profile (the SLOB method): pages of its block size only, a work unit of
/// reads per operation and its update share written back, from 100 operations per session
/// (one whole cycle of the update quota).
fn session_profile_does_what_it_claims(dir: &std::path::Path, name: &str, text: &str) {
    let num = |k: &str| -> u64 { toml_value(text, k).map_or(0, |v| v.parse().unwrap()) };
    let (sessions, wu, upd) = (num("sessions"), num("work_unit"), num("update_pct"));
    let page = sizes(toml_value(text, "bs").unwrap())[0].0 as u64;
    let f = dir.join(format!("{name}.dat"));
    let ops = (100 * sessions).to_string();
    let r = run_ok(
        dir,
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
    let reads = 100 * sessions * wu;
    let writes = 100 * sessions * wu * upd / 100;
    assert_eq!(
        (ios(&r, "read"), bytes(&r, "read")),
        (reads, reads * page),
        "{name}: reads"
    );
    assert_eq!(
        (ios(&r, "write"), bytes(&r, "write")),
        (writes, writes * page),
        "{name}: writes"
    );
    assert_eq!(
        r["job"]["session"]["work_unit"].as_u64(),
        Some(wu),
        "{name}"
    );
}

#[test]
fn every_builtin_profile_does_the_io_it_claims() {
    let dir = scratch();
    for (name, text) in &builtin_profiles() {
        if toml_value(text, "sessions").is_some() {
            session_profile_does_what_it_claims(dir.path(), name, text);
            continue;
        }
        let claims = claims(text);
        let f = dir.path().join(format!("{name}.dat"));
        // 1200 I/Os per thread: a whole number of every block-size and mix quota cycle.
        // With several streams, --ops counts for each stream on its own.
        let threads = claims.iter().map(|c| c.threads).max().unwrap();
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
        let results = stream_results(&r, &claims);
        for (c, s) in claims.iter().zip(&results) {
            let what = format!("{name} stream {}", c.name.unwrap_or("-"));
            let (reads, writes) = (ios(s, "read"), ios(s, "write"));
            assert_eq!(reads + writes, 1200 * threads, "{what}");
            let total_bytes = (bytes(s, "read") + bytes(s, "write")) as f64;
            let mean = total_bytes / (reads + writes) as f64;
            assert!(
                (mean - mean_size(c.bs)).abs() < 1e-6 * mean,
                "{what}: mean I/O {mean}, profile says {}",
                c.bs
            );
            let read_pct = reads as f64 * 100.0 / (reads + writes) as f64;
            assert_eq!(read_pct, c.read_pct(), "{what}: read share");
            if let Some(sync) = c.sync {
                let mode = sync.split(':').next().unwrap();
                assert_eq!(s["job"]["sync"]["mode"], mode, "{what}");
                if mode != "dsync" {
                    assert_eq!(ios(s, "flush"), writes, "{what}: a flush per write");
                }
            }
            // A profile's bursts are in the job as it ran (checkpoint: "10s/60s").
            assert_eq!(
                s["job"]["burst"].is_object(),
                c.burst.is_some(),
                "{what}: burst"
            );
        }
        if results.len() > 1 {
            // The totals are the sums of the streams, histograms merged bucket by bucket.
            for d in ["read", "write", "flush"] {
                assert_eq!(sums(&[&r], d), sums(&results, d), "{name}: total {d}");
            }
            let paths: Vec<&str> = r["targets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["path"].as_str().unwrap())
                .collect();
            let data = f.to_str().unwrap().to_string();
            assert_eq!(paths, [data.clone(), format!("{data}.log")], "{name}");
        }
    }
}

/// Compares the kernel's counts for one device with what dbio says it did there (a run, or
/// one stream of it). I/Os larger than the device's largest request are split by the
/// kernel (`split`): then only the bytes can be compared, not the request counts. `sampled`
/// 4 KiB blocks were read before the run to sample the device's content.
fn check_diskstats(what: &str, d: DiskStats, r: &serde_json::Value, split: bool, sampled: u64) {
    // Requests seen = completed + merged (the kernel folds adjacent sequential I/Os).
    // Slack: 1 %, and at least what dbio's own signature probe of a device may read
    // before a write run (128 KiB through the page cache, with readahead).
    let checks = [
        (
            "read requests",
            d.reads + d.reads_merged,
            ios(r, "read") + sampled,
            8.0,
        ),
        (
            // A flush reaches this device as one more write request.
            "write requests",
            d.writes + d.writes_merged,
            ios(r, "write") + ios(r, "flush"),
            8.0,
        ),
        (
            "bytes read",
            d.sectors_read * 512,
            bytes(r, "read") + sampled * 4096,
            524_288.0,
        ),
        (
            "bytes written",
            d.sectors_written * 512,
            bytes(r, "write"),
            0.0,
        ),
    ];
    for (which, kernel, dbio, floor) in checks {
        if split && which.ends_with("requests") {
            continue;
        }
        let slack = (dbio as f64 * 0.01).max(floor);
        assert!(
            (kernel as f64 - dbio as f64).abs() <= slack,
            "{what}: {which}: kernel {kernel}, dbio {dbio}"
        );
    }
}

#[test]
fn every_builtin_profile_on_a_loop_device_matches_diskstats() {
    // One device per target role: a single-stream profile uses the first.
    let (Some(lo), Some(lo2)) = (
        LoopDev::attach("profiles against diskstats", &vec![0u8; 64 << 20]),
        LoopDev::attach("profiles against diskstats", &vec![0u8; 64 << 20]),
    ) else {
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
        if toml_value(text, "sessions").is_some() {
            continue; // session mode against diskstats: run_session.rs
        }
        let claims = claims(text);
        let threads = claims.iter().map(|c| c.threads).max().unwrap();
        let ops = (1200 * threads).to_string();
        let devs = [&lo, &lo2];
        let mut args = vec![name.as_str(), "--destroy-data", "--ops", &ops];
        let named: Vec<String> = claims
            .iter()
            .zip(devs)
            .filter_map(|(c, d)| c.role.map(|role| format!("{role}={}", d.dev)))
            .collect();
        if named.is_empty() {
            args.extend(["--target", &lo.dev]);
        }
        for n in &named {
            args.extend(["--target", n]);
        }
        let before = devs.map(|d| DiskStats::of(&d.name));
        let r = run_ok(dir.path(), &args);
        let results = stream_results(&r, &claims);
        for ((c, s), (d, before)) in claims.iter().zip(&results).zip(devs.iter().zip(before)) {
            let split = sizes(c.bs).iter().any(|(s, _)| *s > max_request);
            let what = format!("{name} stream {} on {}", c.name.unwrap_or("-"), d.name);
            let sampled = sampled_blocks(&r, &d.dev);
            check_diskstats(
                &what,
                DiskStats::of(&d.name).since(before),
                s,
                split,
                sampled,
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
