//! Snapshots of a private MariaDB (started by the test, never the machine's own): the load
//! shows per table file, the redo log is its own object, and bad logins, missing rights,
//! performance_schema off and a truncated summary are refused with one line.

use dbio_db::snapshot::delta;
use dbio_db::testkit::{or_skip, PrivateMariaDb};
use dbio_model::advise::ObjectKind;
use mysql::prelude::Queryable;

/// Creates shop.hot (20 000 rows of ~900 bytes) and shop.cold (10 000), as root.
pub fn create(m: &PrivateMariaDb) {
    let mut c = m.conn();
    c.query_drop(
        "CREATE DATABASE shop;
         USE shop;
         CREATE TABLE shop.hot (id INT PRIMARY KEY, pad VARCHAR(1000)) ENGINE=InnoDB;
         CREATE TABLE shop.cold (id INT PRIMARY KEY, pad VARCHAR(1000), k INT, KEY (k)) ENGINE=InnoDB;
         INSERT INTO shop.hot SELECT seq, REPEAT(MD5(seq), 28) FROM seq_1_to_20000;
         INSERT INTO shop.cold SELECT seq, REPEAT(MD5(-seq), 28), seq FROM seq_1_to_10000;",
    )
    .unwrap();
}

/// Random primary-key reads: 3000 of hot, 300 of cold.
pub fn load(m: &PrivateMariaDb) {
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
    for _ in 0..300 {
        let _: Option<String> = c
            .exec_first("SELECT pad FROM shop.cold WHERE id = ?", (next(10_000),))
            .unwrap();
    }
}

#[test]
fn the_load_shows_per_table_and_the_redo_is_its_own() {
    let Some(m) = or_skip(
        "the_load_shows_per_table_and_the_redo_is_its_own",
        PrivateMariaDb::start(),
    ) else {
        return;
    };
    create(&m);
    let url = m.url();
    let mut c = dbio_db::mariadb::connect(&url).unwrap();
    let before = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    load(&m);
    let after = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    let d = delta(&before, &after).unwrap();
    let get = |n: &str| {
        d.objects
            .iter()
            .find(|o| o.name == n)
            .unwrap_or_else(|| panic!("no {n} in {:?}", d.objects))
    };
    let (hot, cold) = (get("shop.hot"), get("shop.cold"));
    eprintln!(
        "hot {} reads {:?} ms, cold {} reads {:?} ms",
        hot.reads, hot.read_ms, cold.reads, cold.read_ms
    );
    assert!(hot.reads > 1500, "hot read {} times", hot.reads);
    assert!(cold.reads * 3 < hot.reads);
    assert!(hot.size_bytes.unwrap() > 15 << 20);
    assert!(hot.read_ms.unwrap() > 0.0);
    let redo = get("InnoDB redo log");
    assert_eq!(redo.kind, ObjectKind::Log);
    assert!(redo.size_bytes.unwrap() > 0);
}

#[test]
fn logins_rights_and_truncation_are_one_clear_line() {
    let Some(m) = or_skip(
        "logins_rights_and_truncation_are_one_clear_line",
        PrivateMariaDb::start(),
    ) else {
        return;
    };
    let e = dbio_db::mariadb::connect(&m.url_as("root", "wrong-pw-2"))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("refused the login") && !e.contains("wrong-pw-2"),
        "{e}"
    );
    let mut root = m.conn();
    root.query_drop("CREATE USER plain@'127.0.0.1' IDENTIFIED BY 'plain-pw-8'")
        .unwrap();
    let url = m.url_as("plain", "plain-pw-8");
    let mut pc = dbio_db::mariadb::connect(&url).unwrap();
    let e = dbio_db::mariadb::snapshot(&mut pc, &url)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("GRANT SELECT ON performance_schema.*") && !e.contains("plain-pw-8"),
        "{e}"
    );
    let url = m.url();
    let mut c = dbio_db::mariadb::connect(&url).unwrap();
    let before = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    root.query_drop("CREATE DATABASE d; USE d; CREATE TABLE d.t (a INT); INSERT INTO d.t VALUES (1); FLUSH TABLES;").unwrap();
    root.query_drop("TRUNCATE TABLE performance_schema.file_summary_by_instance")
        .unwrap();
    let after = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    let e = delta(&before, &after).unwrap_err().to_string();
    assert!(e.contains("went backwards"), "{e}");
    // dbio's session is read-only: it could not write even if it tried.
    assert!(c.query_drop("CREATE DATABASE nope").is_err());
}

#[test]
fn performance_schema_off_says_how_to_turn_it_on() {
    let Some(m) = or_skip(
        "performance_schema_off_says_how_to_turn_it_on",
        PrivateMariaDb::start_with(false),
    ) else {
        return;
    };
    let url = m.url();
    let mut c = dbio_db::mariadb::connect(&url).unwrap();
    let e = dbio_db::mariadb::snapshot(&mut c, &url)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("performance_schema is OFF")
            && e.contains("performance_schema = ON under [mysqld]"),
        "{e}"
    );
}

/// A user without PROCESS may read performance_schema but not InnoDB's tablespace list: the
/// snapshot says so (ERROR 1227, the grant to give) instead of showing every size as ?.
#[test]
fn a_user_without_process_is_told_why_sizes_are_missing() {
    let Some(m) = or_skip(
        "a_user_without_process_is_told_why_sizes_are_missing",
        PrivateMariaDb::start(),
    ) else {
        return;
    };
    create(&m);
    let mut root = m.conn();
    root.query_drop(
        "CREATE USER mon@'127.0.0.1' IDENTIFIED BY 'mon-pw-3';
         GRANT SELECT ON performance_schema.* TO mon@'127.0.0.1'",
    )
    .unwrap();
    let url = m.url_as("mon", "mon-pw-3");
    let mut c = dbio_db::mariadb::connect(&url).unwrap();
    let s = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    let hot = s.objects.iter().find(|o| o.name == "shop.hot").unwrap();
    assert_eq!(hot.size_bytes, None, "{:?}", hot);
    let note = s.notes.iter().find(|n| n.contains("PROCESS"));
    assert!(
        note.is_some_and(|n| n.contains("1227") && n.contains("GRANT PROCESS")),
        "{:?}",
        s.notes
    );
    // With the grant, the sizes are there and the note is gone.
    root.query_drop("GRANT PROCESS ON *.* TO mon@'127.0.0.1'")
        .unwrap();
    let mut c = dbio_db::mariadb::connect(&url).unwrap();
    let s = dbio_db::mariadb::snapshot(&mut c, &url).unwrap();
    let hot = s.objects.iter().find(|o| o.name == "shop.hot").unwrap();
    assert!(hot.size_bytes.is_some_and(|b| b > 1 << 20), "{:?}", hot);
    assert!(
        !s.notes.iter().any(|n| n.contains("PROCESS")),
        "{:?}",
        s.notes
    );
}
