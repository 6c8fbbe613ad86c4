//! Promises of README.md that no other test held dbio to, each checked against something
//! other than dbio's own account: the default run (its file's size and contents, its job,
//! its history row); the ramp's I/Os reaching the device but not the totals; `--data zeros`
//! read back, with its warning; `--seed` repeating offsets but never data; `compare` of
//! JSON files and of three runs against figures computed by hand; `history --since 7d`
//! leaving out an older run; Ctrl-C during a sweep and a suite still printing and writing
//! the partial result.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

#[test]
fn the_default_run_prefills_a_gib_of_incompressible_data_and_stores_oltp() {
    // `dbio run` as the README's first command, shortened to 1 s.
    let dir = scratch();
    let data_home = dir.path().join("data");
    let out = Command::new(DBIO)
        .current_dir(dir.path())
        .env("XDG_DATA_HOME", &data_home)
        .args(["run", "--duration", "1s"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // ./dbio-testfile, 1 GiB, every 4 KiB block unique and none one repeated byte.
    let f = dir.path().join("dbio-testfile");
    let contents = std::fs::read(&f).expect("./dbio-testfile was created");
    assert_eq!(contents.len(), 1 << 30);
    let faults = block_faults(&contents);
    assert!(
        faults.repeated_byte.is_empty() && faults.duplicates.is_empty(),
        "{} repeated-byte and {} duplicate blocks",
        faults.repeated_byte.len(),
        faults.duplicates.len()
    );
    // Incompressible, by the zstd tool: the prefill, and the run's own writes. zstd -1 with
    // a 128 MiB window sees the whole file, so blocks written from one buffer that shared
    // all but a stamp would pack many times over; random bytes do not shrink by 0.1 %.
    if let Some(zstd) = require_tool("the_default_run", "zstd") {
        let packed = |f: &std::path::Path| {
            Command::new(&zstd)
                .args(["-1", "--long=27", "-c"])
                .arg(f)
                .output()
                .unwrap()
                .stdout
                .len()
        };
        let f = dir.path().join("prefill-only.dat");
        let size = ["--size", "64MiB"];
        let target = ["--target", f.to_str().unwrap()];
        run_ok(
            dir.path(),
            &[&target[..], &size, &["--rw", "randread", "--ops", "1"]].concat(),
        );
        let p = packed(&f);
        assert!(
            p as f64 >= 0.999 * (64 << 20) as f64,
            "zstd packed the 64 MiB prefill into {p} bytes"
        );
        // Every block rewritten once, 8 KiB at a time from 16 buffers.
        let w = ["--rw", "write", "--bs", "8k", "--qd", "16", "--ops", "8192"];
        run_ok(dir.path(), &[&target[..], &size, &w].concat());
        let p = packed(&f);
        assert!(
            p as f64 >= 0.999 * (64 << 20) as f64,
            "zstd packed the 64 MiB written by the run into {p} bytes"
        );
    }
    drop(contents);
    // The main job: 8 KiB random I/O, 70 % reads, QD 32, the oltp profile, stored.
    let db = data_home.join("dbio/history.db");
    let history = Command::new(DBIO)
        .args(["history", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&history.stdout);
    let rows: Vec<&str> = listed.lines().filter(|l| l.contains("oltp")).collect();
    assert_eq!(rows.len(), 1, "one stored run of oltp: {listed}");
    let export = Command::new(DBIO)
        .args(["export", "1", "--json", "-", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&export.stdout).expect("run 1 is stored whole");
    let job = &r["job"];
    assert_eq!(job["profile"], "oltp");
    assert_eq!(job["rw"], "randrw");
    assert_eq!(job["read_pct"], 70);
    assert_eq!(job["bs"][0]["size"], 8192);
    assert_eq!(job["bs"].as_array().unwrap().len(), 1);
    assert_eq!(job["qd"], 32);
    assert_eq!(job["threads"], 1);
    assert_eq!(job["direct"], true, "O_DIRECT by default");
    assert_eq!(r["targets"][0]["path"], "./dbio-testfile");
    let (rd, wr) = (ios(&r, "read"), ios(&r, "write"));
    // An exact quota of 70 reads per 100 I/Os: off by less than one cycle.
    assert!(
        (rd as f64 - 0.7 * (rd + wr) as f64).abs() < 100.0,
        "{rd} reads, {wr} writes"
    );
    // What was printed is what was stored.
    let shown = Command::new(DBIO)
        .args(["show", "1", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&shown.stdout), text);
}

#[test]
fn the_ramp_reaches_the_device_but_not_the_figures() {
    let test = "the_ramp_reaches_the_device_but_not_the_figures";
    let Some(lo) = LoopDev::attach(test, &vec![0u8; 32 << 20]) else {
        return;
    };
    let dir = scratch();
    let before = DiskStats::of(&lo.name);
    let r = run_ok(
        dir.path(),
        &[
            "--target", &lo.dev, "--rw", "randread", "--bs", "4k", "--ramp", "1s", "--ops", "500",
        ],
    );
    let d = DiskStats::of(&lo.name).since(before);
    assert_eq!(r["job"]["ramp_secs"], 1.0);
    assert_eq!(ios(&r, "read"), 500, "the measured reads only");
    let sampled = sampled_blocks(&r, &lo.dev);
    let kernel = d.reads + d.reads_merged;
    // A second of reads at full speed came before the 500.
    assert!(
        kernel > sampled + 500 + 100,
        "the kernel saw {kernel} reads: no ramp before the {sampled} + 500"
    );
    // The latency histogram holds the 500 alone.
    let counted: u64 = r["read"]["histogram"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b[1].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 500);
}

#[test]
fn zeros_are_written_as_zeros_with_a_warning() {
    let dir = scratch();
    let f = dir.path().join("z.dat");
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--size",
            "16MiB",
            "--data",
            "zeros",
            "--rw",
            "randwrite",
            "--ops",
            "500",
        ],
    );
    let contents = std::fs::read(&f).unwrap();
    assert_eq!(contents.len(), 16 << 20);
    assert_eq!(
        contents.iter().position(|&b| b != 0),
        None,
        "a byte that is not zero"
    );
    let zero: Vec<&Value> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "zero-data")
        .collect();
    assert_eq!(zero.len(), 1, "{}", r["warnings"]);
    assert!(
        zero[0]["message"].as_str().unwrap().contains("array"),
        "the warning says an array would flatter the figures: {}",
        zero[0]["message"]
    );
}

#[test]
fn the_seed_repeats_the_offsets_but_never_the_data() {
    // Two runs with --seed 5 write random data into files of zeros: the same 4 KiB blocks
    // are written (the offsets repeat), but no written block holds the same bytes.
    let dir = scratch();
    let write = |name: &str| {
        let f = dir.path().join(name);
        std::fs::write(&f, vec![0u8; 32 << 20]).unwrap();
        run_ok(
            dir.path(),
            &[
                "--target",
                f.to_str().unwrap(),
                "--rw",
                "randwrite",
                "--bs",
                "4k",
                "--ops",
                "1000",
                "--seed",
                "5",
                "--destroy-data",
            ],
        );
        std::fs::read(&f).unwrap()
    };
    let (a, b) = (write("a.dat"), write("b.dat"));
    let written = |d: &[u8]| -> Vec<usize> {
        d.chunks_exact(BLOCK)
            .enumerate()
            .filter(|(_, b)| b.iter().any(|&x| x != 0))
            .map(|(i, _)| i)
            .collect()
    };
    let (wa, wb) = (written(&a), written(&b));
    assert!(wa.len() > 900, "{} blocks written", wa.len());
    assert_eq!(wa, wb, "the same seed wrote other offsets");
    let same: Vec<usize> = wa
        .iter()
        .copied()
        .filter(|&i| a[i * BLOCK..(i + 1) * BLOCK] == b[i * BLOCK..(i + 1) * BLOCK])
        .collect();
    assert!(
        same.is_empty(),
        "blocks {same:?} hold the same data in both runs"
    );
}

#[test]
fn compare_takes_json_files_and_three_runs() {
    // Three simulated runs on 4 channels of constant 100 µs, at QD 1, 2 and 4: by hand,
    // min(qd, 4) / 100 µs = 10,000, 20,000 and 40,000 IOPS, each I/O 100 µs.
    let dir = scratch();
    let files: Vec<String> = [1, 2, 4]
        .iter()
        .map(|qd| {
            let f = dir.path().join(format!("qd{qd}.json"));
            let qd = qd.to_string();
            let (code, _, err) = dbio_in(
                dir.path(),
                &[
                    "run",
                    "--engine",
                    "sim",
                    "--sim",
                    "channels=4,service=100us,dist=const,bw=none",
                    "--rw",
                    "randread",
                    "--bs",
                    "4k",
                    "--qd",
                    &qd,
                    "--ops",
                    "20000",
                    "--no-store",
                    "-q",
                    "--json",
                    f.to_str().unwrap(),
                ],
            );
            assert_eq!(code, Some(0), "{err}");
            f.to_str().unwrap().to_string()
        })
        .collect();
    let (code, out, err) = dbio_in(dir.path(), &["compare", &files[0], &files[1], &files[2]]);
    assert_eq!(code, Some(0), "{err}");
    // One comparison per run after the first, each against the first.
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("A = ")).collect();
    assert_eq!(headers.len(), 2, "{out}");
    assert!(
        headers[0].contains("qd1.json")
            && headers[0].contains("B = ")
            && headers[0].contains("qd2.json")
    );
    assert!(headers[1].contains("qd1.json") && headers[1].contains("qd4.json"));
    let sections: Vec<&str> = out.split("A = ").skip(1).collect();
    for (section, (qd, iops)) in sections.iter().zip([(2, 20_000.0), (4, 40_000.0)]) {
        assert!(
            section.contains(&format!("job.qd: 1 → {qd}")),
            "the setting that differs: {section}"
        );
        let row: Vec<&str> = section
            .lines()
            .find(|l| l.starts_with("IOPS"))
            .unwrap()
            .split_whitespace()
            .collect();
        let n = |i: usize| row[i].parse::<f64>().unwrap();
        assert_eq!(
            (n(1), n(2), n(3)),
            (10_000.0, iops, iops / 10_000.0),
            "{section}"
        );
        let mean: Vec<&str> = section
            .lines()
            .find(|l| l.starts_with("mean µs"))
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(&mean[2..5], ["100.0", "100.0", "1.000"], "{section}");
    }
}

#[test]
fn history_since_7d_leaves_out_older_runs() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let dbs = db.to_str().unwrap();
    // One run stored by dbio now ...
    let (code, _, err) = dbio_in(
        dir.path(),
        &[
            "run", "--engine", "sim", "--ops", "1000", "--db", dbs, "--label", "now", "-q",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    // ... and the same result stored as if run 6 and 8 days ago.
    let store = dbio_store::Store::open(&db).unwrap();
    let json = store.json(1).unwrap().unwrap();
    let summary = store.summary(1).unwrap().unwrap();
    for (label, days) in [("six-days", 6u64), ("eight-days", 8)] {
        let at = SystemTime::now() - Duration::from_secs(days * 86_400);
        store
            .add(&dbio_store::NewEntry {
                kind: "run".into(),
                started_at: humantime::format_rfc3339_seconds(at).to_string(),
                label: Some(label.into()),
                profile: "oltp".into(),
                targets: "sim".into(),
                host: "test".into(),
                iops: 1.0,
                mb_s: 1.0,
                p99_us: 1.0,
                json: json.clone(),
                summary: summary.clone(),
            })
            .unwrap();
    }
    drop(store);
    let list = |args: &[&str]| {
        let mut all = vec!["history", "--db", dbs];
        all.extend_from_slice(args);
        let (code, out, err) = dbio_in(dir.path(), &all);
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let all = list(&[]);
    for label in ["now", "six-days", "eight-days"] {
        assert!(all.contains(label), "{label} missing: {all}");
    }
    let week = list(&["--since", "7d"]);
    assert!(week.contains("now") && week.contains("six-days"), "{week}");
    assert!(!week.contains("eight-days"), "{week}");
}

/// Runs `dbio ARGS`, sends Ctrl-C once a line matching `ready` has been printed, and returns
/// the exit status and everything printed on stdout.
fn interrupt_when(args: &[&str], ready: impl Fn(&str) -> bool) -> (Option<i32>, String) {
    let mut child = dbio_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut printed = Vec::new();
    let waited = Instant::now();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(300).saturating_sub(waited.elapsed()))
            .unwrap_or_else(|e| {
                let _ = child.kill();
                panic!("no line to interrupt after ({e}); printed: {printed:#?}")
            });
        let hit = ready(&line);
        printed.push(line);
        if hit {
            break;
        }
    }
    interrupt(&child);
    let out = wait_bounded(child, Duration::from_secs(120));
    reader.join().unwrap();
    printed.extend(rx.try_iter());
    (out.status.code(), printed.join("\n"))
}

/// A row of a sweep's table: a step value then figures.
fn is_row(line: &str) -> bool {
    line.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

#[test]
fn ctrl_c_during_a_sweep_prints_and_writes_the_steps_so_far() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    let json = dir.path().join("sweep.json");
    // Interrupted once the first step's row is printed: during the second step (or between
    // steps), long before the third.
    let (code, printed) = interrupt_when(
        &[
            "sweep",
            "oltp-read",
            "--target",
            f.to_str().unwrap(),
            "--vary",
            "qd=1,2,4",
            "--duration",
            "2s",
            "--no-store",
            "--json",
            json.to_str().unwrap(),
        ],
        is_row,
    );
    assert_eq!(code, Some(130), "{printed}");
    assert!(
        printed.contains("partial: the sweep stopped before its last step"),
        "{printed}"
    );
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(&schema("sweep-result.v1.json"), "an interrupted sweep", &s);
    assert_eq!(s["partial"], true);
    let steps = s["steps"].as_array().unwrap();
    assert!((1..=2).contains(&steps.len()), "{} steps", steps.len());
    assert_eq!(steps[0]["job"]["qd"], 1);
    assert_eq!(steps[0]["outcome"]["status"], "complete");
    assert!(ios(&steps[0], "read") > 0);
    let rows = printed.lines().filter(|l| is_row(l)).count();
    assert_eq!(rows, steps.len(), "a row per step kept: {printed}");
}

#[test]
fn ctrl_c_during_a_suite_prints_and_writes_the_parts_so_far() {
    let dir = scratch();
    let f = dir.path().join("d.dat");
    let json = dir.path().join("suite.json");
    // Interrupted once the first step of its first part (the oltp-read ramp) is printed.
    let (code, printed) = interrupt_when(
        &[
            "suite",
            "--quick",
            "--target",
            f.to_str().unwrap(),
            "--no-store",
            "--json",
            json.to_str().unwrap(),
        ],
        is_row,
    );
    assert_eq!(code, Some(130), "{printed}");
    assert!(printed.contains("== part 1/5"), "{printed}");
    assert!(!printed.contains("== part 3/5"), "{printed}");
    assert!(
        printed.contains("PARTIAL: the suite stopped before its end"),
        "{printed}"
    );
    // The ramp's first step was printed before the interruption, and is still there.
    let first = printed.lines().find(|l| is_row(l)).unwrap();
    assert!(first.trim_start().starts_with("1 "), "{first}");
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(&schema("suite-result.v1.json"), "an interrupted suite", &s);
    assert_eq!(s["partial"], true);
    assert!(s["scorecard"].is_array(), "{}", s["scorecard"]);
    // ... and so it is in the JSON: the ramp with the steps it ran, marked partial when it
    // was the part interrupted.
    let ramp = &s["oltp_read"];
    assert_eq!(ramp["steps"][0]["job"]["qd"], 1, "{ramp}");
    if !printed.contains("== part 2/5") {
        assert_eq!(ramp["partial"], true, "{ramp}");
    }
}
