//! `dbio path` holding runs whose limit is known by construction: a simulated device behind
//! a link capped just under a 4 Gb FC switch port, and a queue depth too low for the device.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

fn seed003() -> String {
    format!(
        "{}/../analyze/tests/fixtures/seed003-4g-switch.toml",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn a_run_at_the_switch_ports_ceiling_is_limited_by_it() {
    let dir = scratch();
    let run = dir.path().join("r.json");
    // 64 deep on 64 channels of 1 ms, behind 390 MB/s: bandwidth-bound at 390 MB/s.
    let (code, _, err) = dbio_in(
        dir.path(),
        &[
            "run",
            "--engine",
            "sim",
            "--sim",
            "channels=64,service=1ms,dist=const,bw=390MB/s",
            "--rw",
            "read",
            "--bs",
            "64k",
            "--qd",
            "64",
            "--duration",
            "10s",
            "--json",
            run.to_str().unwrap(),
            "-q",
            "--no-store",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = dbio_in(
        dir.path(),
        &[
            "path",
            &seed003(),
            "--run",
            run.to_str().unwrap(),
            "--json",
            "-",
        ],
    );
    assert_eq!(code, Some(0));
    let p: Value = serde_json::from_str(&out).unwrap();
    assert_valid(&schema("path-result.v1.json"), "path", &p);
    let v = p["run"]["verdict"].as_str().unwrap();
    // 390 MB/s (a hair under, as the link is never quite full) of 400: 97 %.
    assert!(
        v.starts_with("limited by 4 Gb switch port: 390 MB/s"),
        "{v}"
    );
    assert!(v.contains("is 97 % of its 400 MB/s"), "{v}");
}

#[test]
fn a_queue_depth_too_low_for_the_device_is_named() {
    let dir = scratch();
    let run = dir.path().join("r.json");
    let (code, _, err) = dbio_in(
        dir.path(),
        &[
            "run",
            "--engine",
            "sim",
            "--sim",
            "channels=32,service=100us,dist=const,bw=none",
            "--rw",
            "randread",
            "--bs",
            "8k",
            "--qd",
            "1",
            "--duration",
            "5s",
            "--json",
            run.to_str().unwrap(),
            "-q",
            "--no-store",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let topo = dir.path().join("t.toml");
    std::fs::write(&topo, "[workload]\nio_size = \"8k\"\n[[hop]]\nname = \"flash array\"\nkind = \"array\"\niops = 320000\n").unwrap();
    let (code, out, _) = dbio_in(
        dir.path(),
        &[
            "path",
            topo.to_str().unwrap(),
            "--run",
            run.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0));
    // 1 outstanding I/O of 100 µs allows 10,000 IOPS (Little); the array takes 320,000:
    // 32 outstanding would reach it.
    assert!(
        out.contains("not limited by the modelled path: its busiest hop, flash array, is at 3 %"),
        "{out}"
    );
    assert!(
        out.contains("queue depth too low: 1 outstanding I/Os at 100 µs each allow 10000 IOPS"),
        "{out}"
    );
    assert!(out.contains("about 32 outstanding"), "{out}");
}

#[test]
fn the_text_names_the_weakest_hop_and_the_ceilings_by_io_size() {
    let dir = scratch();
    let (code, out, _) = dbio_in(dir.path(), &["path", &seed003(), "--io-size", "8k,64k,1m"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("the path's ceiling: 400 MB/s, 6104 IOPS, set by 4 Gb switch port"),
        "{out}"
    );
    assert!(out.contains("WEAKEST"), "{out}");
    let (code, _, err) = dbio_in(dir.path(), &["path", "nosuch.toml"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("dbio path: nosuch.toml:"), "{err}");
}

#[test]
fn a_named_pipe_given_as_a_document_is_refused_not_waited_on() {
    let dir = scratch();
    let fifo = make_fifo(dir.path(), "fifo1");
    let f = fifo.to_str().unwrap();
    for args in [
        vec!["path", f],
        vec![
            "run",
            "--profile",
            f,
            "--engine",
            "sim",
            "--ops",
            "10",
            "--no-store",
        ],
        vec![
            "suite",
            "--quick",
            "--engine",
            "sim",
            "--thresholds",
            f,
            "--no-store",
        ],
    ] {
        // Were the pipe opened, dbio would block until a writer came: `timeout` ends it.
        let out = std::process::Command::new("timeout")
            .arg("20")
            .arg(DBIO)
            .args(&args)
            .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
            .current_dir(dir.path())
            .output()
            .unwrap();
        let (code, err) = (out.status.code(), String::from_utf8_lossy(&out.stderr));
        assert_ne!(code, Some(124), "{args:?} waited on the pipe");
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}
