//! An I/O error mid-run: the run ends cleanly, keeps its partial result, exits 1, and the
//! message names the operation, the device, the offset, the length and the OS error. The
//! error is real: the loop device is set read-only (`blockdev --setro`) once the kernel has
//! seen dbio's writes reach it. Waits are generous bounds on outcomes, not timings.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn a_write_error_ends_the_run_with_a_partial_result_and_exit_1() {
    let test = "a_write_error_ends_the_run_with_a_partial_result_and_exit_1";
    let Some(lo) = LoopDev::attach(test, &vec![0u8; 64 << 20]) else {
        return;
    };
    if require_tool(test, "blockdev").is_none() {
        return;
    }
    let dir = scratch();
    let json = dir.path().join("out.json");
    let child = dbio_command()
        .args([
            "run",
            "--target",
            &lo.dev,
            "--rw",
            "randwrite",
            "--destroy-data",
        ])
        .args(["--duration", "600s", "-q", "--json"])
        .arg(&json)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The run is writing once the kernel has counted writes on the device (dbio's signature
    // probe only reads).
    let before = DiskStats::of(&lo.name);
    let waited = Instant::now();
    while DiskStats::of(&lo.name).since(before).writes < 100 {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "no writes reached {} in 120 s",
            lo.dev
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let setro = Command::new("blockdev").args(["--setro", &lo.dev]).output();
    // Bounded: a run that ignored the error would write for 600 s.
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut child = child;
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let ended = child.try_wait().unwrap().is_some();
    if !ended {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap();
    let _ = Command::new("blockdev").args(["--setrw", &lo.dev]).status();
    let why = match setro {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(String::from_utf8_lossy(&o.stderr).trim().to_string()),
        Err(e) => Some(e.to_string()),
    };
    if let Some(why) = why {
        skip(test, &format!("blockdev --setro {} failed ({why})", lo.dev));
        return;
    }
    assert!(
        ended,
        "dbio still running 120 s after its device became read-only"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "io_error");
    let detail = r["outcome"]["detail"].as_str().unwrap();
    assert!(detail.starts_with("pwrite at offset "), "{detail}");
    assert!(
        detail.contains(&format!(" len 8192 on {}: ", lo.dev)),
        "{detail}"
    );
    assert!(detail.contains("os error"), "{detail}");
    assert!(stderr.contains(detail), "the error is printed: {stderr}");
    assert!(ios(&r, "write") > 0, "the writes before the error are kept");
    assert!(
        num(&r, "/measured_secs") < 600.0,
        "the run ended at the error, not at its duration"
    );
}
