//! `dbio capture` (issue 27): what the block layer issued to a loop device, recorded through
//! tracefs while fio loads it, held against the device's own counters in /proc/diskstats;
//! Ctrl-C ending a capture with a valid trace; and the refusals (not root, not a block
//! device, an existing output, a foreign or cut trace).

#![forbid(unsafe_code)]

mod common;
use common::capture::{capture_during, export, fio_on, start_capture};
use common::*;
use serde_json::Value;
use std::process::Command;

const MIB: usize = 1 << 20;

/// A loop device of 64 MiB of random bytes in memory for `test` (None after a skip).
fn device(test: &str) -> Option<LoopDev> {
    LoopDev::attach_in_memory(test, &pseudo_random(64 * MIB, 7))
}

fn summary(dir: &std::path::Path, trace: &str) -> (Option<i32>, Value, String) {
    let (code, out, err) = dbio_in(dir, &["capture", "--summary", trace, "--json", "-"]);
    (code, serde_json::from_str(&out).unwrap_or(Value::Null), err)
}

/// A summary's device `d` made exactly the reads, writes and bytes the device counted.
#[track_caller]
fn assert_counted(d: &Value, counted: DiskStats) {
    assert_eq!(d["read"]["ios"], counted.reads, "{d}");
    assert_eq!(d["write"]["ios"], counted.writes, "{d}");
    assert_eq!(d["read"]["bytes"], counted.sectors_read * 512);
    assert_eq!(d["write"]["bytes"], counted.sectors_written * 512);
}

#[test]
fn a_capture_counts_what_the_device_s_own_counters_count() {
    let test = "a_capture_counts_what_the_device_s_own_counters_count";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let Some(dev) = device(test) else { return };
    let dir = scratch();
    let before = DiskStats::of(&dev.name);
    // 8 KiB random reads and writes, 70/30, 2,560 of them, then fio stops and so does the
    // capture (Ctrl-C).
    let (load, out) = capture_during(dir.path(), &dev.dev, &["--json", "s.json"], || {
        fio_on(
            &fio,
            &dev,
            &[
                "--rw=randrw",
                "--rwmixread=70",
                "--bs=8k",
                "--iodepth=8",
                "--io_size=20m",
                "--randrepeat=0",
            ],
        )
    });
    assert!(load.status.success(), "{load:?}");
    let after = DiskStats::of(&dev.name).since(before);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap()).unwrap();
    assert_valid(&schema("capture-summary.v1.json"), "capture summary", &s);
    assert_eq!(
        (&s["complete"], &s["interrupted"]),
        (&true.into(), &true.into())
    );
    assert_eq!(s["lost_events"], 0);
    let d = &s["devices"][0];
    assert_eq!(d["name"], dev.name.as_str());
    assert_counted(d, after);
    assert_eq!(
        after.reads + after.writes,
        2560,
        "fio's 20 MiB of 8 KiB I/Os"
    );
    assert_eq!(d["read"]["sizes"][0]["bytes"], 8192);
    assert!(d["in_flight"]["max"].as_u64().unwrap() <= 8, "{d}");
    // The device's latency: positive, and the median under the slowest.
    let lat = &d["read"]["latency_ns"];
    assert!(lat["p50"].as_u64().unwrap() > 0 && lat["p50"].as_u64() <= lat["max"].as_u64());
    let size = std::fs::metadata(dir.path().join("t.trace")).unwrap().len();
    assert!(size < 16 * 2560 + 1024, "{size} bytes for 2,560 requests");
    // Reading the trace again gives the same summary.
    let (code, again, err) = summary(dir.path(), "t.trace");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(again, s);
    // In the HTML page, each chart draws the points the summary holds.
    let (code, _, err) = dbio_in(
        dir.path(),
        &["capture", "--summary", "t.trace", "--html", "s.html"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert_html_charts(test, &dir.path().join("s.html"), d);
}

/// The capture page drawn offline in chromium: quiet, not blank, and its charts those of
/// the summary's device `d`, each with the points the summary holds.
fn assert_html_charts(test: &str, page: &std::path::Path, d: &Value) {
    use common::browser::{assert_not_blank, assert_quiet, charts, chromium, load};
    let Some(chrome) = chromium(test) else { return };
    let l = load(&chrome, page, None);
    assert_quiet("capture page", &l);
    assert_not_blank(&chrome, page);
    let len = |v: &Value| v.as_array().map_or(0, Vec::len);
    let series = len(&d["iops_series"]);
    let per_op = |key: &str| {
        vec![
            ("all".to_string(), len(&d[key])),
            ("reads".to_string(), len(&d["read"][key])),
            ("writes".to_string(), len(&d["write"][key])),
        ]
    };
    let sizes = |op: &str| {
        (
            (if op == "read" { "reads" } else { "writes" }).to_string(),
            len(&d[op]["sizes"]),
        )
    };
    let want = vec![
        ("capture-iops".to_string(), per_op("iops_series")),
        ("capture-mbs".to_string(), per_op("mb_s_series")),
        (
            "capture-sizes".to_string(),
            vec![sizes("read"), sizes("write")],
        ),
        (
            "capture-skew".to_string(),
            vec![
                ("requests".to_string(), len(&d["skew_curve"])),
                ("no skew".to_string(), 2),
            ],
        ),
        (
            "capture-inflight".to_string(),
            vec![("in flight".to_string(), len(&d["in_flight_counts"]))],
        ),
    ];
    assert_eq!(charts(&l.dom), want);
    assert!(series >= 1 && len(&d["read"]["iops_series"]) >= 1, "{d}");
    assert_eq!(len(&d["skew_curve"]), 14, "{d}");
    // Second by second, the directions add up to the device's requests.
    let sum = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .sum::<f64>()
    };
    let ops = sum(&d["read"]["iops_series"]) + sum(&d["write"]["iops_series"]);
    assert_eq!(ops, sum(&d["iops_series"]), "{d}");
}

#[test]
fn ctrl_c_ends_a_capture_with_a_whole_trace() {
    let test = "ctrl_c_ends_a_capture_with_a_whole_trace";
    let Some(dev) = device(test) else { return };
    let dir = scratch();
    // Reads the capture sees: 64 of 4 KiB, O_DIRECT.
    let (dd, out) = capture_during(dir.path(), &dev.dev, &[], || {
        Command::new("dd")
            .args([
                &format!("if={}", dev.dev),
                "of=/dev/null",
                "bs=4k",
                "count=64",
            ])
            .arg("iflag=direct")
            .output()
            .unwrap()
    });
    assert!(dd.status.success());
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let (code, s, err) = summary(dir.path(), "t.trace");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        (s["complete"].clone(), s["interrupted"].clone()),
        (true.into(), true.into())
    );
    assert_eq!(s["devices"][0]["read"]["ios"], 64, "{s}");
}

/// `--duration` ends a capture by itself: status 0, a whole trace that says it was not
/// interrupted, and a span of exactly the duration asked.
#[test]
fn a_capture_ends_by_itself_after_its_duration() {
    let test = "a_capture_ends_by_itself_after_its_duration";
    let Some(dev) = device(test) else { return };
    let dir = scratch();
    let cap = start_capture(dir.path(), &dev.dev, &["--duration", "1s"]);
    let out = cap.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let (code, s, err) = summary(dir.path(), "t.trace");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        (&s["complete"], &s["interrupted"]),
        (&true.into(), &false.into())
    );
    assert_eq!(s["seconds"], 1.0, "{s}");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let dir = scratch();
    let file = dir.path().join("plain");
    std::fs::write(&file, b"x").unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["capture", "--path", "/dev/shm", "--out", "a.trace"],
            "its file system is not on a block device",
        ),
        (
            &["capture", "--device", "plain", "--out", "a.trace"],
            "plain is not a block device",
        ),
        (&["capture", "--device", "/dev/null"], "--out FILE"),
        (
            &["capture", "--summary", "plain"],
            "plain: not a dbio trace",
        ),
        (
            &["capture", "--device", "/dev/loop0", "--out", "plain"],
            "plain exists",
        ),
    ];
    for (args, needle) in cases {
        let (code, out, err) = dbio_in(dir.path(), args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    assert!(!dir.path().join("a.trace").exists(), "nothing written");
    // Without root: one line, status 2.
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", DBIO])
        .args([
            "capture",
            "--device",
            "/dev/null",
            "--out",
            "/tmp/never.trace",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs root"), "{err}");
}

/// A trace on a file system that fills part way: the capture fails (status 1), the trace
/// keeps the requests written before, and its summary says it has no end.
#[test]
fn a_full_disk_keeps_the_trace_written_before_it() {
    let test = "a_full_disk_keeps_the_trace_written_before_it";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let Some(dev) = device(test) else { return };
    let dir = scratch();
    let small = dir.path().join("small");
    std::fs::create_dir(&small).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&small)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        skip(test, "cannot mount a small tmpfs (needs root)");
        return;
    }
    // Some 20,000 requests: far more than 64 KiB of trace holds.
    let (load, out) = capture_during(&small, &dev.dev, &[], || {
        fio_on(
            &fio,
            &dev,
            &["--rw=randread", "--bs=4k", "--iodepth=8", "--io_size=80m"],
        )
    });
    let (code, s, err) = summary(&small, "t.trace");
    let _ = Command::new("umount").arg(&small).status();
    assert!(load.status.success(), "{load:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("No space left on device"), "{said}");
    assert!(said.contains("keeps the"), "{said}");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(s["complete"], false);
    let n = s["requests"].as_u64().unwrap();
    assert!(n > 1000 && n < 20_480, "{n} requests kept");
}

/// A trace exported as fio's iolog v3 and replayed by fio on the same device: the device's
/// own counters during the replay are the trace's reads, writes and bytes.
#[test]
fn fio_replays_an_exported_trace_request_for_request() {
    let test = "fio_replays_an_exported_trace_request_for_request";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let Some(dev) = device(test) else { return };
    let dir = scratch();
    let (load, out) = capture_during(dir.path(), &dev.dev, &[], || {
        fio_on(
            &fio,
            &dev,
            &[
                "--rw=randrw",
                "--rwmixread=60",
                "--bs=8k",
                "--iodepth=4",
                "--io_size=4m",
            ],
        )
    });
    assert!(load.status.success(), "{load:?}");
    assert_eq!(out.status.code(), Some(130), "{out:?}");
    let (code, err) = export(dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("512 requests as fio's iolog v3"), "{err}");
    let (_, s, _) = summary(dir.path(), "t.trace");
    let before = DiskStats::of(&dev.name);
    let replay = Command::new(&fio)
        .current_dir(dir.path())
        .args([
            "--name=replay",
            "--read_iolog=t.iolog",
            "--ioengine=psync",
            "--direct=1",
        ])
        .output()
        .unwrap();
    let after = DiskStats::of(&dev.name).since(before);
    assert!(replay.status.success(), "{replay:?}");
    assert_counted(&s["devices"][0], after);
    // An export over an existing file is refused.
    let (code, err) = export(dir.path());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("does not overwrite"), "{err}");
}
