//! Workload profiles: every built-in one runs and does the I/O of its definition, written
//! out by hand below from the README and the profiles' own descriptions (sizes from its
//! block-size distribution, read share, queue depth, threads, durability, bursts), per
//! stream for multi-stream ones, and the kernel's counters agree; a user's TOML file runs,
//! flags override a profile, and mistakes in a profile name the file, line and key.

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

/// What one stream of a built-in profile is defined to do (a single-stream profile is one
/// stream without a name).
struct Claim {
    name: Option<&'static str>,
    role: Option<&'static str>,
    rw: &'static str,
    read_pct: f64,
    bs: &'static str,
    qd: u64,
    threads: u64,
    sync: Option<&'static str>,
    burst: Option<(f64, f64)>,
}

/// A single stream: `rw`, read %, block-size distribution, queue depth, threads.
const fn one(rw: &'static str, read_pct: f64, bs: &'static str, qd: u64, threads: u64) -> Claim {
    Claim {
        name: None,
        role: None,
        rw,
        read_pct,
        bs,
        qd,
        threads,
        sync: None,
        burst: None,
    }
}

/// The log writer of the OLTP and SQL Server definitions: sequential 4-60 KiB writes, one at
/// a time, each durable before the next (O_DSYNC).
const LOG_BS: &str = "4k:30,8k:25,16k:20,32k:15,60k:10";

/// A session-mode profile: sessions, work unit, update %, page size (SLOB's defaults).
struct Sessions {
    sessions: u64,
    work_unit: u64,
    update_pct: u64,
    page: u64,
}

/// Every built-in profile as the README and its description define it, written here by hand
/// (not read from dbio): a profile whose values drift from its definition fails below.
fn definitions() -> Vec<(&'static str, Result<Vec<Claim>, Sessions>)> {
    let oltp = || one("randrw", 70.0, "8k", 32, 1);
    let mix_data = Claim {
        name: Some("data"),
        role: Some("data"),
        ..one("randrw", 70.0, "8k", 16, 1)
    };
    vec![
        // The default: 8 KiB random pages, 70 % reads, 32 outstanding I/Os.
        ("oltp", Ok(vec![oltp()])),
        // SLOB's physical-read test: 8 KiB random reads.
        ("oltp-read", Ok(vec![one("randread", 100.0, "8k", 32, 1)])),
        (
            "log",
            Ok(vec![Claim {
                sync: Some("dsync"),
                ..one("write", 0.0, LOG_BS, 1, 1)
            }]),
        ),
        // TempDB: 64 KiB random, 50 % reads.
        ("tempdb", Ok(vec![one("randrw", 50.0, "64k", 16, 1)])),
        // DSS scans: sequential 256 KiB-1 MiB reads in 4 streams.
        (
            "dss",
            Ok(vec![one("read", 100.0, "256k:1,512k:1,1m:2", 4, 4)]),
        ),
        // Bulk load: sequential 128-256 KiB writes (seed 002: 128 KB).
        (
            "bulkload",
            Ok(vec![one("write", 0.0, "128k:1,256k:1", 8, 1)]),
        ),
        // Checkpoint: bursts of 8-256 KiB random writes, many outstanding, once a minute.
        (
            "checkpoint",
            Ok(vec![Claim {
                burst: Some((10.0, 60.0)),
                ..one("randwrite", 0.0, "8k:60,64k:30,256k:10", 32, 1)
            }]),
        ),
        // Backup: 1 MiB sequential reads.
        ("backup", Ok(vec![one("read", 100.0, "1m", 4, 1)])),
        ("sqlserver-oltp", Ok(vec![oltp()])),
        // SQL Server scans: 64 KiB extents, read-ahead to 512 KiB, 2 streams.
        (
            "sqlserver-dss",
            Ok(vec![one("read", 100.0, "64k:2,256k:1,512k:1", 8, 2)]),
        ),
        ("oracle-oltp", Ok(vec![oltp()])),
        // Oracle multiblock reads: 1 MiB (128 × 8 KiB), 2 streams.
        ("oracle-dss", Ok(vec![one("read", 100.0, "1m", 4, 2)])),
        ("postgres-oltp", Ok(vec![oltp()])),
        // PostgreSQL WAL: sequential 8 KiB writes, one at a time, each fdatasync'ed.
        (
            "postgres-wal",
            Ok(vec![Claim {
                sync: Some("fdatasync:1"),
                ..one("write", 0.0, "8k", 1, 1)
            }]),
        ),
        // InnoDB: 16 KiB pages, 70 % reads.
        ("innodb-oltp", Ok(vec![one("randrw", 70.0, "16k", 32, 1)])),
        // Data I/O at QD 16 while one log writer does durable 4-60 KiB writes at QD 1.
        (
            "oltp-mix",
            Ok(vec![
                mix_data,
                Claim {
                    name: Some("log"),
                    role: Some("log"),
                    sync: Some("dsync"),
                    ..one("write", 0.0, LOG_BS, 1, 1)
                },
            ]),
        ),
        // The same data I/O while the WAL writer writes 8 KiB, each followed by fdatasync.
        (
            "postgres-oltp-mix",
            Ok(vec![
                Claim {
                    name: Some("data"),
                    role: Some("data"),
                    ..one("randrw", 70.0, "8k", 16, 1)
                },
                Claim {
                    name: Some("wal"),
                    role: Some("log"),
                    sync: Some("fdatasync:1"),
                    ..one("write", 0.0, "8k", 1, 1)
                },
            ]),
        ),
        // SLOB's slob.conf defaults: 8 sessions, WORK_UNIT=64, UPDATE_PCT=25, 8 KiB blocks.
        (
            "slob",
            Err(Sessions {
                sessions: 8,
                work_unit: 64,
                update_pct: 25,
                page: 8192,
            }),
        ),
    ]
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

/// The built-in profiles: `dbio profiles` must list exactly those defined above.
fn builtin_profiles() -> Vec<(&'static str, Result<Vec<Claim>, Sessions>)> {
    let out = dbio_command().arg("profiles").output().unwrap();
    assert!(out.status.success(), "dbio profiles");
    let listed: std::collections::BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let defs = definitions();
    let defined: std::collections::BTreeSet<String> =
        defs.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        listed, defined,
        "the profiles dbio lists and those defined here"
    );
    defs
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
fn session_profile_does_what_it_claims(dir: &std::path::Path, name: &str, def: &Sessions) {
    let (sessions, wu, upd, page) = (def.sessions, def.work_unit, def.update_pct, def.page);
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
    assert_eq!(
        r["job"]["session"]["sessions"].as_u64(),
        Some(sessions),
        "{name}"
    );
}

/// The job a stream ran with holds the definition's values.
fn job_matches(what: &str, job: &serde_json::Value, c: &Claim) {
    assert_eq!(job["rw"], c.rw, "{what}: rw");
    assert_eq!(job["qd"].as_u64(), Some(c.qd), "{what}: qd");
    assert_eq!(job["threads"].as_u64(), Some(c.threads), "{what}: threads");
    if c.rw == "randrw" {
        assert_eq!(job["read_pct"].as_f64(), Some(c.read_pct), "{what}: mix");
    }
    // The block sizes with their shares.
    let want = sizes(c.bs);
    let total: f64 = want.iter().map(|w| w.1).sum();
    let got: Vec<(f64, f64)> = job["bs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["size"].as_f64().unwrap(), b["weight"].as_f64().unwrap()))
        .collect();
    let got_total: f64 = got.iter().map(|g| g.1).sum();
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: bs {got:?}, defined {}",
        c.bs
    );
    for (g, w) in got.iter().zip(&want) {
        assert!(
            g.0 == w.0 && (g.1 / got_total - w.1 / total).abs() < 1e-9,
            "{what}: bs {got:?}, defined {}",
            c.bs
        );
    }
    let mode = c.sync.map_or("none", |s| s.split(':').next().unwrap());
    assert_eq!(job["sync"]["mode"], mode, "{what}: sync");
    match c.burst {
        Some((on, period)) => {
            assert_eq!(job["burst"]["on_secs"].as_f64(), Some(on), "{what}");
            assert_eq!(job["burst"]["period_secs"].as_f64(), Some(period), "{what}");
        }
        None => assert!(job["burst"].is_null(), "{what}: burst {}", job["burst"]),
    }
}

#[test]
fn every_builtin_profile_does_the_io_it_claims() {
    let dir = scratch();
    for (name, def) in &builtin_profiles() {
        let claims = match def {
            Ok(c) => c,
            Err(sessions) => {
                session_profile_does_what_it_claims(dir.path(), name, sessions);
                continue;
            }
        };
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
        assert_eq!(r["job"]["profile"], *name);
        let results = stream_results(&r, claims);
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
            assert_eq!(read_pct, c.read_pct, "{what}: read share");
            job_matches(&what, &s["job"], c);
            if c.sync.is_some_and(|s| s.starts_with("fdatasync:1")) {
                assert_eq!(ios(s, "flush"), writes, "{what}: a flush per write");
            }
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
    for (name, def) in &builtin_profiles() {
        let Ok(claims) = def else {
            continue; // session mode against diskstats: run_session.rs
        };
        let threads = claims.iter().map(|c| c.threads).max().unwrap();
        let ops = (1200 * threads).to_string();
        let devs = [&lo, &lo2];
        let mut args = vec![*name, "--destroy-data", "--ops", &ops];
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
        let results = stream_results(&r, claims);
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
