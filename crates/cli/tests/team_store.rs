//! The history in a team's PostgreSQL server (`--db postgres://…`, `DBIO_DB`), on a private
//! server the test starts: results stored and read back as from the file, 8 processes
//! storing at once losing nothing, a schema that is not dbio's or is newer refused and left
//! as it is, a server that is down a warning (the JSON still written), a collection stored
//! there, roll-ups included, and a history moved between a file and the server both ways.

mod common;

use common::{dbio_command, scratch};
use dbio_db::testkit::{or_skip, PrivatePostgres};
use serde_json::Value;
use std::path::Path;

/// Runs dbio with `args` and `--db db`: (status, stdout, stderr).
fn dbio_db(db: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command()
        .args(args)
        .args(["--db", db])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn sim_run(label: &str) -> Vec<String> {
    [
        "run", "--engine", "sim", "--ops", "2000", "-q", "--label", label,
    ]
    .map(String::from)
    .to_vec()
}

/// A fresh database `name` on the server, and its URL.
fn database(pg: &PrivatePostgres, name: &str) -> String {
    let mut c = pg.client("postgres");
    c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    pg.url(name)
}

fn labels(db: &str) -> Vec<String> {
    let (code, out, err) = dbio_db(db, &["history", "--limit", "1000"]);
    assert_eq!(code, Some(0), "{err}");
    let mut l: Vec<String> = out
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .find(|w| w.starts_with("p-") || w.starts_with("lite-"))
        })
        .map(str::to_string)
        .collect();
    l.sort();
    l
}

#[test]
fn a_team_store_in_postgresql_keeps_what_the_file_keeps() {
    let Some(pg) = or_skip("team store", PrivatePostgres::start()) else {
        return;
    };
    let dir = scratch();
    let url = database(&pg, "team");
    let pw = dbio_db::testkit::pg_admin_password();
    // One result: stored, listed, shown and exported as it was printed and written.
    let json = dir.path().join("r.json");
    let mut args = sim_run("p-first");
    args.extend(["--json".into(), json.display().to_string()]);
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = dbio_db(&url, &argv);
    assert_eq!(code, Some(0), "{err}");
    assert!(!err.contains(pw), "{err}");
    let (code, out, _) = dbio_db(&url, &["export", "p-first"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, std::fs::read_to_string(&json).unwrap());
    // A sweep's JSON goes to the server as a stream (COPY): exported byte for byte.
    let sweep = dir.path().join("s.json");
    let (code, _, err) = dbio_db(
        &url,
        &[
            "sweep",
            "--vary",
            "qd=1,2",
            "--engine",
            "sim",
            "--ops",
            "1000",
            "-q",
            "--label",
            "p-sweep",
            "--json",
            sweep.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = dbio_db(&url, &["export", "p-sweep"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, std::fs::read_to_string(&sweep).unwrap());
    // Eight processes at once, through DBIO_DB: every result kept.
    let children: Vec<_> = (0..8)
        .map(|i| {
            dbio_command()
                .args(sim_run(&format!("p-{i}")))
                .env("DBIO_DB", &url)
                .output()
        })
        .collect();
    for c in children {
        let c = c.unwrap();
        assert!(c.status.success(), "{}", String::from_utf8_lossy(&c.stderr));
    }
    let mut want: Vec<String> = (0..8).map(|i| format!("p-{i}")).collect();
    want.extend(["p-first".into(), "p-sweep".into()]);
    let (_, listed, _) = dbio_db(&url, &["history"]);
    assert_eq!(labels(&url), want, "{listed}");
    assert_all_at_once(&url);
    refusals(&pg, dir.path());
    moved_both_ways(&url, dir.path());
}

/// Eight dbio processes started together (not one after another) storing into one store.
fn assert_all_at_once(url: &str) {
    let kids: Vec<_> = (0..8)
        .map(|i| {
            dbio_command()
                .args(sim_run(&format!("p-together-{i}")))
                .env("DBIO_DB", url)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut k in kids {
        assert!(k.wait().unwrap().success());
    }
    for i in 0..8 {
        let (code, out, err) = dbio_db(url, &["export", &format!("p-together-{i}")]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("\"schema\""));
    }
}

/// A schema that is not dbio's, or a newer one, is refused and left as it is; a server that
/// is down is a warning, and the run's JSON is still written.
fn refusals(pg: &PrivatePostgres, dir: &Path) {
    let other = database(pg, "other");
    let mut c = pg.client("other");
    c.batch_execute("CREATE SCHEMA dbio; CREATE TABLE dbio.x (i int)")
        .unwrap();
    let (code, _, err) = dbio_db(&other, &["history"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("not dbio's history") && !err.contains(dbio_db::testkit::pg_admin_password()),
        "{err}"
    );
    let tables: i64 = c
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'dbio'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "the other schema was changed");
    let newer = database(pg, "newer");
    let (code, _, err) = dbio_db(
        &newer,
        &sim_run("p-newer")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, Some(0), "{err}");
    pg.client("newer")
        .batch_execute("UPDATE dbio.meta SET value = '99' WHERE key = 'schema_version'")
        .unwrap();
    let (code, _, err) = dbio_db(&newer, &["history"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("newer dbio (schema version 99"), "{err}");
    // Nothing listens on the port of a server that is gone.
    let gone = format!("postgres://dbio:secret-pw-1@127.0.0.1:{}/x", pg.port() + 1);
    let json = dir.join("down.json");
    let mut args = sim_run("p-down");
    args.extend(["--json".into(), json.display().to_string()]);
    let (code, _, err) = dbio_db(&gone, &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning") && err.contains("not stored") && !err.contains("secret-pw-1"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&json)
        .unwrap()
        .contains("\"schema\""));
}

/// A file's history (results and a collection) exported to the server, then imported from
/// the server into a new file: the same results, the same collection report.
fn moved_both_ways(url: &str, dir: &Path) {
    let lite = dir.join("lite.db").display().to_string();
    for l in ["lite-a", "lite-b"] {
        let (code, _, err) = dbio_db(
            &lite,
            &sim_run(l).iter().map(String::as_str).collect::<Vec<_>>(),
        );
        assert_eq!(code, Some(0), "{err}");
    }
    let exports = dir.join("exports");
    std::fs::create_dir(&exports).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/advise_fixtures");
    for (i, f) in ["dmv_before.csv", "dmv_after.csv"].iter().enumerate() {
        let to = exports.join(f);
        std::fs::copy(fixtures.join(f), &to).unwrap();
        let t = std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::from_secs(1_796_083_200 + 600 * i as u64);
        std::fs::File::options()
            .write(true)
            .open(&to)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }
    let e = exports.display().to_string();
    let (code, _, err) = dbio_db(&lite, &["collect", "--exports", &e, "--name", "sql"]);
    assert_eq!(code, Some(0), "{err}");
    // The same folder straight into the team store: collections work there too.
    let (code, _, err) = dbio_db(url, &["collect", "--exports", &e, "--name", "sql-direct"]);
    assert_eq!(code, Some(0), "{err}");
    let report = |db: &str, name: &str| -> Value {
        let (code, out, err) = dbio_db(db, &["collect", "--report", name, "--json", "-"]);
        assert_eq!(code, Some(0), "{err}");
        serde_json::from_str(&out).unwrap()
    };
    let (code, _, err) = dbio_db(&lite, &["history", "--export-to", url]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("copied 2 results and 1 collections"), "{err}");
    assert!(
        !err.contains(dbio_db::testkit::pg_admin_password()),
        "{err}"
    );
    assert_eq!(report(url, "sql"), report(&lite, "sql"));
    // Again: nothing copied twice.
    let before = labels(url);
    let (code, _, err) = dbio_db(&lite, &["history", "--export-to", url]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("copied 0 results and 0 collections")
            && err.contains("2 results already there")
            && err.contains("collections already there, left as they were: sql"),
        "{err}"
    );
    assert_eq!(labels(url), before);
    assert_eq!(
        report(url, "sql")["objects"],
        report(url, "sql-direct")["objects"]
    );
    let back = dir.join("back.db").display().to_string();
    let (code, _, err) = dbio_db(&back, &["history", "--import-from", url]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(labels(&back), labels(url));
    assert_eq!(report(&back, "sql"), report(&lite, "sql"));
    let (_, a, _) = dbio_db(&lite, &["export", "lite-a"]);
    let (_, b, _) = dbio_db(&back, &["export", "lite-a"]);
    assert_eq!(a, b, "a result's JSON moved byte for byte");
}

/// Samples older than a day are rolled into 10-minute sums in the server as in the file:
/// every count and second kept.
#[test]
fn a_team_store_rolls_old_samples_up_keeping_every_count() {
    use dbio_model::advise::{ObjectIo, ObjectKind};
    use dbio_model::collect::{CollectionInfo, DbIo, Sample};
    let Some(pg) = or_skip("team store roll-up", PrivatePostgres::start()) else {
        return;
    };
    let url = database(&pg, "rolls");
    let store = dbio_store::Store::open_url(&url, true).unwrap().unwrap();
    let info = CollectionInfo {
        name: "week".into(),
        system: "postgresql".into(),
        source: "postgres://u@h/db".into(),
        host: "h".into(),
        interval_s: 60.0,
        duration_s: None,
        devices: Vec::new(),
        started_at: "2026-12-01T00:00:00Z".into(),
        from_exports: false,
    };
    let mut w = store.create_collection(&info).unwrap();
    let n = 25 * 60u64;
    for i in 1..=n {
        let mut o = ObjectIo::new("t", ObjectKind::Data);
        o.reads = i;
        let s = Sample {
            t_ms: 1_796_083_200_000 + i * 60_000,
            secs: 60.0,
            devices: Vec::new(),
            host_cpu: None,
            server_cpu: None,
            db: Some(DbIo {
                secs: 60.0,
                objects: vec![o],
                io_wait: None,
                query_ms: 1.0,
            }),
            events: Vec::new(),
        };
        store.add_sample(&mut w, &s, None).unwrap();
    }
    let mut kept = Vec::new();
    store.each_sample(w.id(), |s| kept.push(s)).unwrap();
    assert_eq!(
        kept.len() as u64,
        6 + (n - 60),
        "an hour as six sums, the last day whole"
    );
    let reads: u64 = kept
        .iter()
        .map(|s| s.db.as_ref().unwrap().objects[0].reads)
        .sum();
    assert_eq!(reads, n * (n + 1) / 2);
    assert_eq!(kept.iter().map(|s| s.secs).sum::<f64>(), n as f64 * 60.0);
}
