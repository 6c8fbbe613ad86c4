//! `dbio capture --import` (issue 27): other tools' traces as dbio traces. fio's own iolog
//! of a run is held against fio's own JSON counts, and replayed by dbio request for request;
//! blktrace's per-CPU files (written here as the kernel writes them, since this kernel's
//! lockdown keeps blktrace itself from recording) are held against blkparse's own totals.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::process::Command;

fn summary(dir: &std::path::Path, trace: &str) -> Value {
    let (code, out, err) = dbio_in(dir, &["capture", "--summary", trace, "--json", "-"]);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_str(&out).unwrap()
}

/// `dbio replay t.trace ARGS --json r.json -q --no-store` in `dir`.
fn replay(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, Value, String) {
    let mut all = vec!["replay", "t.trace", "--json", "r.json", "-q", "--no-store"];
    all.extend(args);
    let (code, _, err) = dbio_in(dir, &all);
    let r = std::fs::read_to_string(dir.join("r.json"))
        .map_or(Value::Null, |j| serde_json::from_str(&j).unwrap());
    let _ = std::fs::remove_file(dir.join("r.json"));
    (code, r, err)
}

/// fio's write_iolog of 8 KiB random reads and writes (70/30) with an fsync every 16
/// writes on a 16 MiB file: fio's JSON result.
fn fio_iolog(fio: &std::path::Path, dir: &std::path::Path) -> Value {
    let out = Command::new(fio)
        .current_dir(dir)
        .args([
            "--name=load",
            "--filename=f.dat",
            "--size=16m",
            "--rw=randrw",
            "--rwmixread=70",
            "--bs=8k",
            "--direct=1",
            "--ioengine=psync",
            "--number_ios=600",
            "--fsync=16",
            "--write_iolog=job.iolog",
            "--output-format=json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice::<Value>(&out.stdout).unwrap()["jobs"][0].clone()
}

/// A replay's result made fio's reads and writes, and its bytes.
#[track_caller]
fn assert_fio_s(r: &Value, job: &Value) {
    for dir in ["read", "write"] {
        assert_eq!(
            ios(r, dir),
            job[dir]["total_ios"].as_u64().unwrap(),
            "{dir}"
        );
        assert_eq!(
            bytes(r, dir),
            job[dir]["io_bytes"].as_u64().unwrap(),
            "{dir}"
        );
    }
}

#[test]
fn fio_s_iolog_is_imported_and_replayed_request_for_request() {
    let test = "fio_s_iolog_is_imported_and_replayed_request_for_request";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    let job = fio_iolog(&fio, dir.path());
    let (code, _, err) = dbio_in(
        dir.path(),
        &["capture", "--import", "job.iolog", "--out", "t.trace", "-q"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("from 1 files of fio's iolog v3"), "{err}");
    let s = summary(dir.path(), "t.trace");
    assert_eq!(s["imported"]["from"], "fio iolog v3");
    assert_eq!(s["imported"]["latencies"], false);
    let d = &s["devices"][0];
    assert!(d["name"].as_str().unwrap().ends_with("f.dat"), "{d}");
    for (op, fio_op) in [("read", "read"), ("write", "write")] {
        assert_eq!(d[op]["ios"], job[fio_op]["total_ios"], "{op}: {d}");
        assert_eq!(d[op]["bytes"], job[fio_op]["io_bytes"], "{op}: {d}");
        assert!(d[op].get("latency_ns").is_none(), "no latency to show: {d}");
        assert!(d[op]["iops"].as_f64().unwrap() > 0.0, "v3 has times: {d}");
    }
    assert_eq!(d["flush"]["ios"], job["sync"]["total_ios"], "{d}");
    assert!(d.get("in_flight").is_none(), "{d}");
    // The imported trace replayed at its times onto a file dbio makes: the same requests.
    let (code, r, err) = replay(dir.path(), &["--target", "r.dat"]);
    assert_eq!(code, Some(0), "{err}");
    assert_fio_s(&r, &job);
}

#[test]
fn an_iolog_without_times_replays_only_as_fast_as_possible() {
    let test = "an_iolog_without_times_replays_only_as_fast_as_possible";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    let job = fio_iolog(&fio, dir.path());
    // The same log as version 2: the times dropped.
    let v3 = std::fs::read_to_string(dir.path().join("job.iolog")).unwrap();
    let mut v2 = String::from("fio version 2 iolog\n");
    for line in v3.lines().skip(1) {
        v2 += line.split_once(' ').unwrap().1;
        v2.push('\n');
    }
    std::fs::write(dir.path().join("v2.iolog"), v2).unwrap();
    let (code, out, err) = dbio_in(
        dir.path(),
        &["capture", "--import", "v2.iolog", "--out", "t.trace"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("which has no times"), "{out}");
    let s = summary(dir.path(), "t.trace");
    assert!(s["devices"][0]["read"].get("iops").is_none(), "{s}");
    let (code, _, err) = replay(dir.path(), &["--target", "r.dat"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("replay it with --as-fast-as-possible"),
        "{err}"
    );
    assert!(
        !dir.path().join("r.dat").exists(),
        "a refusal writes nothing"
    );
    let (code, r, err) = replay(dir.path(), &["--target", "r.dat", "--as-fast-as-possible"]);
    assert_eq!(code, Some(0), "{err}");
    assert_fio_s(&r, &job);
    assert_eq!(
        r["job"]["qd"], 1,
        "no latencies: one at a time, as fio replays"
    );
}

/// blktrace's action words: an action in the low bits, categories from bit 16.
const QUEUE: u32 = 1 | (1 << 20);
const ISSUE: u32 = 7 | (1 << 22);
const COMPLETE: u32 = 8 | (1 << 23);
const READ: u32 = 1 << 16;
const WRITE: u32 = 2 << 16;

/// One version 7 event, little-endian, on device 7:5.
fn event(time: u64, sector: u64, bytes: u32, action: u32, cpu: u32, pdu: &[u8]) -> Vec<u8> {
    let mut b = Vec::with_capacity(48 + pdu.len());
    b.extend((0x6561_7400u32 | 7).to_le_bytes());
    b.extend(0u32.to_le_bytes());
    b.extend(time.to_le_bytes());
    b.extend(sector.to_le_bytes());
    b.extend(bytes.to_le_bytes());
    b.extend(action.to_le_bytes());
    b.extend(4242u32.to_le_bytes());
    b.extend(((7u32 << 20) | 5).to_le_bytes());
    b.extend(cpu.to_le_bytes());
    b.extend(0u16.to_le_bytes());
    b.extend((pdu.len() as u16).to_le_bytes());
    b.extend(pdu);
    b
}

/// 3,000 requests (70 % 8 KiB reads, the rest 16 KiB writes, up to 2 ms each and many in
/// flight at once) as blktrace writes them: queue, issue and completion events on two
/// CPUs' files, each file in time order, each starting with a process note. Returns the
/// reads, the writes and the longest latency in ns.
fn write_blktrace(dir: &std::path::Path) -> (u64, u64, u64) {
    let mut cpus: [Vec<(u64, Vec<u8>)>; 2] = [Vec::new(), Vec::new()];
    for (cpu, c) in cpus.iter_mut().enumerate() {
        c.push((0, event(0, 0, 0, 1 << 26, cpu as u32, b"postgres\0")));
    }
    let (mut x, mut t, mut reads, mut writes, mut longest) =
        (88172645463325252u64, 1_000_000, 0, 0, 0);
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for i in 0..3000u64 {
        t += 1_000 + next() % 40_000;
        let lat = 20_000 + next() % 2_000_000;
        longest = longest.max(lat);
        let (dir, bytes) = if next() % 10 < 7 {
            (READ, 8192)
        } else {
            (WRITE, 16384)
        };
        if dir == READ {
            reads += 1
        } else {
            writes += 1
        }
        // Each request at its own place (the block layer pairs by device and sector).
        let sector = i * 64;
        let cpu = (next() % 2) as usize;
        cpus[cpu].push((
            t - 500,
            event(t - 500, sector, bytes, QUEUE | dir, cpu as u32, &[]),
        ));
        cpus[cpu].push((t, event(t, sector, bytes, ISSUE | dir, cpu as u32, &[])));
        let done = (next() % 2) as usize;
        cpus[done].push((
            t + lat,
            event(t + lat, sector, bytes, COMPLETE | dir, done as u32, &[]),
        ));
    }
    for (k, mut c) in cpus.into_iter().enumerate() {
        c.sort_by_key(|e| e.0);
        let bytes: Vec<u8> = c.into_iter().flat_map(|e| e.1).collect();
        std::fs::write(dir.join(format!("pg.blktrace.{k}")), bytes).unwrap();
    }
    (reads, writes, longest)
}

/// blkparse's total of `what` ("Reads Completed"): the count and the KiB.
fn blkparse_total(text: &str, what: &str) -> (u64, u64) {
    let total = &text[text.find("Total (").expect("a Total section")..];
    let at = total
        .find(what)
        .unwrap_or_else(|| panic!("{what} in {total}"));
    let figures: Vec<u64> = total[at + what.len()..]
        .split(['\t', '\n'])
        .next()
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    (figures[0], figures[1])
}

#[test]
fn blktrace_s_per_cpu_files_are_imported_as_blkparse_reads_them() {
    let test = "blktrace_s_per_cpu_files_are_imported_as_blkparse_reads_them";
    let Some(blkparse) = require_tool(test, "blkparse") else {
        return;
    };
    let dir = scratch();
    let (reads, writes, longest) = write_blktrace(dir.path());
    let parsed = Command::new(blkparse)
        .current_dir(dir.path())
        .args(["-i", "pg"])
        .output()
        .unwrap();
    assert!(parsed.status.success(), "{parsed:?}");
    let text = String::from_utf8_lossy(&parsed.stdout);
    let (r_done, r_kib) = blkparse_total(&text, "Reads Completed:");
    let (w_done, w_kib) = blkparse_total(&text, "Writes Completed:");
    assert_eq!(
        (r_done, w_done),
        (reads, writes),
        "blkparse reads the files as written"
    );
    // The prefix, as blkparse -i takes it.
    let (code, _, err) = dbio_in(
        dir.path(),
        &["capture", "--import", "pg", "--out", "t.trace", "-q"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("3000 requests on 1 devices from 2 files of blktrace"),
        "{err}"
    );
    let s = summary(dir.path(), "t.trace");
    let d = &s["devices"][0];
    assert_eq!(
        (d["name"].as_str(), d["dev"].as_str()),
        (Some("pg"), Some("7:5"))
    );
    assert_eq!(d["read"]["ios"], r_done);
    assert_eq!(d["read"]["bytes"], r_kib * 1024);
    assert_eq!(d["write"]["ios"], w_done);
    assert_eq!(d["write"]["bytes"], w_kib * 1024);
    // The latencies paired across the two CPUs' files: the longest within HDR's precision.
    let max = d["write"]["latency_ns"]["max"]
        .as_u64()
        .max(d["read"]["latency_ns"]["max"].as_u64())
        .unwrap();
    assert_near("longest latency", max as f64, longest as f64, 0.2);
    assert!(d["in_flight"]["max"].as_u64().unwrap() > 10, "{d}");
    assert_eq!(s["unmatched_completions"], 0);
    // A file cut part way through an event is read to its cut, and said.
    let cut = std::fs::read(dir.path().join("pg.blktrace.1")).unwrap();
    std::fs::write(dir.path().join("pg.blktrace.1"), &cut[..cut.len() - 20]).unwrap();
    let (code, _, err) = dbio_in(
        dir.path(),
        &["capture", "--import", "pg", "--out", "cut.trace", "-q"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("1 files cut part way through an event"),
        "{err}"
    );
}

#[test]
fn foreign_or_mixed_files_are_refused_and_leave_nothing() {
    let dir = scratch();
    std::fs::write(dir.path().join("notes.txt"), "hello\n").unwrap();
    std::fs::write(
        dir.path().join("empty.iolog"),
        "fio version 3 iolog\n1 f add\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("a.iolog"),
        "fio version 3 iolog\n1 f read 0 4096\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bad.iolog"),
        "fio version 3 iolog\n1 f read 7 4096\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("x.blktrace.0"),
        event(1, 0, 4096, ISSUE | READ, 0, &[]),
    )
    .unwrap();
    for (files, needle) in [
        (
            vec!["notes.txt"],
            "notes.txt: neither blktrace's binary output nor fio's iolog",
        ),
        (
            vec!["a.iolog", "x.blktrace.0"],
            "of another kind than a.iolog",
        ),
        (vec!["bad.iolog"], "bad.iolog: line 2: offset 7"),
        (
            vec!["missing"],
            "missing: no such file, nor missing.blktrace.0",
        ),
        (
            vec!["empty.iolog"],
            "empty.iolog: no read, write, trim or sync line",
        ),
        (vec!["x.blktrace.0"], "no request both issued and completed"),
    ] {
        let mut args = vec!["capture", "--import"];
        args.extend(&files);
        args.extend(["--out", "t.trace"]);
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(2), "{files:?}: {err}");
        assert!(err.contains(needle), "{files:?}: {err}");
        assert!(
            !dir.path().join("t.trace").exists(),
            "{files:?} left a trace"
        );
    }
}
