//! `dbio sweep` on a real temporary file: one step per value, a table row per step, the knee
//! held against the steps' own figures, the JSON valid against the committed sweep schema,
//! and bad `--vary` lists refused before anything runs.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

fn sweep(args: &[&str]) -> std::process::Output {
    dbio_command().arg("sweep").args(args).output().unwrap()
}

#[test]
fn a_queue_depth_sweep_runs_every_step_and_finds_the_knee() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let json = dir.path().join("sweep.json");
    let out = sweep(&[
        "oltp-read",
        "--target",
        f.to_str().unwrap(),
        "--vary",
        "qd=1..16x4",
        "--ops",
        "3000",
        "--slo",
        "p99<10s",
        "--json",
        json.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(char::is_numeric))
        .collect();
    assert_eq!(rows.len(), 3, "one row per step (1, 4, 16): {stdout}");
    // A real step's last column is the CPU % of dbio's process.
    for r in &rows {
        let cpu = r.split_whitespace().last().unwrap();
        assert!(cpu.parse::<f64>().is_ok(), "CPU % in {r:?}");
    }
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let steps = s["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    for (step, qd) in steps.iter().zip([1, 4, 16]) {
        assert_eq!(step["job"]["qd"], qd);
        assert_eq!(step["read"]["ios"], 3000);
    }
    // Every step meets p99 < 10 s, so the knee is the step with the most IOPS.
    let best = (0..3)
        .max_by(|&a, &b| {
            steps[a]["read"]["iops"]
                .as_f64()
                .unwrap()
                .total_cmp(&steps[b]["read"]["iops"].as_f64().unwrap())
        })
        .unwrap();
    assert_eq!(s["knee"]["step"], best);
    assert_eq!(s["knee"]["iops"], steps[best]["read"]["iops"]);

    assert_valid(&schema("sweep-result.v1.json"), "sweep result", &s);
}

#[test]
fn bad_sweep_lists_are_refused_before_anything_runs() {
    let dir = scratch();
    let f = dir.path().join("never.dat");
    for (vary, why) in [
        ("qd=8,4", "must increase"),
        ("qd=", "no values"),
        ("depth=1,2", "cannot vary"),
    ] {
        let out = sweep(&[
            "--target",
            f.to_str().unwrap(),
            "--vary",
            vary,
            "--ops",
            "10",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{vary}: {err}");
        assert!(
            err.contains(why) && err.lines().count() == 1,
            "{vary}: {err}"
        );
        assert!(!f.exists(), "{vary}: a refused sweep created its target");
    }
    let out = sweep(&[
        "--target",
        f.to_str().unwrap(),
        "--vary",
        "qd=1,0",
        "--ops",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // Objectives that could never be met, or would mean seconds without saying so.
    for (slo, why) in [
        ("write:p99<1ms", "no step writes"),
        ("p99<1", "needs a unit"),
    ] {
        let out = sweep(&[
            "oltp-read",
            "--target",
            f.to_str().unwrap(),
            "--vary",
            "qd=1,2",
            "--slo",
            slo,
            "--ops",
            "10",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{slo}: {err}");
        assert!(err.contains(why), "{slo}: {err}");
        assert!(!f.exists(), "{slo}: a refused sweep created its target");
    }
}

#[test]
fn a_latency_target_search_runs_only_the_bisection_steps() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let f = f.to_str().unwrap();
    let search = |target: &str, name: &str| -> Value {
        let json = dir.path().join(name);
        let args = [
            "oltp-read",
            "--target",
            f,
            "--vary",
            "qd=1..16x2",
            "--ops",
            "2000",
        ];
        let out = sweep(
            &[
                &args[..],
                &["--target-latency", target, "--json", json.to_str().unwrap()],
            ]
            .concat(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
    };
    // Every depth meets 10 s: bisection over 1,2,4,8,16 runs 4, 8 and 16 and settles on 16.
    let met = search("p99<10s", "met.json");
    assert_eq!(met["values"], serde_json::json!(["4", "8", "16"]));
    assert_eq!(met["knee"]["value"], "16");
    // Nothing meets 1 ns: it runs 4, then 1, and finds no knee.
    let none = search("p99<1ns", "none.json");
    assert_eq!(none["values"], serde_json::json!(["1", "4"]));
    assert!(none["knee"].is_null());
}

/// A sweep kept in the history (streamed into it, never whole in memory) comes back byte for
/// byte: `dbio export` gives the `--json` file's bytes, `dbio show` its table, and the history
/// file is marked with the schema version that says its entries may be blobs, so an older
/// dbio refuses it by name.
#[test]
fn a_stored_sweep_exports_the_bytes_of_its_json_file() {
    let dir = scratch();
    let (json, db) = (dir.path().join("s.json"), dir.path().join("h.db"));
    let (json_s, db_s) = (json.to_str().unwrap(), db.to_str().unwrap());
    let args = [
        "--engine",
        "sim",
        "--vary",
        "qd=1,4",
        "--duration",
        "1s",
        "--ramp",
        "0s",
    ];
    let out = sweep(
        &[
            &args[..],
            &["--json", json_s, "--db", db_s, "--label", "s1"],
        ]
        .concat(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported = dbio_command()
        .args(["export", "s1", "--db", db_s])
        .output()
        .unwrap();
    assert!(exported.status.success());
    assert_eq!(exported.stdout, std::fs::read(&json).unwrap());
    let (code, shown, err) = dbio(&["show", "s1", "--db", db_s]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        shown.contains("qd") && shown.lines().count() >= 3,
        "{shown}"
    );
    let (code, listed, err) = dbio(&["history", "--db", db_s]);
    assert_eq!(code, Some(0), "{err}");
    assert!(listed.contains("s1"), "{listed}");
    let version = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get::<_, u32>(0))
        .unwrap();
    assert_eq!(version, dbio_store::CURRENT_VERSION);
    assert_eq!(version, 4);
}
