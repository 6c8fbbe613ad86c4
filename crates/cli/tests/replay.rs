//! `dbio replay` (issue 27): a trace captured while fio loaded one loop device, replayed on
//! another, held against that device's own counters (/proc/diskstats); a replay at twice
//! the speed onto a smaller file under strace (every request folded inside it, as many as
//! the trace held beyond its end, never ahead of the schedule); and the refusals.

#![forbid(unsafe_code)]

mod common;
use common::capture::{capture_during, export, fio_on};
use common::*;
use serde_json::Value;

const MIB: usize = 1 << 20;

/// A trace `t.trace` in `dir` of fio's 1,024 8 KiB random reads and writes (70/30) on a
/// loop device of 64 MiB in memory, paced at 500 IOPS a direction: its summary (None after
/// a skip).
fn captured(test: &str, dir: &std::path::Path) -> Option<Value> {
    let fio = require_tool(test, "fio")?;
    let dev = LoopDev::attach_in_memory(test, &pseudo_random(64 * MIB, 11))?;
    let (load, out) = capture_during(dir, &dev.dev, &[], || {
        fio_on(
            &fio,
            &dev,
            &[
                "--rw=randrw",
                "--rwmixread=70",
                "--bs=8k",
                "--iodepth=4",
                "--io_size=8m",
                "--rate_iops=500",
                "--randrepeat=0",
                "--output-format=json",
            ],
        )
    });
    assert!(load.status.success(), "{load:?}");
    let fio: Value = serde_json::from_slice(&load.stdout).unwrap();
    let fio_ios = |dir: &str| fio["jobs"][0][dir]["total_ios"].as_u64().unwrap();
    let (fio_reads, fio_writes) = (fio_ios("read"), fio_ios("write"));
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let (code, s, err) = dbio_in(dir, &["capture", "--summary", "t.trace", "--json", "-"]);
    assert_eq!(code, Some(0), "{err}");
    let s: Value = serde_json::from_str(&s).unwrap();
    assert_eq!(s["requests"], 1024, "{s}");
    assert_eq!(
        (fio_reads, fio_writes),
        (
            s["devices"][0]["read"]["ios"].as_u64().unwrap(),
            s["devices"][0]["write"]["ios"].as_u64().unwrap()
        )
    );
    Some(s)
}

/// `dbio replay t.trace ARGS --json r.json -q` in `dir`: the status, the result, stderr.
fn replay(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let _ = std::fs::remove_file(dir.join("r.json"));
    let mut all = vec!["replay", "t.trace", "--json", "r.json", "-q", "--no-store"];
    all.extend(args);
    let (code, _, err) = dbio_in(dir, &all);
    let r = std::fs::read_to_string(dir.join("r.json"))
        .map_or(Value::Null, |j| serde_json::from_str(&j).unwrap());
    (code, r, err)
}

#[test]
fn a_replay_makes_the_trace_s_requests_on_another_device() {
    let test = "a_replay_makes_the_trace_s_requests_on_another_device";
    let dir = scratch();
    let Some(s) = captured(test, dir.path()) else {
        return;
    };
    let Some(target) = LoopDev::attach(test, &pseudo_random(64 * MIB, 12)) else {
        return;
    };
    // Writes on a device need --destroy-data: refused, nothing written.
    let before = DiskStats::of(&target.name);
    let (code, _, err) = replay(dir.path(), &["--target", &target.dev]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--destroy-data"), "{err}");
    assert_eq!(DiskStats::of(&target.name).since(before).writes, 0);

    let before = DiskStats::of(&target.name);
    let (code, r, err) = replay(dir.path(), &["--target", &target.dev, "--destroy-data"]);
    let d = DiskStats::of(&target.name).since(before);
    assert_eq!(code, Some(0), "{err}");
    assert_valid(&schema("run-result.v1.json"), "replay result", &r);
    let dev = &s["devices"][0];
    let (reads, writes) = (
        dev["read"]["ios"].as_u64().unwrap(),
        dev["write"]["ios"].as_u64().unwrap(),
    );
    // The device counted exactly the trace's writes, and its reads beside the 4 KiB blocks
    // that sampled the device's content before the replay (and a few probes of its start).
    assert_eq!(
        (d.writes, d.sectors_written),
        (writes, writes * 16),
        "{d:?}"
    );
    let sampled = sampled_blocks(&r, &target.dev);
    let extra = d.reads - reads - sampled;
    assert!(
        extra <= 8,
        "{extra} reads beyond the trace's {reads} and {sampled} sampled"
    );
    assert_eq!((ios(&r, "read"), ios(&r, "write")), (reads, writes));
    let rp = &r["replay"];
    assert_eq!(
        (rp["issued"].as_u64(), rp["requests"].as_u64()),
        (Some(1024), Some(1024))
    );
    assert_eq!(rp["folded"], 0);
    // Never ahead of the schedule: the replay lasts at least the captured span.
    let span = r["job"]["replay"]["span_ns"].as_f64().unwrap() / 1e9;
    assert!(span > 0.5, "fio's paced load spans {span} s");
    assert!(
        num(&r, "/measured_secs") >= span * 0.99,
        "{span} s captured"
    );
}

#[test]
fn twice_the_speed_onto_a_smaller_file_folds_every_request_inside_it() {
    let test = "twice_the_speed_onto_a_smaller_file_folds_every_request_inside_it";
    let dir = scratch();
    let Some(s) = captured(test, dir.path()) else {
        return;
    };
    // The trace's requests beyond 16 MiB, from its export as fio's iolog.
    assert_eq!(export(dir.path()).0, Some(0));
    let iolog = std::fs::read_to_string(dir.path().join("t.iolog")).unwrap();
    let beyond = iolog
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.len() == 5 && (f[2] == "read" || f[2] == "write"))
        .filter(|f| f[3].parse::<u64>().unwrap() + f[4].parse::<u64>().unwrap() > 16 * MIB as u64)
        .count() as u64;
    assert!(beyond > 600, "{beyond} of 1,024 beyond 16 MiB of 64");
    std::fs::write(dir.path().join("small.dat"), pseudo_random(16 * MIB, 13)).unwrap();
    let args = [
        "replay",
        "t.trace",
        "--target",
        "small.dat",
        "--destroy-data",
        "--engine",
        "psync",
        "--rate-scale",
        "2x",
        "--json",
        "r.json",
        "-q",
        "--no-store",
    ];
    let Some(_) = dbio_traced(test, dir.path(), &args) else {
        return;
    };
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    // The replay's own requests are the trace's 8 KiB ones (the content sample reads 4 KiB).
    let ios: Vec<Io> = strace_ios(dir.path(), "trace", "small.dat")
        .concat()
        .into_iter()
        .filter(|io| io.len == 8192)
        .collect();
    let dev = &s["devices"][0];
    let writes = dev["write"]["ios"].as_u64().unwrap();
    assert_eq!(ios.len(), 1024);
    assert_eq!(ios.iter().filter(|io| io.write).count() as u64, writes);
    assert!(ios
        .iter()
        .all(|io| io.offset + io.len <= 16 * MIB as u64 && io.offset % 4096 == 0));
    assert_eq!(r["replay"]["folded"].as_u64(), Some(beyond));
    let span = r["job"]["replay"]["span_ns"].as_f64().unwrap() / 1e9;
    assert_eq!(r["replay"]["speed"], 2.0);
    assert!(
        num(&r, "/measured_secs") >= span / 2.0 * 0.99,
        "{span} s captured"
    );
}

#[test]
fn a_profile_of_a_trace_runs_its_mix_and_a_sweep_multiplies_its_rate() {
    let test = "a_profile_of_a_trace_runs_its_mix_and_a_sweep_multiplies_its_rate";
    let dir = scratch();
    let Some(s) = captured(test, dir.path()) else {
        return;
    };
    let args = ["capture", "--profile", "p.toml", "--from", "t.trace"];
    let (code, _, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    let d = &s["devices"][0];
    let (reads, writes) = (
        d["read"]["ios"].as_u64().unwrap(),
        d["write"]["ios"].as_u64().unwrap(),
    );
    // A second profile over the first is refused: dbio does not overwrite one.
    assert_eq!(dbio_in(dir.path(), &args).0, Some(2));
    let profile = dir.path().join("p.toml");
    let profile = profile.to_str().unwrap();
    let r = run_ok(
        dir.path(),
        &["--profile", profile, "--engine", "sim", "--duration", "1s"],
    );
    let job = &r["job"];
    assert_eq!(job["rw"], "randrw");
    assert_eq!(
        job["read_pct"].as_u64(),
        Some((reads * 100 + 512) / 1024),
        "{reads} of 1,024"
    );
    assert_eq!(job["bs"][0]["size"], 8192);
    // fio's 1,024 requests, reads paced at 500 a second: about 700 a second overall.
    let rate = job["rate"].as_u64().unwrap();
    assert!(
        (500..=1100).contains(&rate),
        "{rate} IOPS from {reads} reads and {writes} writes"
    );
    let sweep = dir.path().join("s.json");
    let (code, _, err) = dbio_in(
        dir.path(),
        &[
            "sweep",
            "--profile",
            "p.toml",
            "--engine",
            "sim",
            "--vary",
            "rate=1x,2x",
            "--duration",
            "1s",
            "-q",
            "--no-store",
            "--json",
            sweep.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let sw: Value = serde_json::from_str(&std::fs::read_to_string(&sweep).unwrap()).unwrap();
    let rates: Vec<u64> = sw["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["job"]["rate"].as_u64().unwrap())
        .collect();
    assert_eq!(rates, [rate, rate * 2], "{sw}");
}

#[test]
fn what_a_replay_cannot_do_is_refused_in_one_line() {
    let dir = scratch();
    std::fs::write(dir.path().join("foreign.trace"), b"not a trace").unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["replay", "t.trace", "--rw", "randread"],
            "--rw does not apply to a replay",
        ),
        (&["replay", "foreign.trace"], "not a dbio trace"),
        (&["replay", "missing.trace"], "missing.trace"),
        (
            &["replay", "foreign.trace", "--speed", "fast"],
            "--speed fast: not a factor",
        ),
    ];
    for (args, needle) in cases {
        let (code, _, err) = dbio_in(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
