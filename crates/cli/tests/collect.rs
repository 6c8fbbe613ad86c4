//! `dbio collect` against a private PostgreSQL the tests start: a collection that goes on
//! across a dropped connection, a statistics reset, a restart, a Ctrl-C and a resume, whose
//! per-object reads add up to the database's own counters; and a collection with a burst in
//! the middle, whose peak window places a different table on flash than the whole one, as
//! the database's own counters say it must.

mod common;

use common::{dbio_command, dbio_json, scratch};
use dbio_db::testkit::{or_skip, PrivatePostgres};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// heap_blks_read of table `t` as the database counts it.
fn reads(pg: &PrivatePostgres, t: &str) -> i64 {
    let mut c = pg.client("postgres");
    let n: i64 = c
        .query_one(
            &format!("SELECT coalesce(heap_blks_read, 0) FROM pg_statio_user_tables WHERE relname = '{t}'"),
            &[],
        )
        .unwrap()
        .get(0);
    pg.end_session(c).unwrap();
    n
}

/// Reads `n` random pages of table `t` (of `pages` pages) in one session, and ends it so
/// that its reads are counted.
fn load(pg: &PrivatePostgres, t: &str, pages: u32, n: u32) {
    let mut c = pg.client("postgres");
    c.batch_execute(&format!(
        "DO $$ DECLARE x tid; BEGIN
           FOR i IN 1..{n} LOOP
             x := format('(%s,1)', floor(random() * {pages})::int)::tid;
             PERFORM pad FROM {t} WHERE ctid = x;
           END LOOP; END $$;"
    ))
    .unwrap();
    pg.end_session(c).unwrap();
}

/// Makes table `t` of `pages` 8 KiB pages (eight rows of 900 bytes a page).
fn table(pg: &PrivatePostgres, t: &str, pages: u32) {
    let mut c = pg.client("postgres");
    c.batch_execute(&format!(
        "CREATE TABLE {t} (id int, pad text);
         INSERT INTO {t} SELECT i, repeat(md5(i::text), 28) FROM generate_series(1, {}) i;
         CHECKPOINT;",
        pages * 8
    ))
    .unwrap();
    pg.end_session(c).unwrap();
}

/// Starts `dbio collect` with `args` on history `db`, and waits until it has said it began.
fn start(db: &Path, args: &[&str]) -> Child {
    let mut child = dbio_command()
        .arg("collect")
        .args(args)
        .arg("--db")
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its first counters are read before the history row is made: wait for a sample.
    let end = Instant::now() + Duration::from_secs(60);
    while !db.exists() || report(db, args_name(args)).is_none() {
        assert!(Instant::now() < end, "no sample after 60 s");
        if let Ok(Some(s)) = child.try_wait() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("dbio collect ended at once ({s}): {err}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child
}

fn args_name<'a>(args: &[&'a str]) -> &'a str {
    let i = args
        .iter()
        .position(|a| *a == "--name" || *a == "--resume")
        .unwrap();
    args[i + 1]
}

/// The collection's report as JSON, when it has samples.
fn report(db: &Path, name: &str) -> Option<Value> {
    dbio_json(db, &["collect", "--report", name]).ok()
}

/// Ctrl-C to `child`; its exit status and stderr.
fn interrupt(child: Child) -> (Option<i32>, String) {
    let pid = child.id().to_string();
    std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn object<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {:?}", r["objects"]))
}

fn events(r: &Value) -> String {
    r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["what"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits past at least one whole interval of 1 s, so that the counts before are sampled.
fn next_sample() {
    std::thread::sleep(Duration::from_millis(2500));
}

#[test]
fn a_collection_keeps_every_read_across_a_lost_connection_a_reset_a_restart_and_a_stop() {
    let Some(pg) = or_skip("collect across", PrivatePostgres::start()) else {
        return;
    };
    let dir = scratch();
    let db = dir.path().join("h.db");
    table(&pg, "t", 1000);
    let url = pg.url("postgres");
    let before = reads(&pg, "t");
    let args = [
        "--url",
        &url,
        "--interval",
        "1s",
        "--duration",
        "10m",
        "--name",
        "week",
        "--quiet",
    ];
    let child = start(&db, &args);
    load(&pg, "t", 1000, 500);
    next_sample();
    // An administrator ends dbio's session: it opens another at once.
    let mut c = pg.client("postgres");
    let ended: i64 = c
        .query_one(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dbio' AND pid <> pg_backend_pid()) x",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(ended, 1, "dbio's one session");
    pg.end_session(c).unwrap();
    load(&pg, "t", 1000, 400);
    let before_reset = reads(&pg, "t");
    next_sample();
    let mut c = pg.client("postgres");
    c.batch_execute("SELECT pg_stat_reset()").unwrap();
    pg.end_session(c).unwrap();
    load(&pg, "t", 1000, 300);
    next_sample();
    pg.restart("fast").unwrap();
    load(&pg, "t", 1000, 200);
    next_sample();
    // The server gone for a while: samples without the database, then one covering the gap.
    pg.stop_or_start(false).unwrap();
    std::thread::sleep(Duration::from_millis(3500));
    pg.stop_or_start(true).unwrap();
    load(&pg, "t", 1000, 150);
    let at_stop = reads(&pg, "t");
    next_sample();
    let (code, err) = interrupt(child);
    assert_eq!(code, Some(130), "{err}");
    let r = report(&db, "week").expect("a report after Ctrl-C");
    assert_eq!(r["state"], "interrupted");
    // What dbio summed, interval by interval, is what the database counted: from the start
    // to the reset, then from the reset (the restart kept the statistics) to the stop.
    let counted = (before_reset - before) + at_stop;
    assert_eq!(object(&r, "public.t")["reads"], counted, "{}", events(&r));
    let said = events(&r);
    for what in [
        "connection was lost",
        "were reset",
        "restarted",
        "interrupted",
    ] {
        assert!(said.contains(what), "no event '{what}' in:\n{said}");
    }
    // Reads while dbio is stopped are counted by the first sample of the resumed collection.
    load(&pg, "t", 1000, 100);
    let at_resume = reads(&pg, "t");
    let out = dbio_command()
        .args([
            "collect",
            "--resume",
            "week",
            "--url",
            &url,
            "--duration",
            "2s",
            "--quiet",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&db, "week").unwrap();
    assert_eq!(r["state"], "complete");
    assert_eq!(
        object(&r, "public.t")["reads"],
        (before_reset - before) + at_resume
    );
    // A password never reaches the history's reports.
    let text = serde_json::to_string(&r).unwrap();
    assert!(
        !text.contains(dbio_db::testkit::pg_admin_password()),
        "password in the report"
    );
}

/// The peak window and the whole collection choose differently: `busy` is read more over
/// the collection, `hot` far more in a burst of two intervals; the flash holds one of them.
/// Without track_io_timing the advice ranks by reads per GiB, which the test computes by hand
/// from the database's counters (with it, a cold page cache in one interval can make a read
/// there cost more than elsewhere, and the stall ranks otherwise).
#[test]
fn the_peak_window_and_the_whole_collection_place_different_tables() {
    let Some(pg) = or_skip(
        "collect windows",
        PrivatePostgres::start_with(&["track_io_timing = off"]),
    ) else {
        return;
    };
    let dir = scratch();
    let db = dir.path().join("h.db");
    table(&pg, "hot", 1000);
    table(&pg, "busy", 1000);
    let url = pg.url("postgres");
    let args = [
        "--url",
        &url,
        "--interval",
        "1s",
        "--duration",
        "10m",
        "--name",
        "w",
        "--quiet",
    ];
    let (hot0, busy0) = (reads(&pg, "hot"), reads(&pg, "busy"));
    let child = start(&db, &args);
    for _ in 0..4 {
        load(&pg, "busy", 1000, 300);
        std::thread::sleep(Duration::from_millis(600));
    }
    let (hot1, busy1) = (reads(&pg, "hot"), reads(&pg, "busy"));
    load(&pg, "hot", 1000, 900);
    let (hot2, busy2) = (reads(&pg, "hot"), reads(&pg, "busy"));
    std::thread::sleep(Duration::from_millis(600));
    for _ in 0..4 {
        load(&pg, "busy", 1000, 300);
        std::thread::sleep(Duration::from_millis(600));
    }
    let (hot3, busy3) = (reads(&pg, "hot"), reads(&pg, "busy"));
    next_sample();
    let (code, err) = interrupt(child);
    assert_eq!(code, Some(130), "{err}");
    // By hand, from the database's counters: over the whole collection busy read more; in
    // the burst hot did.
    let (hot_all, busy_all) = (hot3 - hot0, busy3 - busy0);
    assert!(busy_all > hot_all, "busy {busy_all}, hot {hot_all}");
    assert!(
        hot2 - hot1 > 2 * (busy2 - busy1),
        "burst: hot {} busy {}",
        hot2 - hot1,
        busy2 - busy1
    );
    let advise = |window: &str| -> Value {
        let out = dbio_command()
            .args([
                "advise",
                "w",
                "--window",
                window,
                "--flash",
                "12MiB",
                "--flash-latency",
                "1ns",
                "--json",
                "-",
                "--db",
            ])
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let moved = |v: &Value| -> Vec<String> {
        v["placement"]["to_move"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect()
    };
    let all = advise("all");
    let peak = advise("peak/2s");
    assert_eq!(moved(&all), ["public.busy"], "{all}");
    let series: Vec<String> = report(&db, "w").unwrap()["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}:{}", p["t_ms"], p["db_iops"]))
        .collect();
    assert_eq!(
        moved(&peak),
        ["public.hot"],
        "{}\n{series:?}",
        peak["notes"]
    );
    let notes = peak["notes"].to_string();
    assert!(
        notes.contains("would move public.busy and not public.hot"),
        "{notes}"
    );
    // The whole window's reads are the database's own.
    let figures = |v: &Value, n: &str| -> i64 {
        v["objects"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == n)
            .unwrap()["reads"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(
        (figures(&all, "public.hot"), figures(&all, "public.busy")),
        (hot_all, busy_all)
    );
}

/// MariaDB's reads of one table's file, as performance_schema counts them.
fn maria_reads(m: &dbio_db::testkit::PrivateMariaDb) -> u64 {
    use mysql::prelude::Queryable;
    let n: Option<u64> = m
        .conn()
        .query_first("SELECT CAST(SUM(COUNT_READ) AS UNSIGNED) FROM performance_schema.file_summary_by_instance WHERE FILE_NAME LIKE '%/shop/hot.ibd'")
        .unwrap()
        .flatten();
    n.unwrap_or(0)
}

/// A MariaDB collection: the table's reads summed over the samples are performance_schema's
/// own, and the server's CPU is there beside the host's.
#[test]
fn a_mariadb_collection_counts_what_performance_schema_counts() {
    use mysql::prelude::Queryable;
    let Some(m) = or_skip("collect mariadb", dbio_db::testkit::PrivateMariaDb::start()) else {
        return;
    };
    m.conn()
        .query_drop(
            "CREATE DATABASE shop; USE shop;
             CREATE TABLE hot (id INT PRIMARY KEY, pad VARCHAR(1000)) ENGINE=InnoDB;
             INSERT INTO hot SELECT seq, REPEAT(MD5(seq), 28) FROM seq_1_to_20000;
             CREATE USER mon@'127.0.0.1' IDENTIFIED BY 'mon-pw-6';
             GRANT SELECT, PROCESS ON *.* TO mon@'127.0.0.1';",
        )
        .unwrap();
    let dir = scratch();
    let db = dir.path().join("h.db");
    let url = m.url_as("mon", "mon-pw-6");
    let before = maria_reads(&m);
    let args = [
        "--url",
        &url,
        "--interval",
        "1s",
        "--name",
        "maria",
        "--quiet",
    ];
    let child = start(&db, &args);
    let mut c = m.conn();
    for i in 0..3000u64 {
        let id = 1 + (i * 7919) % 20_000;
        let _: Option<String> = c
            .exec_first("SELECT pad FROM shop.hot WHERE id = ?", (id,))
            .unwrap();
    }
    drop(c);
    let after = maria_reads(&m);
    assert!(
        after > before,
        "the load read nothing from the file: {before} then {after}"
    );
    next_sample();
    let (code, err) = interrupt(child);
    assert_eq!(code, Some(130), "{err}");
    let r = report(&db, "maria").unwrap();
    assert_eq!(
        object(&r, "shop.hot")["reads"],
        after - before,
        "{}",
        events(&r)
    );
    assert!(
        !r["server_cpu"].is_null(),
        "the server runs here: its CPU is sampled"
    );
    assert!(!serde_json::to_string(&r).unwrap().contains("mon-pw-6"));
}

/// A collection whose dbio is killed keeps every sample taken; its report says it stopped
/// (not "collecting") and how to go on, and --resume goes on.
#[test]
fn a_killed_collection_keeps_its_samples_and_says_it_stopped() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let disk = common::a_disk();
    let args = [
        "--device",
        &disk,
        "--interval",
        "1s",
        "--name",
        "killed",
        "--quiet",
    ];
    let mut child = start(&db, &args);
    next_sample();
    child.kill().unwrap();
    child.wait().unwrap();
    let r = report(&db, "killed").unwrap();
    let n = r["samples"].as_u64().unwrap();
    assert!(n >= 2, "{r}");
    let state = r["state"].as_str().unwrap();
    assert!(
        state.starts_with("stopped: its dbio (pid ") && state.contains("--resume killed"),
        "{state}"
    );
    let out = dbio_command()
        .args([
            "collect",
            "--resume",
            "killed",
            "--duration",
            "2s",
            "-q",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&db, "killed").unwrap();
    assert_eq!(r["state"], "complete");
    assert_eq!(r["samples"].as_u64().unwrap(), n + 2);
}

/// What a host of `--hosts` runs: the URL read from its input (never on a command line), its
/// samples written as JSON lines for the launcher, the last one saying how it ended.
#[test]
fn a_host_reads_its_url_from_its_input_and_writes_its_samples_as_lines() {
    use std::io::{BufRead, Write};
    let Some(pg) = or_skip("collect emit", PrivatePostgres::start()) else {
        return;
    };
    let mut child = dbio_command()
        .args([
            "collect",
            "--emit",
            "--url",
            "-",
            "--interval",
            "1s",
            "--duration",
            "2s",
        ])
        .args(["--name", "e", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, "{}", pg.url("postgres")).unwrap();
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    drop(input);
    assert!(child.wait().unwrap().success());
    let text = serde_json::to_string(&lines).unwrap();
    assert!(
        !text.contains(dbio_db::testkit::pg_admin_password()),
        "{text}"
    );
    assert_eq!(
        lines[0]["info"]["source"],
        dbio_db::url::redact(&pg.url("postgres"))
    );
    let samples = lines.iter().filter(|l| !l["sample"].is_null()).count();
    assert_eq!(samples, 2, "{text}");
    assert_eq!(lines.last().unwrap()["end"], "complete");
}
