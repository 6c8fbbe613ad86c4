//! `dbio db` on a private PostgreSQL the test starts (never the machine's own): setup, run
//! and drop (the sweep is in db_pg_sweep.rs); the database's count is at least the device's,
//! the page cache's share is reported, updates make WAL writes and commit waits, no password
//! shows anywhere, and dbio refuses a schema it did not make.

mod common;

use common::{db_drop_in_home, db_setup, dbio, dbio_command, scratch, skip};
use dbio_db::testkit::{device_reads, pg_admin_password, Ext4Loop, MemoryCgroup, PrivatePostgres};
use dbio_engine::memlock::locked_bytes;
use serde_json::Value;

/// A private server; `fsync = on` where commits must wait for their WAL sync.
fn server_with(test: &str, conf: &[&str]) -> Option<PrivatePostgres> {
    match PrivatePostgres::start_with(conf) {
        Ok(s) => Some(s),
        Err(why) => {
            skip(test, &why.to_string());
            None
        }
    }
}

fn server(test: &str) -> Option<PrivatePostgres> {
    server_with(test, &[])
}

#[test]
fn setup_run_and_drop_on_postgres() {
    let Some(pg) = server_with("setup_run_and_drop_on_postgres", &["fsync = on"]) else {
        return;
    };
    let url = pg.url("postgres");
    let dir = scratch();
    let (code, out, err) = db_setup(&url, "2", "16MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    // A second setup over dbio's own schema is refused, with the way out.
    let (code, _, err2) = db_setup(&url, "2", "16MiB");
    assert_eq!(code, Some(1), "{err2}");
    assert!(
        err2.contains("already set up") && err2.contains("dbio db drop"),
        "{err2}"
    );
    let json = dir.path().join("run.json");
    let (code, run_out, run_err) = dbio(&[
        "db",
        "run",
        "--url",
        &url,
        "--sessions",
        "2",
        "--duration",
        "3s",
        "--ramp",
        "1s",
        "--update-pct",
        "20",
        "--work-unit",
        "32",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{run_out}{run_err}");
    eprintln!("{run_out}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let db = &v["db"];
    // The three views against the database's and the device's own counts:
    // three_views_hold_against_postgres_and_the_device.
    assert!(
        db["database"]["physical_reads"].as_u64().unwrap() > 0,
        "{db}"
    );
    // Updates: WAL writes and commits counted by the database, commit waits by the client.
    assert!(db["database"]["log_writes"].as_u64().unwrap() > 0, "{db}");
    assert!(db["database"]["commits"].as_u64().unwrap() > 0, "{db}");
    assert!(
        db["client"]["commit_ns"]["mean"].as_f64().unwrap() > 0.0,
        "{db}"
    );
    assert!(
        run_out.contains("WAL write") && run_out.contains("xact_commit"),
        "{run_out}"
    );
    // The commit's wait by the database's own figures: WAL syncs (pg_stat_wal), timed.
    assert_commit_waits(&v, "WAL sync");
    assert!(
        run_out.contains("Three views") && run_out.contains("verdict:"),
        "{run_out}"
    );
    assert!(v["verdict"]["limit"].is_string());
    // Nothing dbio wrote or printed holds the password.
    let all = [
        out,
        err,
        run_out,
        run_err,
        std::fs::read_to_string(&json).unwrap(),
    ]
    .concat();
    assert!(!all.contains(pg_admin_password()), "password leaked");
    let (code, out, err) = dbio(&["db", "drop", "--url", &url]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("dropped dbio_slob (2 tables"), "{out}");
    let mut c = pg.client("postgres");
    let left: i64 = c
        .query_one(
            "SELECT count(*) FROM pg_namespace WHERE nspname = 'dbio_slob'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(left, 0);
}

#[test]
fn refuses_what_it_did_not_make_and_bad_input() {
    let Some(pg) = server("refuses_what_it_did_not_make_and_bad_input") else {
        return;
    };
    let url = pg.url("postgres");
    let mut c = pg.client("postgres");
    c.batch_execute("CREATE SCHEMA dbio_slob; CREATE TABLE dbio_slob.precious (x int)")
        .unwrap();
    let (code, _, err) = db_setup(&url, "1", "8MiB");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("did not make it"), "{err}");
    let (code, _, err) = dbio(&["db", "drop", "--url", &url]);
    assert_eq!(code, Some(1), "{err}");
    let n: i64 = c
        .query_one("SELECT count(*) FROM dbio_slob.precious", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 0, "the table is still there");
    // A run before setup, a wrong password, a URL nothing listens on: one line, no panic.
    c.batch_execute("DROP SCHEMA dbio_slob CASCADE").unwrap();
    let (code, _, err) = dbio(&[
        "db",
        "run",
        "--url",
        &url,
        "--duration",
        "1s",
        "-q",
        "--no-store",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not set up"), "{err}");
    let bad = pg.url_as("dbio_admin", "wrong-pw-123", "postgres");
    let (code, _, err) = dbio(&[
        "db",
        "run",
        "--url",
        &bad,
        "--duration",
        "1s",
        "-q",
        "--no-store",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        !err.contains("wrong-pw-123") && !err.contains("panicked"),
        "{err}"
    );
    let (code, _, err) = dbio(&[
        "db",
        "setup",
        "--url",
        "postgres://u:pw-xyz@127.0.0.1:1/x",
        "-q",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        !err.contains("pw-xyz") && err.contains("cannot connect"),
        "{err}"
    );
    // Missing rights: a role that may not create a schema.
    c.batch_execute("CREATE ROLE weak LOGIN PASSWORD 'weak-pw-9'")
        .unwrap();
    let weak = pg.url_as("weak", "weak-pw-9", "postgres");
    let (code, _, err) = db_setup(&weak, "1", "8MiB");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("permission denied") && !err.contains("weak-pw-9"),
        "{err}"
    );
}

/// The AWR-like table holds the log sync row (the commit wait) with syncs and their time.
#[track_caller]
fn assert_commit_waits(v: &Value, name: &str) {
    let events = v["db"]["events"].as_array().unwrap();
    let sync = events
        .iter()
        .find(|e| e["generic"] == "log sync (commit)")
        .unwrap_or_else(|| panic!("no log sync row: {events:?}"));
    assert_eq!(sync["name"], name, "{sync}");
    assert!(sync["waits"].as_u64().unwrap() > 0, "{sync}");
    assert!(sync["time_s"].as_f64().unwrap() > 0.0, "{sync}");
    assert!(v["db"]["database"]["log_syncs"].as_u64().unwrap() > 0);
}

/// `dbio db drop` drops only names setup makes, quoted: a marker row holding SQL, or one
/// naming a table outside dbio's schema, is refused and both victims stay in place.
#[test]
fn drop_leaves_tables_a_tampered_marker_names() {
    let test = "drop_leaves_tables_a_tampered_marker_names";
    let Some(pg) = server(test) else {
        return;
    };
    let url = pg.url("postgres");
    let mut c = pg.client("postgres");
    c.batch_execute("CREATE TABLE public.victim1 (x int); CREATE TABLE public.victim2 (x int)")
        .unwrap();
    let (code, out, err) = db_setup(&url, "1", "8MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    for name in [
        "x\"; drop table public.victim2; --",
        "slob_1\", public.\"victim1",
    ] {
        c.execute(
            "INSERT INTO dbio_slob.dbio_made (kind, name, detail) VALUES ('table', $1, '')",
            &[&name],
        )
        .unwrap();
    }
    let (code, out, err) = dbio(&["db", "drop", "--url", &url]);
    let left: i64 = c
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('victim1', 'victim2')",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(left, 2, "a victim was dropped: {out}{err}");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("dbio never makes") && err.contains("victim2"),
        "{err}"
    );
    // With the altered rows gone, drop removes exactly what setup made.
    c.batch_execute(
        "DELETE FROM dbio_slob.dbio_made WHERE name NOT LIKE 'slob%' OR name LIKE '%\"%'",
    )
    .unwrap();
    let (code, out, err) = dbio(&["db", "drop", "--url", &url]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("(1 tables: slob_1)"), "{out}");
}

/// The password comes from PGPASSWORD or ~/.pgpass (mode 600) when the URL has none; a
/// password file others may read is skipped (as libpq skips it), named only when the server
/// asks for a password, and stops no login that needs none; none at all says where to put one.
#[test]
fn password_from_pgpassword_and_pgpass() {
    let test = "password_from_pgpassword_and_pgpass";
    let Some(pg) = server(test) else {
        return;
    };
    let url = format!("postgres://dbio_admin@127.0.0.1:{}/postgres", pg.port());
    let home = scratch();
    let drop_with = |env: &[(&str, &str)]| {
        db_drop_in_home(&url, home.path(), &["PGPASSWORD", "PGPASSFILE"], env)
    };
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("PGPASSWORD") && out.contains("~/.pgpass"),
        "{out}"
    );
    let (code, out) = drop_with(&[("PGPASSWORD", pg_admin_password())]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("nothing to drop"), "{out}");
    let pgpass = home.path().join(".pgpass");
    let line = format!(
        "127.0.0.1:{}:*:dbio_admin:{}\n",
        pg.port(),
        pg_admin_password()
    );
    std::fs::write(&pgpass, line).unwrap();
    use std::os::unix::fs::PermissionsExt;
    let mode = |m| std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(m));
    // Others may read it: skipped, as libpq skips it, and named when a password is missing.
    mode(0o644).unwrap();
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(".pgpass was ignored: others can read it") && out.contains("chmod 600"),
        "{out}"
    );
    mode(0o600).unwrap();
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains(pg_admin_password()), "{out}");
    // A login that needs no password is not stopped by a password file others may read.
    mode(0o644).unwrap();
    pg.hba_first("host all dbio_admin 127.0.0.1/32 trust")
        .unwrap();
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("nothing to drop"), "{out}");
}

/// An update changes its own small unit (8 keys, pgio's), not every row the operation read:
/// PostgreSQL's own count of updated rows (pg_stat_user_tables.n_tup_upd) is 8 per update.
#[test]
fn an_update_changes_eight_rows_not_the_work_unit() {
    let test = "an_update_changes_eight_rows_not_the_work_unit";
    let Some(pg) = server(test) else {
        return;
    };
    let url = pg.url("postgres");
    let (code, out, err) = db_setup(&url, "1", "8MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    let dir = scratch();
    let json = dir.path().join("r.json");
    let (code, out, err) = dbio(&[
        "db",
        "run",
        "--url",
        &url,
        "--duration",
        "2s",
        "--ramp",
        "0s",
        "--update-pct",
        "100",
        "--work-unit",
        "64",
        "--no-store",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let updates = v["db"]["client"]["updates"].as_u64().unwrap();
    assert!(updates > 0, "{v}");
    pg.wait_sessions_ended().unwrap();
    let mut c = pg.client("postgres");
    let changed: i64 = c
        .query_one(
            "SELECT n_tup_upd FROM pg_stat_user_tables WHERE schemaname = 'dbio_slob' AND relname = 'slob_1'",
            &[],
        )
        .unwrap()
        .get(0);
    let changed = changed as u64;
    // Every update counted (the measured ones and the few before the window) changed 8 rows.
    assert_eq!(changed % 8, 0, "{changed} rows updated");
    assert!(
        changed >= 8 * updates && changed < 16 * updates,
        "{changed} rows updated by {updates} measured updates"
    );
}

/// PostgreSQL's own counts of blocks read: (the database's blks_read, dbio_slob's tables and
/// indexes from pg_statio_user_tables).
fn pg_reads(c: &mut postgres::Client) -> (u64, u64) {
    let r = c
        .query_one(
            "SELECT (SELECT blks_read FROM pg_stat_database WHERE datname = current_database()),
                    (SELECT coalesce(sum(heap_blks_read + coalesce(idx_blks_read, 0)), 0)::bigint
                       FROM pg_statio_user_tables WHERE schemaname = 'dbio_slob')",
            &[],
        )
        .unwrap();
    (r.get::<_, i64>(0) as u64, r.get::<_, i64>(1) as u64)
}

/// Evicts dbio's tables and indexes from the OS page cache (written back first), so that the
/// run's reads reach the device: `dd iflag=nocache count=0` on each of their files.
fn evict(pg: &PrivatePostgres, c: &mut postgres::Client) {
    let _ = std::process::Command::new("sync").status();
    let files = c
        .query(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'dbio_slob' AND c.relkind IN ('r', 'i')",
            &[],
        )
        .unwrap();
    for f in files {
        let path = pg.data_dir().join(f.get::<_, String>(0));
        let st = std::process::Command::new("dd")
            .arg(format!("if={}", path.display()))
            .args(["iflag=nocache", "count=0", "status=none"])
            .status()
            .unwrap();
        assert!(st.success(), "dd on {}", path.display());
    }
}

/// `a` within `pct` % (and `slack` blocks) of `b`.
fn near(a: u64, b: u64, pct: f64, slack: u64) -> bool {
    (a as f64 - b as f64).abs() <= b as f64 * pct / 100.0 + slack as f64
}

/// `dbio db run` of 2 sessions for `secs` seconds, no ramp, a work unit of 32 keys, its
/// result written to `json` when given; it must succeed.
fn run_for(url: &str, secs: &str, json: Option<&std::path::Path>) {
    let mut args = vec![
        "db",
        "run",
        "--url",
        url,
        "--sessions",
        "2",
        "--duration",
        secs,
        "--ramp",
        "0s",
        "--work-unit",
        "32",
        "--no-store",
        "-q",
    ];
    if let Some(j) = json {
        args.extend(["--json", j.to_str().unwrap()]);
    }
    let (code, out, err) = dbio(&args);
    assert_eq!(code, Some(0), "{out}{err}");
}

/// The server's processes in a new memory cgroup of `bytes`, so that its page cache is held
/// under the data set and reads reach the device all through a run, not only while the cache
/// warms; None (after saying why) where cgroups cannot be made.
fn server_in_cgroup(test: &str, pg: &PrivatePostgres, bytes: u64) -> Option<MemoryCgroup> {
    let cg = match MemoryCgroup::make(bytes) {
        Ok(g) => g,
        Err(why) => {
            skip(test, &why.to_string());
            return None;
        }
    };
    // The postmaster (its backends to come follow it) and its children now; a child may end
    // meanwhile.
    let pids = pg.pids();
    cg.add(pids[0]).unwrap();
    for pid in &pids[1..] {
        let _ = cg.add(*pid);
    }
    Some(cg)
}

/// What the test counted itself over dbio's run: PostgreSQL's blocks read (the database's,
/// and dbio_slob's tables and indexes) and the reads of the server's device.
struct Counted {
    db_reads: u64,
    table_reads: u64,
    dev: u64,
}

/// dbio's result `d` (its "db" object) held against the test's own counts `own` of device
/// `dev_name`: within 3 % and 300 blocks, never above them; the page cache of the server's
/// 40 MiB cgroup, and its share of the reads within 5 points of the test's.
fn check_three_views(d: &Value, own: &Counted, dev_name: &str) {
    let Counted {
        db_reads,
        table_reads,
        dev,
    } = *own;
    let reads = d["database"]["physical_reads"].as_u64().unwrap();
    let dbio_dev = d["device"]["reads"].as_u64().unwrap_or(0);
    eprintln!(
        "dbio: database {reads}, device {dbio_dev}, page cache {}; PostgreSQL: blks_read {db_reads}, dbio_slob {table_reads}; {dev_name}: {dev}",
        d["page_cache_pct"]
    );
    assert_eq!(d["device"]["name"], dev_name, "{d}");
    assert!(
        table_reads > 1000 && dev > 100,
        "too little read to compare: {d}"
    );
    assert!(reads <= db_reads, "dbio {reads} > PostgreSQL's {db_reads}");
    assert!(
        near(reads, table_reads, 3.0, 300),
        "dbio {reads}, PostgreSQL {table_reads}"
    );
    assert!(
        dbio_dev <= dev,
        "dbio's device {dbio_dev} > the kernel's {dev}"
    );
    assert!(
        near(dbio_dev, dev, 3.0, 300),
        "dbio's device {dbio_dev}, the kernel's {dev}"
    );
    // The page-cache figures are of the memory the server may use: its cgroup's 40 MiB, not
    // the host's memory.
    let notes = d["notes"].to_string();
    assert!(
        notes.contains("cgroup limited to 40 MiB")
            && !notes.contains("can hold the whole data set"),
        "{notes}"
    );
    let share = (table_reads.saturating_sub(dev)) as f64 * 100.0 / table_reads as f64;
    let dbio_share = d["page_cache_pct"].as_f64().unwrap_or(0.0);
    assert!(
        (dbio_share - share).abs() <= 5.0,
        "page cache: dbio {dbio_share:.1} %, from PostgreSQL's and the kernel's counts {share:.1} %"
    );
}

/// dbio's three figures held against what the test reads itself before and after the run:
/// PostgreSQL's blocks read (pg_stat_database, pg_statio_user_tables of dbio's tables) and the
/// reads of the server's own loop device (/proc/diskstats), and the page-cache share from
/// those. The test's window holds dbio's (no ramp: only the operations a session started
/// before the window opened, and the sessions' start-up, fall outside dbio's): within 3 %
/// and 300 blocks.
#[test]
fn three_views_hold_against_postgres_and_the_device() {
    let test = "three_views_hold_against_postgres_and_the_device";
    let fs = match Ext4Loop::make(512 << 20) {
        Ok(f) => f,
        Err(why) => return skip(test, &why.to_string()),
    };
    let pg = match PrivatePostgres::start_in(Some(fs.path()), &[]) {
        Ok(p) => p,
        Err(why) => return skip(test, &why.to_string()),
    };
    let url = pg.url("postgres");
    let (code, out, err) = db_setup(&url, "2", "32MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    // Once loaded, the server's page cache is held under the data set.
    let Some(_cg) = server_in_cgroup(test, &pg, 40 << 20) else {
        return;
    };
    let mut c = pg.client("postgres");
    evict(&pg, &mut c);
    drop(c);
    // A first run fills the cgroup's page cache, so that the measured run starts as it goes
    // on (a cold cache's start, outside dbio's window, would read more from the device).
    run_for(&url, "2s", None);
    pg.wait_sessions_ended().unwrap();
    let mut c = pg.client("postgres");
    let (db0, tables0) = pg_reads(&mut c);
    drop(c);
    let dev0 = device_reads(fs.name());
    let dir = scratch();
    let json = dir.path().join("r.json");
    // 5 s, so that the sessions' start-up and their last operations, outside dbio's window
    // and slower on a loaded machine, stay a small part of the test's count.
    run_for(&url, "5s", Some(&json));
    // The device first: the test's own connections below read catalogs too.
    let dev = device_reads(fs.name()) - dev0;
    pg.wait_sessions_ended().unwrap();
    let mut c = pg.client("postgres");
    let (db1, tables1) = pg_reads(&mut c);
    let own = Counted {
        db_reads: db1 - db0,
        table_reads: tables1 - tables0,
        dev,
    };
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    check_three_views(&v["db"], &own, fs.name());
}

/// `--lock-memory 64MiB` holds 64 MiB locked in dbio's process while the run measures (the
/// kernel's VmLck, read by the test as it runs) and says so in the result; more than the host
/// has is refused with a message.
#[test]
fn lock_memory_holds_memory_locked_while_the_run_measures() {
    let test = "lock_memory_holds_memory_locked_while_the_run_measures";
    let Some(pg) = server(test) else {
        return;
    };
    let url = pg.url("postgres");
    let (code, out, err) = db_setup(&url, "1", "8MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    let dir = scratch();
    let json = dir.path().join("r.json");
    let mut child = dbio_command()
        .args([
            "db",
            "run",
            "--url",
            &url,
            "--duration",
            "2s",
            "--ramp",
            "0s",
            "--lock-memory",
            "64MiB",
            "--no-store",
            "-q",
            "--json",
            json.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The most VmLck seen until the process ends (the wait is bounded by the run's end).
    let mut most = 0;
    while let Some(b) = locked_bytes(&child.id().to_string()) {
        most = most.max(b);
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(child.wait().unwrap().success());
    assert!(most >= 64 << 20, "VmLck at most {most} bytes");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let notes = v["db"]["notes"].to_string();
    assert!(notes.contains("held 64 MiB of memory locked"), "{notes}");
    let (code, _, err) = dbio(&[
        "db",
        "run",
        "--url",
        &url,
        "--duration",
        "1s",
        "--lock-memory",
        "100000TiB",
        "-q",
        "--no-store",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--lock-memory: cannot lock") && !err.contains("panicked"),
        "{err}"
    );
    let (code, _, err) = dbio(&["db", "run", "--url", &url, "--lock-memory", "lots", "-q"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--lock-memory lots"), "{err}");
}
