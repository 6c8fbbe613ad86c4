//! `dbio advise` against live servers the tests start themselves (never the machine's own):
//! a private PostgreSQL and a private MariaDB, each with a hot table, a cold table, an index
//! and a load that makes the hot one do most of the physical reads. The advice must rank
//! them hot, cold, index (by reads per GiB: the index is large and barely read), fit the
//! budget and leave the log where it is; no password may reach the output, JSON or history.

mod common;

use common::{dbio_command, scratch};
use dbio_db::testkit::{or_skip, PrivateMariaDb, PrivatePostgres};
use mysql::prelude::Queryable;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Whether `holds` said yes within a minute (asked every 20 ms).
fn waited(mut holds: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(60);
    while !holds() {
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Waits, at most a minute, until `holds` says yes; fails naming `what` when it never does.
fn wait_for(what: &str, holds: impl FnMut() -> bool) {
    assert!(waited(holds), "{what}: still not so after 60 s");
}

/// The count a query of one bigint gives.
fn pg_count(c: &mut postgres::Client, sql: &str) -> i64 {
    c.query_one(sql, &[]).unwrap().get(0)
}

/// Ends the session of `c` and waits until it has left pg_stat_activity: a backend writes
/// out its statistics before it leaves (PostgreSQL 15's before_shmem_exit hook), so its
/// reads and WAL are then counted.
fn pg_end_session(pg: &PrivatePostgres, mut c: postgres::Client) {
    let pid: i32 = c.query_one("SELECT pg_backend_pid()", &[]).unwrap().get(0);
    drop(c);
    let mut w = pg.client("postgres");
    wait_for(&format!("session {pid} ends"), || {
        pg_count(
            &mut w,
            &format!("SELECT count(*) FROM pg_stat_activity WHERE pid = {pid}"),
        ) == 0
    });
}

fn advise(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command().arg("advise").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn rank_of(v: &Value, name: &str) -> usize {
    let objs = v["objects"].as_array().unwrap();
    objs.iter()
        .position(|o| o["name"].as_str().unwrap().starts_with(name))
        .unwrap_or_else(|| panic!("{name} not ranked: {objs:?}"))
}

fn moved(v: &Value) -> Vec<String> {
    v["placement"]["to_move"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect()
}

fn left_for(v: &Value, name: &str) -> String {
    let l = v["placement"]["to_leave"].as_array().unwrap();
    l.iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("{name} not left: {l:?}"))["reason"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Everything dbio wrote or printed, to search for a password.
fn all_output(parts: &[&str], files: &[&Path]) -> String {
    let mut s: String = parts.concat();
    for f in files {
        s.push_str(&String::from_utf8_lossy(
            &std::fs::read(f).unwrap_or_default(),
        ));
    }
    s
}

/// hot (2000 pages) read 6000 times at random, cold (1000 pages) 1000 times, and 10 lookups
/// through the ~1000-page index on cold's wide column.
fn pg_tables(pg: &PrivatePostgres) {
    let mut c = pg.client("postgres");
    c.batch_execute(
        "CREATE TABLE hot (id int, pad text);
         CREATE TABLE cold (id int, pad text);
         INSERT INTO hot SELECT i, repeat(md5(i::text), 28) FROM generate_series(1, 16000) i;
         INSERT INTO cold SELECT i, repeat(md5((-i)::text), 28) FROM generate_series(1, 8000) i;
         CREATE INDEX cold_pad ON cold (pad);
         CREATE TABLE side (n int);
         CHECKPOINT;",
    )
    .unwrap();
    pg_end_session(pg, c);
}

fn pg_load(pg: &PrivatePostgres) {
    let mut c = pg.client("postgres");
    c.batch_execute(
        "DO $$
         DECLARE t tid; k text;
         BEGIN
           PERFORM setseed(0.25);
           FOR i IN 1..6000 LOOP
             t := format('(%s,1)', floor(random() * 2000)::int)::tid;
             PERFORM pad FROM hot WHERE ctid = t;
           END LOOP;
           FOR i IN 1..1000 LOOP
             t := format('(%s,1)', floor(random() * 1000)::int)::tid;
             PERFORM pad FROM cold WHERE ctid = t;
           END LOOP;
           FOR i IN 1..10 LOOP
             k := repeat(md5((-(i * 797))::text), 28);
             PERFORM id FROM cold WHERE pad = k;
           END LOOP;
         END $$;
         INSERT INTO side SELECT generate_series(1, 20000);",
    )
    .unwrap();
    pg_end_session(pg, c);
}

/// Empties the OS page cache (root), so that the load's reads come from the disk and take
/// longer than the 1 µs flash the test assumes: from a warm cache they take about 1 µs too,
/// and then nothing would be worth moving.
fn drop_os_cache() {
    let _ = std::process::Command::new("sync").status();
    if let Err(e) = std::fs::write("/proc/sys/vm/drop_caches", "1") {
        common::skip(
            "postgres_hot_cold_index_ranked_budget_fitted_wal_left",
            &format!("cannot empty the page cache (/proc/sys/vm/drop_caches: {e}); run as root"),
        );
    }
}

#[test]
fn postgres_hot_cold_index_ranked_budget_fitted_wal_left() {
    let test = "postgres_hot_cold_index_ranked_budget_fitted_wal_left";
    let Some(pg) = or_skip(test, PrivatePostgres::start()) else {
        return;
    };
    pg_tables(&pg);
    let dir = scratch();
    let (snap, json, db) = (
        dir.path().join("before.json"),
        dir.path().join("a.json"),
        dir.path().join("h.db"),
    );
    let url = pg.url("postgres");
    let (code, out1, err1) = advise(&["--url", &url, "--snapshot", snap.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err1}");
    drop_os_cache();
    pg_load(&pg);
    let (code, out2, err2) = advise(&[
        "--url",
        &url,
        "--since",
        snap.to_str().unwrap(),
        "--flash",
        "20MiB",
        "--flash-latency",
        "1us",
        "--json",
        json.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err2}");
    let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let (hot, cold, idx) = (
        rank_of(&v, "public.hot"),
        rank_of(&v, "public.cold"),
        rank_of(&v, "public.cold_pad"),
    );
    assert!(
        hot < cold && cold < idx,
        "ranks hot {hot}, cold {cold}, index {idx}:\n{out2}"
    );
    // Hot comes first of everything that may move (the WAL, left where it is, may rank anywhere).
    let first_movable = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["kind"] != "log")
        .unwrap();
    assert_eq!(first_movable["name"], "public.hot", "{out2}");
    // 20 MiB holds hot (15.6 MiB) first; cold (7.8 MiB) no longer fits beside it, the
    // small index may.
    assert_eq!(
        moved(&v).first().map(String::as_str),
        Some("public.hot"),
        "{out2}"
    );
    assert_eq!(left_for(&v, "public.cold"), "not_chosen");
    assert!(v["placement"]["used_bytes"].as_u64().unwrap() <= 20 << 20);
    assert_eq!(left_for(&v, "WAL (pg_wal)"), "log");
    let wal = &v["objects"][rank_of(&v, "WAL")];
    assert!(wal["writes"].as_u64().unwrap() > 0 && wal["bytes_written"].as_u64().unwrap() > 0);
    assert_eq!(v["source"]["system"], "postgresql");
    assert!(v["placement"]["gain"]["io_wait_from"]
        .as_str()
        .unwrap()
        .contains("own figure"));
    let pw = dbio_db::testkit::pg_admin_password();
    let seen = all_output(&[&out1, &err1, &out2, &err2], &[&snap, &json, &db]);
    assert!(!seen.contains(pw), "the password was shown or stored");
    assert!(seen.contains("dbio_admin:***@127.0.0.1"));
}

#[test]
fn postgres_without_io_timing_ranks_by_reads_and_says_so() {
    let test = "postgres_without_io_timing_ranks_by_reads_and_says_so";
    let Some(pg) = or_skip(
        test,
        PrivatePostgres::start_with(&["track_io_timing = off"]),
    ) else {
        return;
    };
    pg_tables(&pg);
    let dir = scratch();
    let (snap, json) = (dir.path().join("before.json"), dir.path().join("a.json"));
    let url = pg.url("postgres");
    let (code, _, err) = advise(&["--url", &url, "--snapshot", snap.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    pg_load(&pg);
    let (code, out, err) = advise(&[
        "--url",
        &url,
        "--since",
        snap.to_str().unwrap(),
        "--flash",
        "20MiB",
        "--json",
        json.to_str().unwrap(),
        "--no-store",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    // No read times (the WAL's own write timing does not count): reads per GiB decide.
    assert_eq!(v["ranked_by"], "I/Os per GiB", "{out}");
    assert!(out.contains("note: track_io_timing is off"), "{out}");
    assert!(
        rank_of(&v, "public.hot") < rank_of(&v, "public.cold"),
        "{out}"
    );
    assert_eq!(moved(&v)[0], "public.hot", "{out}");
    assert!(v["placement"]["gain"].is_null());
}

#[test]
fn postgres_bad_logins_rights_and_idle_intervals() {
    let test = "postgres_bad_logins_rights_and_idle_intervals";
    let Some(pg) = or_skip(test, PrivatePostgres::start()) else {
        return;
    };
    let check = |args: &[&str], code: i32, says: &str, secret: &str| {
        let (c, out, err) = advise(args);
        assert_eq!(c, Some(code), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(says) && !err.contains(secret) && !out.contains(secret),
            "{err}"
        );
    };
    let wrong = pg.url_as("dbio_admin", "not-the-pw-3", "postgres");
    check(
        &["--url", &wrong, "--no-store"],
        2,
        "refused the login",
        "not-the-pw-3",
    );
    let mut c = pg.client("postgres");
    c.batch_execute("CREATE ROLE plain LOGIN PASSWORD 'plain-pw-4'")
        .unwrap();
    let plain = pg.url_as("plain", "plain-pw-4", "postgres");
    check(
        &["--url", &plain, "--no-store"],
        2,
        "GRANT pg_monitor",
        "plain-pw-4",
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let nowhere = format!("postgres://dbio_admin:gone-pw-5@127.0.0.1:{port}/postgres");
    check(
        &["--url", &nowhere, "--no-store"],
        2,
        "cannot connect to postgres://dbio_admin:***@",
        "gone-pw-5",
    );
    // An idle database between two snapshots: nothing to rank, once every session above
    // has ended and so written out its counts.
    pg_end_session(&pg, c);
    let mut w = pg.client("postgres");
    wait_for("no other client session", || {
        pg_count(
            &mut w,
            "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        ) == 0
    });
    drop(w);
    check(
        &[
            "--url",
            &pg.url("postgres"),
            "--interval",
            "1s",
            "--no-store",
            "-q",
        ],
        1,
        "no I/O in the interval",
        "admin-pw",
    );
}

#[test]
fn ctrl_c_during_the_interval_takes_the_second_snapshot_then() {
    let test = "ctrl_c_during_the_interval_takes_the_second_snapshot_then";
    let Some(pg) = or_skip(test, PrivatePostgres::start()) else {
        return;
    };
    pg_tables(&pg);
    let mut child = dbio_command()
        .args([
            "advise",
            "--url",
            &pg.url("postgres"),
            "--interval",
            "10m",
            "--no-store",
            "--flash-latency",
            "1us",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // dbio's session is idle after the COMMIT of its first snapshot: it is waiting.
    let mut w = pg.client("postgres");
    wait_for("dbio took its first snapshot", || {
        pg_count(
            &mut w,
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dbio' AND state = 'idle' AND query ILIKE 'COMMIT%'",
        ) == 1
    });
    drop(w);
    pg_load(&pg);
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    // The interval is 10 minutes: an exit within the bound is Ctrl-C's doing.
    if !waited(|| child.try_wait().unwrap().is_some()) {
        let _ = child.kill();
        let _ = child.wait();
        panic!("Ctrl-C did not end the 10-minute wait within 60 s");
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("note: interrupted: the second snapshot was taken after"),
        "{text}"
    );
    // The load that ran during the cut interval is counted: hot ranks above cold.
    let line = |n: &str| {
        text.lines()
            .position(|l| l.contains(n))
            .unwrap_or_else(|| panic!("no {n}: {text}"))
    };
    assert!(line("  public.hot ") < line("  public.cold "), "{text}");
}

/// shop.hot (20,000 rows of ~900 bytes) read 3000 times by primary key, shop.cold (10,000
/// rows, with an index on k inside its own file as InnoDB keeps them) 100 times. The rank is
/// by stall per GiB, and the stall is the server's own timing: hot has about 20 times cold's
/// reads per GiB, so it ranks first unless a cold read is 20 times slower than a hot one (at
/// 300 cold reads, 6.6 times was enough, and a loaded machine gave 7).
fn maria_tables(m: &PrivateMariaDb) {
    m.conn()
        .query_drop(
            "CREATE DATABASE shop; USE shop;
             CREATE TABLE hot (id INT PRIMARY KEY, pad VARCHAR(1000)) ENGINE=InnoDB;
             CREATE TABLE cold (id INT PRIMARY KEY, pad VARCHAR(1000), k INT, KEY (k)) ENGINE=InnoDB;
             INSERT INTO hot SELECT seq, REPEAT(MD5(seq), 28) FROM seq_1_to_20000;
             INSERT INTO cold SELECT seq, REPEAT(MD5(-seq), 28), seq FROM seq_1_to_10000;",
        )
        .unwrap();
}

fn maria_load(m: &PrivateMariaDb) {
    let mut c = m.conn();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        1 + x.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    };
    for _ in 0..3000 {
        let _: Option<String> = c
            .exec_first("SELECT pad FROM shop.hot WHERE id = ?", (next(20_000),))
            .unwrap();
    }
    for _ in 0..100 {
        let _: Option<String> = c
            .exec_first("SELECT pad FROM shop.cold WHERE k = ?", (next(10_000),))
            .unwrap();
    }
}

#[test]
fn mariadb_hot_before_cold_budget_fitted_redo_left() {
    let test = "mariadb_hot_before_cold_budget_fitted_redo_left";
    let Some(m) = or_skip(test, PrivateMariaDb::start()) else {
        return;
    };
    maria_tables(&m);
    let dir = scratch();
    let (snap, json) = (dir.path().join("before.json"), dir.path().join("a.json"));
    m.conn().query_drop("CREATE USER mon@'127.0.0.1' IDENTIFIED BY 'mon-pw-6'; GRANT SELECT, PROCESS ON *.* TO mon@'127.0.0.1'").unwrap();
    let url = m.url_as("mon", "mon-pw-6");
    let (code, _, err) = advise(&["--url", &url, "--snapshot", snap.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    maria_load(&m);
    let (code, out, err) = advise(&[
        "--url",
        &url,
        "--since",
        snap.to_str().unwrap(),
        "--flash",
        "40MiB",
        "--flash-latency",
        "1us",
        "--json",
        json.to_str().unwrap(),
        "--no-store",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(rank_of(&v, "shop.hot") < rank_of(&v, "shop.cold"), "{out}");
    assert!(moved(&v).contains(&"shop.hot".to_string()), "{out}");
    assert!(v["placement"]["used_bytes"].as_u64().unwrap() <= 40 << 20);
    assert_eq!(left_for(&v, "InnoDB redo log"), "log");
    let seen = all_output(&[&out, &err], &[&snap, &json]);
    assert!(!seen.contains("mon-pw-6"));
    // Without rights to performance_schema: one line naming the grant.
    m.conn()
        .query_drop("CREATE USER nobody@'127.0.0.1' IDENTIFIED BY 'nb-pw-7'")
        .unwrap();
    let (code, _, err) = advise(&["--url", &m.url_as("nobody", "nb-pw-7"), "--no-store"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("GRANT SELECT ON performance_schema.*") && !err.contains("nb-pw-7"),
        "{err}"
    );
}
