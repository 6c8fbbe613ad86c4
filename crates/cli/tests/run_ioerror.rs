//! An I/O error mid-run: the run ends cleanly, keeps its partial result, exits 1, and the
//! message names the operation, the device, the offset, the length and the OS error. The
//! error is real: the loop device is set read-only (`blockdev --setro`) while dbio writes.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::process::Command;
use std::time::Duration;

#[test]
fn a_write_error_ends_the_run_with_a_partial_result_and_exit_1() {
    let Some(lo) = LoopDev::attach("write error mid-run", &vec![0u8; 64 << 20]) else {
        return;
    };
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
        .args(["--duration", "20s", "-q", "--json"])
        .arg(&json)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let setro = Command::new("blockdev").args(["--setro", &lo.dev]).status();
    let out = child.wait_with_output().unwrap();
    let _ = Command::new("blockdev").args(["--setrw", &lo.dev]).status();
    if !setro.is_ok_and(|s| s.success()) {
        eprintln!("skipped: write error mid-run: blockdev --setro failed");
        return;
    }
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
        num(&r, "/measured_secs") < 10.0,
        "the run ended at the error, not after 20 s"
    );
}
