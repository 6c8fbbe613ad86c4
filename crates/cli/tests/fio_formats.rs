//! dbio's results read by fio's own tools, and dbio's jobs run by fio. `--json-format fio`
//! is converted by fio's `fio_jsonplus_clat2csv` without error, and what it reads (IOPS,
//! per-bucket counts, percentiles) equals dbio's own JSON of the same run; `--as-fio` gives
//! a job file fio accepts and runs with the same direction, block size, pattern and region
//! (checked in fio's own I/O log). Speed agreement is bench/fio-roundtrip's, not a test's.
//! Under CI=true a missing fio or fio_jsonplus_clat2csv fails the test.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn run_in(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = dbio_in(dir, args);
    assert_eq!(code, Some(0), "dbio {args:?}: {err}");
    out
}

/// A JSON file (fio may put notes before its JSON in --output).
fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find('{').unwrap_or(0);
    serde_json::from_str(&text[start..]).unwrap()
}

/// The CSV fio_jsonplus_clat2csv wrote: per direction, (nsec, count, cumulative, fraction).
fn csv_rows(path: &Path, dir_index: usize) -> Vec<(u64, u64, u64, f64)> {
    let text = std::fs::read_to_string(path).unwrap();
    // Columns: nsec, then read/write/trim × slat/clat/lat × count, cumulative, percentile.
    let col = 1 + (dir_index * 3 + 1) * 3;
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').map(str::trim).collect();
            let count = f.get(col)?.parse().ok()?;
            Some((
                f[0].parse().ok()?,
                count,
                f[col + 1].parse().ok()?,
                f[col + 2].parse().ok()?,
            ))
        })
        .collect()
}

#[test]
fn fio_json_plus_is_read_by_fios_own_tool_as_dbio_measured_it() {
    let test = "fio_json_plus_is_read_by_fios_own_tool_as_dbio_measured_it";
    let Some(tool) = require_tool(test, "fio_jsonplus_clat2csv") else {
        return;
    };
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    // The simulated device: a run with real latency spreads, the same for every seed.
    run_in(
        dir.path(),
        &[
            "run",
            "--engine",
            "sim",
            "--rw",
            "randrw",
            "--mix",
            "70",
            "--bs",
            "8k",
            "--qd",
            "16",
            "--ops",
            "30000",
            "--db",
            db,
            "--label",
            "jsonplus",
            "--json-format",
            "fio",
            "--json",
            "fio.json",
            "-q",
        ],
    );
    run_in(
        dir.path(),
        &["export", "jsonplus", "--db", db, "--json", "dbio.json"],
    );
    let fio = json(&dir.path().join("fio.json"));
    let ours = json(&dir.path().join("dbio.json"));
    let out = Command::new(&tool)
        .current_dir(dir.path())
        .args(["fio.json", "out.csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = Command::new(&tool)
        .current_dir(dir.path())
        .args(["fio.json", "out.csv", "--validate"])
        .output()
        .unwrap();
    assert!(check.status.success() && String::from_utf8_lossy(&check.stdout).contains("validated"));
    for (i, name) in ["read", "write"].iter().enumerate() {
        let d = &ours[*name];
        let f = &fio["jobs"][0][*name];
        assert_eq!(f["iops"], d["iops"], "{name} IOPS");
        assert_eq!(f["total_ios"], d["ios"], "{name} I/Os");
        assert_eq!(f["io_bytes"], d["bytes"], "{name} bytes");
        let rows = csv_rows(&dir.path().join("out_job0.csv"), i);
        // Every bucket of dbio's histogram, in order, with its count; fio's key is the
        // bucket's highest value (within the histogram's 3 significant digits of its lowest).
        let buckets = d["histogram"]["buckets"].as_array().unwrap();
        assert_eq!(rows.len(), buckets.len(), "{name} buckets");
        for ((nsec, count, _, _), b) in rows.iter().zip(buckets) {
            let (low, n) = (b[0].as_u64().unwrap(), b[1].as_u64().unwrap());
            assert_eq!(*count, n, "{name} bucket at {low} ns");
            assert!(
                *nsec >= low && (*nsec - low) as f64 <= low as f64 * 1e-3 + 1.0,
                "{name}: {nsec} vs {low}"
            );
        }
        assert_eq!(rows.last().unwrap().2, d["ios"].as_u64().unwrap());
        // dbio's percentiles are the first row whose cumulative share reaches them.
        for (key, q, fio_key) in [
            ("p50", 0.5, "50.000000"),
            ("p90", 0.9, "90.000000"),
            ("p99", 0.99, "99.000000"),
            ("p99_9", 0.999, "99.900000"),
        ] {
            let want = d["latency_ns"][key].as_u64().unwrap();
            let at = rows
                .iter()
                .position(|r| r.0 == want)
                .unwrap_or_else(|| panic!("{name} {key} {want} ns is no bucket"));
            assert!(
                rows[at].3 >= q - 1e-12,
                "{name} {key}: row reaches {} < {q}",
                rows[at].3
            );
            assert!(
                at == 0 || rows[at - 1].3 < q,
                "{name} {key}: an earlier row reaches {q}"
            );
            assert_eq!(
                f["clat_ns"]["percentile"][fio_key].as_u64(),
                Some(want),
                "{name} {key}"
            );
        }
    }
}

/// fio_jsonplus_clat2csv's CSVs of `json` (in `dir`, from `out.csv`), validated by the tool.
fn clat2csv(tool: &Path, dir: &Path, json: &str) {
    for extra in [None, Some("--validate")] {
        let out = Command::new(tool)
            .current_dir(dir)
            .args([json, "out.csv"])
            .args(extra)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && (extra.is_none() || said.contains("validated")),
            "{said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A run of 3 threads (fio's numjobs=3 without group_reporting) in fio's JSON: an entry
/// per thread, all named as the job, whose I/Os add up to dbio's own JSON of the run and
/// are each thread's; fio's own tool rebuilds each entry's percentiles from its bins.
#[test]
fn three_threads_are_three_fio_entries_that_add_up_to_the_run() {
    let test = "three_threads_are_three_fio_entries_that_add_up_to_the_run";
    let Some(tool) = require_tool(test, "fio_jsonplus_clat2csv") else {
        return;
    };
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    let run = "run --engine sim --rw randrw --mix 70 --bs 8k --qd 4 --threads 3 --ops 30000 \
               --seed 3 --label clones --json-format fio --json fio.json -q --db";
    let mut args: Vec<&str> = run.split_whitespace().collect();
    args.push(db);
    run_in(dir.path(), &args);
    run_in(
        dir.path(),
        &["export", "clones", "--db", db, "--json", "dbio.json"],
    );
    let (fio, ours) = (
        json(&dir.path().join("fio.json")),
        json(&dir.path().join("dbio.json")),
    );
    clat2csv(&tool, dir.path(), "fio.json");
    let jobs = fio["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 3);
    for (i, name) in ["read", "write"].iter().enumerate() {
        let ios = |j: &Value| j[*name]["total_ios"].as_u64().unwrap();
        assert_eq!(
            jobs.iter().map(ios).sum::<u64>(),
            ours[*name]["ios"].as_u64().unwrap(),
            "{name}: the entries add up to the run"
        );
        for (k, j) in jobs.iter().enumerate() {
            assert_eq!(j["jobname"], "clones");
            assert_eq!(j["job options"]["numjobs"], "3");
            assert_eq!(ios(j), ours["threads"][k][*name]["ios"].as_u64().unwrap());
            let rows = csv_rows(&dir.path().join(format!("out_job{k}.csv")), i);
            assert_eq!(rows.last().unwrap().2, ios(j), "{name} of entry {k}");
            let pct = j[*name]["clat_ns"]["percentile"].as_object().unwrap();
            // By percentile (serde_json keeps the keys in string order, "10.000000" first).
            let mut by_pct: Vec<(f64, u64)> = pct
                .iter()
                .map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap()))
                .collect();
            by_pct.sort_by(|a, b| a.0.total_cmp(&b.0));
            let values: Vec<u64> = by_pct.iter().map(|p| p.1).collect();
            assert_eq!(values.len(), 17, "fio's default list");
            assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
            // Each percentile is the first row of fio's CSV whose cumulative share reaches it.
            for (key, v) in pct {
                let q: f64 = key.parse::<f64>().unwrap() / 100.0;
                let at = rows.iter().position(|r| r.3 >= q - 1e-12).unwrap();
                assert_eq!(rows[at].0, v.as_u64().unwrap(), "{name} {key} of entry {k}");
            }
            let (min, max) = (rows[0].0, rows.last().unwrap().0);
            assert!(j[*name]["clat_ns"]["min"].as_u64().unwrap() <= min);
            assert!(j[*name]["clat_ns"]["max"].as_u64().unwrap() >= max * 999 / 1000);
        }
    }
    // The threads differ, so each entry is its own thread's, not the run's split in three.
    assert_ne!(jobs[0]["read"]["clat_ns"], jobs[1]["read"]["clat_ns"]);
    // fio-group: one entry for the run.
    args.iter_mut()
        .filter(|a| **a == "fio")
        .for_each(|a| *a = "fio-group");
    run_in(dir.path(), &args);
    let fio = json(&dir.path().join("fio.json"));
    assert_eq!(fio["jobs"].as_array().unwrap().len(), 1);
    assert_eq!(fio["jobs"][0]["read"]["total_ios"], ours["read"]["ios"]);
}

/// Writes dbio's job as a fio job file logging its I/Os, runs fio, and returns fio's JSON
/// and the I/Os of its log (version 2 or 3, with times) as (direction, offset, length).
fn fio_runs_the_job(dir: &Path, fio: &Path, flags: &[&str]) -> (Value, Vec<(String, u64, u64)>) {
    let mut args = vec!["run"];
    args.extend_from_slice(flags);
    args.push("--as-fio");
    let mut job = run_in(dir, &args);
    job.push_str("write_iolog=io.log\n");
    std::fs::write(dir.join("job.fio"), job).unwrap();
    // fio appends to an existing log.
    let _ = std::fs::remove_file(dir.join("io.log"));
    let out = Command::new(fio)
        .current_dir(dir)
        .args(["job.fio", "--output-format=json", "--output=fio.json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "fio refused the job: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(dir.join("io.log")).unwrap();
    let ios = log
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f.as_slice() {
                [.., _, op @ ("read" | "write"), off, len] => {
                    Some((op.to_string(), off.parse().ok()?, len.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect();
    (json(&dir.join("fio.json")), ios)
}

#[test]
fn fio_runs_the_as_fio_job_with_dbios_direction_size_pattern_and_region() {
    let test = "fio_runs_the_as_fio_job_with_dbios_direction_size_pattern_and_region";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    let d = dir.path();
    // dbio creates and fills the file; both tools then read the same region of it.
    let flags = [
        "--rw", "randread", "--bs", "8k", "--qd", "4", "--ops", "2000", "--target", "t.dat",
        "--size", "16m", "--offset", "1m", "--range", "8m", "--engine", "psync",
    ];
    let mut ours = vec!["run", "--no-store", "--json", "dbio.json", "-q"];
    ours.extend_from_slice(&flags);
    run_in(d, &ours);
    let dbio = json(&d.join("dbio.json"));
    let (f, ios) = fio_runs_the_job(d, &fio, &flags);
    let job = &f["jobs"][0];
    assert_eq!(job["read"]["total_ios"], dbio["read"]["ios"]);
    assert_eq!(job["read"]["io_bytes"], dbio["read"]["bytes"]);
    assert_eq!(job["write"]["total_ios"], 0);
    assert!(dbio["write"].is_null());
    assert_eq!(ios.len(), 2000);
    let (lo, hi) = (1u64 << 20, 9u64 << 20);
    for (op, off, len) in &ios {
        assert_eq!((op.as_str(), *len), ("read", 8192));
        assert!(
            *off >= lo && off + len <= hi && off % 8192 == 0,
            "offset {off} outside dbio's region"
        );
    }
    // Random: the offsets are not in order, and spread over the region.
    let ascending = ios.windows(2).filter(|w| w[1].1 > w[0].1).count();
    assert!(ascending < ios.len() * 3 / 4, "fio's reads look sequential");
    let spread = ios.iter().map(|i| i.1).max().unwrap() - ios.iter().map(|i| i.1).min().unwrap();
    assert!(spread > (hi - lo) / 2);

    // Sequential writes of 64 KiB, two threads: each walks its own half, in order.
    let flags = [
        "--rw",
        "write",
        "--bs",
        "64k",
        "--qd",
        "2",
        "--threads",
        "2",
        "--ops",
        "128",
        "--target",
        "t.dat",
        "--range",
        "16m",
        "--engine",
        "psync",
    ];
    let mut ours = vec!["run", "--no-store", "--json", "dbio.json", "-q"];
    ours.extend_from_slice(&flags);
    run_in(d, &ours);
    let dbio = json(&d.join("dbio.json"));
    let (f, ios) = fio_runs_the_job(d, &fio, &flags);
    assert_eq!(f["jobs"][0]["write"]["total_ios"], dbio["write"]["ios"]);
    assert_eq!(ios.len(), 128);
    assert!(ios
        .iter()
        .all(|(op, _, len)| op == "write" && *len == 65536));
    let (first, second): (Vec<_>, Vec<_>) = ios.iter().map(|i| i.1).partition(|o| *o < 8 << 20);
    for half in [&first, &second] {
        let mut sorted = half.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), half.len(), "each block written once");
        assert!(
            sorted.windows(2).all(|w| w[1] - w[0] == 65536),
            "contiguous: {sorted:?}"
        );
    }
    assert_eq!((first.len(), second.len()), (64, 64));
}

#[test]
fn as_fio_refuses_what_fio_cannot_run_the_same_way() {
    let dir = scratch();
    let (code, _, err) = dbio_in(dir.path(), &["run", "--engine", "sim", "--as-fio"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--engine sim"), "{err}");
    let (code, _, err) = dbio_in(dir.path(), &["run", "--burst", "2s/10s", "--as-fio"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--burst"), "{err}");
    let (code, _, err) = dbio_in(dir.path(), &["run", "--json-format", "fio"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--json"), "{err}");
    // Not dropped in silence: fio's verify= is another check.
    let (code, _, err) = dbio_in(
        dir.path(),
        &["run", "--rw", "randrw", "--verify", "--as-fio"],
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("--verify"), "{err}");
}

/// An open-loop run's job submits at the rate whatever the device does (fio's offload), with
/// dbio's arrivals, and its header points at fio's total latency, not clat; fio parses it and
/// `dbio fio` reads it back to the same rate.
#[test]
fn as_fio_of_an_open_loop_run_offloads_and_names_the_latency_to_compare() {
    let dir = scratch();
    let job = run_in(
        dir.path(),
        &["run", "--rate", "500", "--arrivals", "poisson", "--as-fio"],
    );
    for line in [
        "rate_iops=500",
        "io_submit_mode=offload",
        "rate_process=poisson",
    ] {
        assert!(job.lines().any(|l| l == line), "{line} missing:\n{job}");
    }
    let header: Vec<&str> = job.lines().take_while(|l| l.starts_with(';')).collect();
    assert!(
        header.iter().any(|l| l.contains("(lat, not clat)")),
        "{job}"
    );
    assert!(
        !header.iter().any(|l| l.contains("as dbio's latency")),
        "{job}"
    );
    let closed = run_in(dir.path(), &["run", "--as-fio"]);
    assert!(
        closed.contains("clat is submission to completion"),
        "{closed}"
    );
    assert!(!closed.contains("io_submit_mode"), "{closed}");
    std::fs::write(dir.path().join("rate.fio"), &job).unwrap();
    let back = run_in(dir.path(), &["fio", "rate.fio", "--dry-run"]);
    assert!(back.contains("--rate 500"), "{back}");
    assert!(back.contains("--arrivals poisson"), "{back}");
    if let Some(fio) = require_tool("as_fio_of_an_open_loop_run", "fio") {
        let out = Command::new(fio)
            .current_dir(dir.path())
            .args(["--parse-only", "rate.fio"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn sqlio_and_diskspd_layouts_carry_the_runs_figures() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    let base = [
        "run",
        "--engine",
        "sim",
        "--rw",
        "randread",
        "--bs",
        "64k",
        "--qd",
        "8",
        "--threads",
        "2",
        "--ops",
        "20000",
        "--db",
        db,
    ];
    let mut a = base.to_vec();
    a.extend(["--label", "sq", "--output-format", "sqlio"]);
    let sqlio = run_in(dir.path(), &a);
    run_in(
        dir.path(),
        &["export", "sq", "--db", db, "--json", "sq.json"],
    );
    let r = json(&dir.path().join("sq.json"));
    let read = &r["read"];
    assert!(sqlio.starts_with("sqlio v1.5.SG\n"), "{sqlio}");
    assert!(sqlio.contains("2 threads reading for"));
    assert!(sqlio.contains("\tusing 64KB random IOs"));
    assert!(sqlio.contains("enabling multiple I/Os per thread with 8 outstanding"));
    assert!(sqlio.contains(&format!("IOs/sec: {:8.2}", read["iops"].as_f64().unwrap())));
    assert!(sqlio.contains(&format!("MBs/sec: {:8.2}", read["mib_s"].as_f64().unwrap())));
    assert!(sqlio.contains("ms: 0  1  2  3") && sqlio.contains("23 24+"));
    // The histogram row: 25 shares that round to about 100 %.
    let row = sqlio.lines().find(|l| l.starts_with("%: ")).unwrap();
    let shares: Vec<u64> = row[3..]
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(shares.len(), 25);
    assert!((95..=105).contains(&shares.iter().sum::<u64>()), "{row}");

    let mut a = base.to_vec();
    a.extend(["--label", "ds", "--output-format", "diskspd"]);
    let ds = run_in(dir.path(), &a);
    run_in(
        dir.path(),
        &["export", "ds", "--db", db, "--json", "ds.json"],
    );
    let r = json(&dir.path().join("ds.json"));
    let total = ds.lines().find(|l| l.starts_with("total:")).unwrap();
    let f: Vec<&str> = total.split('|').map(str::trim).collect();
    assert_eq!(
        f[0].trim_start_matches("total:").trim(),
        r["read"]["bytes"].to_string()
    );
    assert_eq!(f[1], r["read"]["ios"].to_string());
    let p99 = ds
        .lines()
        .find(|l| l.trim_start().starts_with("99th |"))
        .unwrap();
    let ms: f64 = p99.split('|').nth(1).unwrap().trim().parse().unwrap();
    assert_eq!(
        format!("{ms:.3}"),
        format!(
            "{:.3}",
            r["read"]["latency_ns"]["p99"].as_f64().unwrap() / 1e6
        )
    );
    assert!(ds.contains("%-ile |  Read (ms) | Write (ms) | Total (ms)"));
}

/// A sequential run of several threads, each walking its own slice, goes to fio as
/// offset_increment and comes back from `dbio fio` as the same run; an increment dbio cannot
/// walk the same way is refused by name.
#[test]
fn as_fio_slices_read_back_as_the_same_run_and_other_increments_are_refused() {
    let dir = scratch();
    let flags = [
        "--rw",
        "read",
        "--bs",
        "64k",
        "--qd",
        "2",
        "--threads",
        "4",
        "--duration",
        "2s",
        "--size",
        "64m",
        "--seed",
        "7",
        "--target",
        "rt.dat",
    ];
    let mut args = vec!["run"];
    args.extend_from_slice(&flags);
    args.push("--as-fio");
    let job = run_in(dir.path(), &args);
    assert!(job.lines().any(|l| l == "offset_increment=16m"), "{job}");
    std::fs::write(dir.path().join("rt.fio"), &job).unwrap();
    let back = run_in(dir.path(), &["fio", "rt.fio", "--dry-run"]);
    let line = back.lines().find(|l| l.starts_with("dbio run ")).unwrap();
    for pair in flags.chunks(2) {
        assert!(
            line.contains(&pair.join(" ")),
            "{} missing from {line}",
            pair.join(" ")
        );
    }
    assert!(!back.contains("numjobs with sequential I/O"), "{back}");
    for (rw, inc, why) in [
        ("randread", "16m", "random clones"),
        ("read", "8m", "other than the job's size"),
    ] {
        let text = format!("[j]\nfilename=f.dat\nrw={rw}\nsize=16m\nnumjobs=4\noffset_increment={inc}\nruntime=1\n");
        std::fs::write(dir.path().join("inc.fio"), text).unwrap();
        let (code, _, err) = dbio_in(dir.path(), &["fio", "inc.fio", "--dry-run"]);
        assert_eq!(code, Some(2), "{rw} {inc}: {err}");
        assert!(
            err.contains("offset_increment") && err.contains(why),
            "{err}"
        );
    }
}
