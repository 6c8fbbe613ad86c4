//! `dbio sweep db` on a private PostgreSQL the test starts: a sweep of 1, 2 and 4 sessions
//! gives three rows whose reads rise by the database's own count, and database results are
//! ordinary results: `show`, `compare` and `report --html` (checked in headless Chromium: the
//! ramp table, latency against IOPS, the database's tables) work on them.
//!
//! The rise does not depend on how busy the machine is: each session thinks 10 ms after every
//! operation (SLOB's think time), so a session's rate is set by its think time, and n sessions
//! do about n times the reads of one as long as the host has CPU to spare (4 sessions of a
//! 16-key operation need a few % of one CPU). A step must do at least 1.3 times the reads of
//! the one before (2 is expected); a sweep that did not vary its sessions gives about 1.

mod common;

use common::browser::*;
use common::{dbio_command, scratch, skip};
use dbio_db::testkit::{pg_admin_password, PrivatePostgres};
use serde_json::Value;
use std::path::Path;

fn dbio(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command().args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let (code, out, err) = dbio(args);
    assert_eq!(code, Some(0), "dbio {args:?}: {out}{err}");
    out
}

/// Reads per second of each step by the database's count, and the keys the client asked for.
fn steps(s: &Value) -> Vec<(f64, u64, u64)> {
    s["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| {
            let db = &st["db"];
            let reads = db["database"]["physical_reads"].as_u64().unwrap();
            let keys = db["client"]["operations"].as_u64().unwrap()
                * db["spec"]["work_unit"].as_u64().unwrap();
            (
                reads as f64 / st["measured_secs"].as_f64().unwrap(),
                reads,
                keys,
            )
        })
        .collect()
}

#[test]
fn sweep_db_rises_with_sessions_and_reports_like_any_sweep() {
    let test = "sweep_db_rises_with_sessions_and_reports_like_any_sweep";
    let pg = match PrivatePostgres::start() {
        Ok(s) => s,
        Err(why) => return skip(test, &why.to_string()),
    };
    let url = pg.url("postgres");
    let dir = scratch();
    let d = dir.path();
    let hist = d.join("history.db");
    let hist = hist.to_str().unwrap();
    let file = |n: &str| d.join(n).to_str().unwrap().to_string();
    ok(&[
        "db",
        "setup",
        "--url",
        &url,
        "--sessions",
        "2",
        "--size",
        "16MiB",
        "-q",
    ]);
    let (sweep_json, sweep_html) = (file("ramp.json"), file("ramp.html"));
    let sweep_out = ok(&[
        "sweep",
        "db",
        "--vary",
        "sessions=1,2,4",
        "--url",
        &url,
        "--work-unit",
        "16",
        "--think",
        "10ms",
        "--duration",
        "3s",
        "--ramp",
        "1s",
        "--db",
        hist,
        "--label",
        "pg-ramp",
        "--json",
        &sweep_json,
        "--html",
        &sweep_html,
    ]);
    eprintln!("{sweep_out}");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&sweep_json).unwrap()).unwrap();
    assert_eq!(s["vary"], "sessions");
    let rows = steps(&s);
    assert_eq!(rows.len(), 3, "{sweep_out}");
    for (st, n) in s["steps"].as_array().unwrap().iter().zip([1, 2, 4]) {
        assert_eq!(st["db"]["spec"]["sessions"], n);
        assert_eq!(st["job"]["threads"], n);
    }
    for (i, (rate, reads, keys)) in rows.iter().enumerate() {
        // The database's count against the client's: shared_buffers of 1 MB hold under 4 % of
        // the 4,096 rows, so nearly every key the sessions asked for is a block read.
        assert!(
            *reads >= keys / 2 && *reads <= keys + keys / 10 + 100,
            "step {i}: database {reads} reads for {keys} keys asked"
        );
        if i > 0 {
            let before = rows[i - 1].0;
            assert!(
                *rate >= before * 1.3,
                "step {i}: {rate:.0} reads/s after {before:.0}: the reads did not rise with the sessions\n{sweep_out}"
            );
        }
    }
    assert!(sweep_out.contains("db reads/s"), "{sweep_out}");

    // Two database runs: read-only, and with updates (WAL writes and commits by the database).
    for (label, upd) in [("pg-read", "0"), ("pg-upd", "20")] {
        ok(&[
            "db",
            "run",
            "--url",
            &url,
            "--sessions",
            "2",
            "--work-unit",
            "16",
            "--update-pct",
            upd,
            "--duration",
            "2s",
            "--ramp",
            "1s",
            "--db",
            hist,
            "--label",
            label,
            "-q",
        ]);
    }
    // show: the result as it was printed, from the history.
    let shown = ok(&["show", "pg-upd", "--db", hist]);
    assert!(
        shown.contains("Three views") && shown.contains("WAL write"),
        "{shown}"
    );
    let shown = ok(&["show", "pg-ramp", "--db", hist]);
    assert!(shown.contains("db reads/s"), "{shown}");
    // compare: what differs (the update share), then the figures with B/A.
    let cmp = ok(&["compare", "pg-read", "pg-upd", "--db", hist]);
    eprintln!("{cmp}");
    assert!(cmp.contains("B/A"), "{cmp}");
    assert!(cmp.to_lowercase().contains("read"), "{cmp}");

    // report --html of the sweep and a run from the history, in a real browser.
    let page = file("report.html");
    ok(&["report", "pg-ramp", "pg-upd", "--db", hist, "--html", &page]);
    let text = [
        std::fs::read_to_string(&page).unwrap(),
        std::fs::read_to_string(&sweep_html).unwrap(),
        std::fs::read_to_string(&sweep_json).unwrap(),
        sweep_out,
    ]
    .concat();
    assert!(!text.contains(pg_admin_password()), "password leaked");
    let Some(chrome) = chromium(test) else {
        return;
    };
    for p in [&page, &sweep_html] {
        let l = load(&chrome, Path::new(p), None);
        assert_quiet(p, &l);
        assert_not_blank(&chrome, Path::new(p));
        // The ramp: latency against IOPS, one point per step, and the steps tables.
        let c = charts(&l.dom);
        assert_eq!(
            c[0],
            (
                "latency-iops".to_string(),
                vec![("p99".to_string(), 3), ("mean".to_string(), 3)]
            ),
            "{p}"
        );
        for table in ["steps", "db-steps"] {
            let t = l
                .dom
                .split(&format!("data-table=\"{table}\""))
                .nth(1)
                .unwrap_or_else(|| panic!("{p}: no {table} table"));
            let rows = t[..t.find("</table>").unwrap()].matches("<tr>").count();
            assert_eq!(rows, 4, "{p}: {table}: a header and a row per step");
        }
    }
    // The run's section: the database's events with WAL writes and commits, the three views.
    let l = load(&chrome, Path::new(&page), None);
    let events = l.dom.split("data-table=\"db-events\"").nth(1).unwrap();
    let events = &events[..events.find("</table>").unwrap()];
    for name in ["blks_read", "WAL write", "xact_commit"] {
        assert!(events.contains(name), "{name} missing: {events}");
    }
    assert!(l.dom.contains("data-table=\"db-views\""));
    ok(&["db", "drop", "--url", &url]);
}

#[test]
fn sweep_db_refuses_bad_input_in_one_line() {
    // Checked before any connection: no server needed, and nothing is stored.
    let url = "postgres://u:secret-pw-5@127.0.0.1:1/x";
    for (args, says) in [
        (vec!["--vary", "qd=1,2"], "a database sweep varies sessions"),
        (
            vec!["--vary", "sessions=0,2"],
            "--vary sessions=0: use 1 to 4096",
        ),
        (
            vec!["--vary", "sessions=1", "--html", "-"],
            "--html needs a file name",
        ),
        (
            vec!["--vary", "sessions=1", "--work-unit", "0"],
            "--work-unit 0",
        ),
    ] {
        let mut all = vec!["sweep", "db", "--url", url, "--no-store"];
        all.extend(args);
        let (code, out, err) = dbio(&all);
        assert_eq!(code, Some(2), "{all:?}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "{all:?}: {err}");
        assert!(
            err.contains("dbio sweep db: ") && err.contains(says),
            "{err}"
        );
        assert!(!err.contains("secret-pw-5"), "{err}");
    }
}
