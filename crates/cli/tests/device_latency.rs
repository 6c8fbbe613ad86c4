//! `dbio run --device-latency` (issue 27): the block layer's own view of a run. A loop
//! device over a file of the tests' FUSE file system that holds every read for 4 ms: the
//! device's time must be at least the 4 ms the file system took, the requests those the
//! run made, and the latency named as the device's. And the refusals.

#![forbid(unsafe_code)]

mod common;
mod faultfs;
use common::*;
use faultfs::{FaultMount, Faults, FuseLoop};
use std::time::Duration;

const SLOW: u64 = 4_000_000;

#[test]
fn a_slow_device_s_latency_is_named_as_the_device_s() {
    let test = "a_slow_device_s_latency_is_named_as_the_device_s";
    let Some(m) = FaultMount::new(test, pseudo_random(8 << 20, 3)) else {
        return;
    };
    let Some(lo) = FuseLoop::attach(test, &m.file) else {
        return;
    };
    let dir = scratch();
    let name = lo.dev.trim_start_matches("/dev/").to_string();
    m.fs.set(Faults {
        read_latency: Some(Duration::from_nanos(SLOW)),
        ..Faults::default()
    });
    let before = DiskStats::of(&name);
    let served = m.fs.log(|l| l.reads);
    let args = [
        "run",
        "--target",
        &lo.dev,
        "--rw",
        "randread",
        "--bs",
        "4k",
        "--qd",
        "4",
        "--duration",
        "2s",
        "--ramp",
        "0s",
        "--device-latency",
        "--json",
        "r.json",
        "--no-store",
    ];
    let (code, out, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    let text = out + &err;
    let counted = DiskStats::of(&name).since(before);
    let served = m.fs.log(|l| l.reads) - served;
    let d = &r["device_latency"];
    assert_eq!(d["devices"][0], name.as_str(), "{d}");
    let read = &d["read"];
    let n = read["requests"].as_u64().unwrap();
    // The requests the run made: as dbio counted them (at most a queue's worth in flight at
    // each edge of the window), and no more than the kernel's own counters saw.
    let ours = ios(&r, "read");
    assert!(n.abs_diff(ours) <= 4, "probe {n}, dbio {ours}: {d}");
    assert!(n <= counted.reads, "probe {n}, diskstats {}", counted.reads);
    assert!(
        u64::from(served as u32) >= n,
        "the file system served {served} reads"
    );
    // Every request took the file system's 4 ms at least (HDR keeps 3 digits).
    let min = read["device_ns"]["min"].as_u64().unwrap();
    assert!(min >= SLOW - SLOW / 500, "device min {min} ns: {d}");
    let (dev_p50, dbio_p50) = (
        read["device_ns"]["p50"].as_u64().unwrap(),
        num(&r, "/read/latency_ns/p50") as u64,
    );
    assert!(
        dev_p50 <= dbio_p50 + dbio_p50 / 500,
        "{dev_p50} > dbio's {dbio_p50}"
    );
    assert!(
        dev_p50 * 10 >= dbio_p50 * 9,
        "the device's {dev_p50} of dbio's {dbio_p50}"
    );
    // The kernel's queue in front of a device this slow: microseconds, not milliseconds.
    assert!(read["queue_ns"]["p50"].as_u64().unwrap() < 1_000_000, "{d}");
    assert!(read["queued"].as_u64().unwrap() * 10 >= n * 9, "{d}");
    assert_eq!(d["lost_events"], 0, "{d}");
    assert!(text.contains("where the time went"), "{text}");
    let share = text
        .split("the device's median is ")
        .nth(1)
        .and_then(|t| t.split(" %").next())
        .and_then(|p| p.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no share in: {text}"));
    assert!(share >= 90.0, "{text}");
    // The Markdown report carries the same table.
    let (code, md, err) = dbio_in(dir.path(), &["report", "r.json", "--md", "-"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(md.contains(&format!("| read | {n} |")), "{md}");
}

/// Two hosts' runs (two processes here, started together with --start-at) merged: each
/// host's block-layer figures stay in its row of the merged result and its report.
#[test]
fn a_merged_result_keeps_each_host_s_device_latency() {
    let dir = scratch();
    let start =
        humantime::format_rfc3339_nanos(std::time::SystemTime::now() + Duration::from_secs(2))
            .to_string();
    let spawn = |name: &str| {
        let target = dir.path().join(format!("{name}.dat"));
        dbio_command()
            .current_dir(dir.path())
            .args([
                "run",
                "--rw",
                "randread",
                "--bs",
                "4k",
                "--size",
                "16m",
                "--duration",
                "2s",
            ])
            .args([
                "--device-latency",
                "--start-at",
                &start,
                "--no-store",
                "-q",
                "--json",
            ])
            .arg(format!("{name}.json"))
            .arg("--target")
            .arg(target)
            .output()
            .unwrap()
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| spawn("a"));
        let b = spawn("b");
        (a.join().unwrap(), b)
    });
    for out in [&a, &b] {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (code, _, err) = dbio_in(
        dir.path(),
        &["merge", "a.json", "b.json", "--json", "m.json"],
    );
    assert_eq!(code, Some(0), "{err}");
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("m.json")).unwrap()).unwrap();
    let hosts = m["cluster"]["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 2);
    for h in hosts {
        assert!(
            h["device_latency"]["read"]["requests"].as_u64().unwrap() > 0,
            "{h}"
        );
    }
    let (code, md, err) = dbio_in(dir.path(), &["report", "m.json", "--md", "-"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(md.contains("where the time went, host by host"), "{md}");
}

#[test]
fn a_run_that_cannot_be_traced_is_refused_before_it_writes() {
    let dir = scratch();
    let shm = format!("/dev/shm/dbio-device-latency-{}.dat", std::process::id());
    let cases: [(&[&str], &str); 2] = [
        (
            &["--target", &shm, "--size", "1m", "--rw", "randwrite"],
            "a target in memory has no device to trace",
        ),
        (
            &["--engine", "sim", "--rw", "randread"],
            "not with the simulated device",
        ),
    ];
    for (args, needle) in cases {
        let all = [args, &["--device-latency", "--duration", "1s"]].concat();
        let ran = dbio_run(dir.path(), &all);
        assert_eq!(ran.code, Some(2), "{all:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(needle), "{all:?}: {}", ran.stderr);
        assert!(ran.json.is_none(), "{all:?} wrote a result");
    }
    assert!(!std::path::Path::new(&shm).exists(), "{shm} was made");
    // Without root: one line naming what is needed, status 2, nothing made.
    let target = dir.path().join("t.dat");
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_dbio"))
        .args([
            "run",
            "--rw",
            "randread",
            "--size",
            "1m",
            "--device-latency",
            "--no-store",
        ])
        .arg("--target")
        .arg(&target)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--device-latency needs root"), "{err}");
    assert!(!target.exists());
}
