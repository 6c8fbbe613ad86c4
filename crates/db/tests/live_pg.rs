//! Snapshots of a private PostgreSQL (started by the test, never the machine's own): what
//! the load did shows up per object, the WAL is its own object, and bad logins, missing
//! rights and a statistics reset are refused with one line.

use dbio_db::snapshot::delta;
use dbio_db::testkit::{or_skip, PrivatePostgres};
use dbio_model::advise::ObjectKind;

/// Creates hot (2000 pages), cold (1000 pages) and an index on cold's wide column (~1000
/// pages), as the superuser.
pub fn create(pg: &PrivatePostgres) {
    let mut c = pg.client("postgres");
    c.batch_execute(
        "CREATE TABLE hot (id int, pad text);
         CREATE TABLE cold (id int, pad text);
         INSERT INTO hot SELECT i, repeat(md5(i::text), 28) FROM generate_series(1, 16000) i;
         INSERT INTO cold SELECT i, repeat(md5((-i)::text), 28) FROM generate_series(1, 8000) i;
         CREATE INDEX cold_pad ON cold (pad);
         CHECKPOINT;",
    )
    .unwrap();
}

/// Random single-page reads: 6000 of hot, 1000 of cold, 10 lookups through the index.
pub fn load(pg: &PrivatePostgres) {
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
         END $$;",
    )
    .unwrap();
    // A backend hands its counts to the shared statistics at most once a second, or as it
    // exits, after its client has gone: flushed now, before the server says it is ready.
    c.batch_execute("SELECT pg_stat_force_next_flush()")
        .unwrap();
}

#[test]
fn the_load_shows_per_object_and_the_wal_is_its_own() {
    let Some(pg) = or_skip(
        "the_load_shows_per_object_and_the_wal_is_its_own",
        PrivatePostgres::start(),
    ) else {
        return;
    };
    create(&pg);
    let url = pg.url("postgres");
    let mut client = dbio_db::pg::connect(&url).unwrap();
    let before = dbio_db::pg::snapshot(&mut client, &url).unwrap();
    load(&pg);
    let after = dbio_db::pg::snapshot(&mut client, &url).unwrap();
    let d = delta(&before, &after).unwrap();
    let get = |n: &str| {
        d.objects
            .iter()
            .find(|o| o.name.starts_with(n))
            .unwrap_or_else(|| panic!("no {n} in {:?}", d.objects))
    };
    let (hot, cold, idx) = (
        get("public.hot"),
        get("public.cold"),
        get("public.cold_pad"),
    );
    eprintln!("hot {} cold {} index {}", hot.reads, cold.reads, idx.reads);
    assert!(hot.reads > 4000, "hot read {} blocks", hot.reads);
    assert!(cold.reads > 500 && cold.reads < hot.reads);
    assert!(idx.reads > 0 && idx.reads < cold.reads);
    assert_eq!(idx.kind, ObjectKind::Index);
    assert!(hot.size_bytes.unwrap() >= 2000 * 8192);
    assert!(
        hot.read_ms.unwrap() > 0.0,
        "track_io_timing is on: read time is shared out"
    );
    let wal = get("WAL");
    assert_eq!(wal.kind, ObjectKind::Log);
    assert!(wal.size_bytes.unwrap() > 0);
    // The URL's password never reaches the snapshot.
    assert!(!after
        .to_json()
        .contains(dbio_db::testkit::pg_admin_password()));
}

#[test]
fn logins_rights_and_resets_are_one_clear_line() {
    let Some(pg) = or_skip(
        "logins_rights_and_resets_are_one_clear_line",
        PrivatePostgres::start(),
    ) else {
        return;
    };
    let bad = pg.url_as("dbio_admin", "wrong-pw-1", "postgres");
    let e = dbio_db::pg::connect(&bad).err().unwrap().to_string();
    assert!(
        e.contains("refused the login") && !e.contains("wrong-pw-1"),
        "{e}"
    );
    let mut c = pg.client("postgres");
    c.batch_execute("CREATE ROLE plain LOGIN PASSWORD 'plain-pw-9'")
        .unwrap();
    let url = pg.url_as("plain", "plain-pw-9", "postgres");
    let mut pc = dbio_db::pg::connect(&url).unwrap();
    let e = dbio_db::pg::snapshot(&mut pc, &url)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("GRANT pg_monitor") && !e.contains("plain-pw-9"),
        "{e}"
    );
    c.batch_execute("GRANT pg_monitor TO plain").unwrap();
    let before = dbio_db::pg::snapshot(&mut pc, &url).unwrap();
    c.batch_execute("CREATE TABLE t AS SELECT 1 AS a; SELECT * FROM t;")
        .unwrap();
    c.batch_execute("SELECT pg_stat_reset(); SELECT pg_stat_reset_shared('wal');")
        .unwrap();
    pg.end_session(c).unwrap();
    let after = dbio_db::pg::snapshot(&mut pc, &url).unwrap();
    let e = delta(&before, &after).unwrap_err().to_string();
    assert!(e.contains("went backwards"), "{e}");
    let refused = format!("postgres://x:secret-pw@127.0.0.1:{}/postgres", free_port());
    let e = dbio_db::pg::connect(&refused).err().unwrap().to_string();
    assert!(
        e.starts_with("cannot connect to postgres://x:***@127.0.0.1:") && !e.contains("secret-pw"),
        "{e}"
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
