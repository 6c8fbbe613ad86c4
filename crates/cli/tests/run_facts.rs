//! The facts a result records about the host and its targets, against what the system says
//! when the test asks it itself: uname(1) and nproc(1) from coreutils, /proc/meminfo and
//! /proc/cpuinfo, and the sysfs queue attributes of a loop device of the test's own.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::process::Command;

/// The trimmed stdout of a command that must succeed.
fn output_of(cmd: &str, args: &[&str]) -> String {
    let out = Command::new(cmd).args(args).output().unwrap();
    assert!(out.status.success(), "{cmd} {args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn host_facts_are_what_the_system_says() {
    let dir = scratch();
    let r = run_ok(dir.path(), &["--engine", "sim", "--ops", "100"]);
    let h = &r["host"];
    assert_eq!(h["hostname"], output_of("uname", &["-n"]));
    assert_eq!(h["kernel"], output_of("uname", &["-r"]));
    assert_eq!(h["cpus"].to_string(), output_of("nproc", &[]));
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    assert_eq!(h["memory_bytes"].as_u64(), Some(kib * 1024));
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
    if let Some(model) = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|v| v.split_once(':'))
        .map(|(_, m)| m.trim())
    {
        assert_eq!(h["cpu_model"], model);
    }
}

#[test]
fn a_block_device_is_described_from_its_sysfs_queue() {
    let test = "a_block_device_is_described_from_its_sysfs_queue";
    let Some(lo) = LoopDev::attach(test, &vec![0u8; 16 << 20]) else {
        return;
    };
    let dir = scratch();
    let r = run_ok(
        dir.path(),
        &["--target", &lo.dev, "--rw", "randread", "--ops", "10"],
    );
    let t = &r["targets"][0];
    let queue = |attr: &str| {
        std::fs::read_to_string(format!("/sys/block/{}/queue/{attr}", lo.name))
            .unwrap()
            .trim()
            .to_string()
    };
    assert_eq!(t["path"], lo.dev.as_str());
    assert_eq!(t["kind"], "block");
    assert_eq!(t["device"], lo.name.as_str());
    assert_eq!(t["size_bytes"], 16 << 20);
    assert_eq!(
        t["logical_block_size"].to_string(),
        queue("logical_block_size")
    );
    assert_eq!(
        t["physical_block_size"].to_string(),
        queue("physical_block_size")
    );
    assert_eq!(t["nr_requests"].to_string(), queue("nr_requests"));
    assert_eq!(t["rotational"], queue("rotational") == "1");
    assert_eq!(t["write_cache"], queue("write_cache"));
    // The scheduler in use is the one in brackets ("none" when it is the only one).
    let sched = queue("scheduler");
    let in_use = sched
        .split_whitespace()
        .find_map(|s| s.strip_prefix('[').and_then(|s| s.strip_suffix(']')))
        .unwrap_or(sched.as_str());
    assert_eq!(t["scheduler"], in_use);
}
