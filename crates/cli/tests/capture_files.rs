//! `--files DIR` (issue 27): a capture's requests attributed to the files of a data folder
//! through their extent maps, held against fio's own counts of the I/O it did on each file
//! (O_DIRECT, so each of fio's I/Os is one request), and `dbio advise TRACE --files DIR`
//! ranking those files from the device's own view.

#![forbid(unsafe_code)]

mod common;
use common::capture::capture_during;
use common::*;
use dbio_db::testkit::Ext4Loop;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// fio's count of `rw` I/Os of `bs` on `file`, O_DIRECT, `n` of them.
fn fio_on(fio: &Path, file: &Path, rw: &str, bs: &str, n: u64) -> u64 {
    let out = Command::new(fio)
        .args([
            "--name=load",
            "--ioengine=psync",
            "--direct=1",
            "--output-format=json",
        ])
        .arg(format!("--filename={}", file.display()))
        .args([
            format!("--rw={rw}"),
            format!("--bs={bs}"),
            format!("--number_ios={n}"),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let j: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dir = if rw.contains("read") { "read" } else { "write" };
    j["jobs"][0][dir]["total_ios"].as_u64().unwrap()
}

#[test]
fn a_capture_s_requests_land_on_the_files_fio_used() {
    let test = "a_capture_s_requests_land_on_the_files_fio_used";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let fs = match Ext4Loop::make(256 << 20) {
        Ok(f) => f,
        Err(why) => return skip(test, &why.to_string()),
    };
    let mnt = fs.path();
    let files = [
        ("base/16384/16390", 8 << 20),
        ("base/16384/16391", 8 << 20),
        ("pg_wal/000000010000000000000001", 4 << 20),
    ];
    for (k, (name, size)) in files.iter().enumerate() {
        let p = mnt.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, pseudo_random(*size, k as u64)).unwrap();
        std::fs::File::open(&p).unwrap().sync_all().unwrap();
    }
    let dir = scratch();
    let dev = format!("/dev/{}", fs.name());
    // The capture holds the three loads whole: it ends (Ctrl-C) once they are done.
    let ((hot, warm, log), out) = capture_during(dir.path(), &dev, &[], || {
        let hot = fio_on(&fio, &mnt.join(files[0].0), "randread", "4k", 600);
        let warm = fio_on(&fio, &mnt.join(files[1].0), "randread", "4k", 150);
        (
            hot,
            warm,
            fio_on(&fio, &mnt.join(files[2].0), "write", "8k", 100),
        )
    });
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let m = mnt.to_str().unwrap();
    let (code, json, err) = dbio_in(
        dir.path(),
        &[
            "capture",
            "--summary",
            "t.trace",
            "--files",
            m,
            "--json",
            "-",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let s: Value = serde_json::from_str(&json).unwrap();
    let f = &s["files"];
    let by = |name: &str| {
        f["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["path"] == name)
            .cloned()
    };
    let hot_f = by(files[0].0).unwrap_or_else(|| panic!("{f}"));
    assert_eq!(hot_f["reads"], hot, "{f}");
    assert_eq!(hot_f["bytes_read"], hot * 4096);
    assert_eq!(by(files[1].0).unwrap()["reads"], warm, "{f}");
    let wal = by(files[2].0).unwrap();
    assert_eq!(
        (wal["writes"].as_u64(), wal["bytes_written"].as_u64()),
        (Some(log), Some(log * 8192)),
        "{f}"
    );
    assert_eq!(wal["reads"], 0, "{f}");
    assert!(
        hot_f["read_ms"].as_f64().unwrap() > 0.0,
        "the device's time: {f}"
    );
    // The text names the files, busiest first.
    let (_, text, _) = dbio_in(
        dir.path(),
        &["capture", "--summary", "t.trace", "--files", m],
    );
    let at = |name: &str| {
        text.find(name)
            .unwrap_or_else(|| panic!("{name} in {text}"))
    };
    assert!(at(files[0].0) < at(files[1].0), "{text}");
    // The advice from the device's view: the log is a log, the hot file ranks first.
    let (code, json, err) = dbio_in(
        dir.path(),
        &[
            "advise",
            "t.trace",
            "--files",
            m,
            "--json",
            "-",
            "--no-store",
            "-q",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let a: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(a["source"]["system"], "capture", "{a}");
    let objects = a["objects"].as_array().unwrap();
    let object = |name: &str| objects.iter().find(|o| o["name"] == name).unwrap();
    assert_eq!(object(files[0].0)["reads"], hot, "{a}");
    assert_eq!(object(files[1].0)["reads"], warm, "{a}");
    // Ranked by the device time a move would save per GiB: of two files of one size, the
    // one whose reads took the device longer in all, by the capture's own figures.
    let ms = |name: &str| by(name).unwrap()["read_ms"].as_f64().unwrap();
    let first = if ms(files[0].0) >= ms(files[1].0) {
        files[0].0
    } else {
        files[1].0
    };
    assert_eq!(objects[0]["name"], first, "{a}");
    let wal = objects.iter().find(|o| o["name"] == files[2].0).unwrap();
    assert_eq!(wal["kind"], "log", "{a}");
    // Refusals: a folder on another device, a trace without --files, --files without one.
    for (args, needle) in [
        (
            vec!["capture", "--summary", "t.trace", "--files", "/"],
            "which the trace does not hold",
        ),
        (vec!["advise", "t.trace", "--no-store"], "give --files DIR"),
        (
            vec!["advise", "--diskstats", "--files", m, "--no-store"],
            "--files goes with one dbio trace",
        ),
    ] {
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
