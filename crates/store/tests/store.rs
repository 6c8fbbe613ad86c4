//! The history against its own promises: results come back byte for byte, concurrent
//! writers lose nothing, an older schema is migrated with its rows kept, and a file that is
//! not a dbio history (or is from a newer dbio) is refused and left untouched.

use dbio_store::{Filter, NewEntry, Store, StoreError, CURRENT_VERSION};
use rusqlite::Connection;
use std::path::Path;

fn entry(label: Option<&str>, profile: &str, iops: f64) -> NewEntry {
    NewEntry {
        kind: "run".into(),
        started_at: "2026-11-22T10:00:00Z".into(),
        label: label.map(Into::into),
        profile: profile.into(),
        targets: "/mnt/data/f".into(),
        host: "db1".into(),
        iops,
        mb_s: iops * 8192.0 / 1e6,
        p99_us: 250.0,
        json: format!("{{\"schema\":\"dbio.run/1\",\"iops\":{iops},\"µ\":\"✓\"}}\n"),
        summary: "dbio run: randread 8 KiB\n  read 1234 IOPS  µs\n".into(),
    }
}

#[test]
fn a_result_comes_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("history.db");
    let s = Store::open(&path).unwrap();
    let e = entry(Some("before"), "oltp", 1234.5);
    let id = s.add(&e).unwrap();
    assert_eq!(s.json(id).unwrap().as_deref(), Some(e.json.as_str()));
    assert_eq!(s.summary(id).unwrap().as_deref(), Some(e.summary.as_str()));
    assert_eq!(s.json(id + 1).unwrap(), None);
    let listed = s.list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].iops, listed[0].host.as_str()), (1234.5, "db1"));
}

#[test]
fn filters_labels_and_nearby_ids() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("h.db")).unwrap();
    let a = s.add(&entry(Some("flash"), "oltp", 1.0)).unwrap();
    let b = s.add(&entry(None, "log", 2.0)).unwrap();
    let c = s.add(&entry(Some("flash"), "oltp", 3.0)).unwrap();
    assert_eq!(s.newest_with_label("flash").unwrap(), Some(c));
    assert_eq!(s.newest_with_label("disk").unwrap(), None);
    let ids = |f: Filter| -> Vec<i64> { s.list(&f).unwrap().iter().map(|e| e.id).collect() };
    assert_eq!(ids(Filter::default()), [c, b, a], "newest first");
    let oltp = Filter {
        profile: Some("oltp".into()),
        ..Filter::default()
    };
    assert_eq!(ids(oltp), [c, a]);
    let since = Filter {
        since: Some("2026-11-23".into()),
        ..Filter::default()
    };
    assert!(ids(since).is_empty());
    let target = Filter {
        target: Some("data".into()),
        limit: Some(2),
        ..Filter::default()
    };
    assert_eq!(ids(target), [c, b]);
    assert_eq!(s.ids_near(100, 2).unwrap(), [b, c]);
}

#[test]
fn concurrent_writers_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.db");
    let writers: Vec<_> = (0..6)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                // Each writer opens its own connection, as separate processes do.
                let s = Store::open(&path).unwrap();
                for i in 0..40 {
                    s.add(&entry(None, &format!("w{w}"), i as f64)).unwrap();
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let s = Store::open(&path).unwrap();
    assert_eq!(s.list(&Filter::default()).unwrap().len(), 240);
}

#[test]
fn an_older_schema_is_migrated_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    let fixture = include_str!("fixtures/history-v1.sql");
    Connection::open(&path)
        .unwrap()
        .execute_batch(fixture)
        .unwrap();
    let s = Store::open(&path).unwrap();
    let version: u32 = Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, CURRENT_VERSION);
    let rows = s.list(&Filter::default()).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1].label.as_deref(), Some("before"));
    assert_eq!(rows[1].host, "", "a column added by the migration");
    assert_eq!(
        s.json(2).unwrap().as_deref(),
        Some("{\"schema\":\"dbio.sweep/1\",\"y\":[1,2]}")
    );
    assert_eq!(
        s.summary(1).unwrap().as_deref(),
        Some("dbio run: old summary 1\n")
    );
    // And it takes new results after the old ones.
    assert_eq!(s.add(&entry(None, "oltp", 5.0)).unwrap(), 3);
}

fn refused_untouched(path: &Path, expect: impl Fn(&StoreError) -> bool) {
    let before = std::fs::read(path).unwrap();
    let e = Store::open(path).err().expect("refused");
    assert!(expect(&e), "{e}");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    assert_eq!(std::fs::read(path).unwrap(), before, "the file was changed");
}

#[test]
fn foreign_corrupt_and_newer_files_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, vec![0x5a; 8192]).unwrap();
    refused_untouched(&junk, |e| matches!(e, StoreError::NotHistory { .. }));

    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    refused_untouched(&other, |e| matches!(e, StoreError::NotHistory { .. }));

    let newer = dir.path().join("newer.db");
    drop(Store::open(&newer).unwrap());
    Connection::open(&newer)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {};", CURRENT_VERSION + 1))
        .unwrap();
    refused_untouched(
        &newer,
        |e| matches!(e, StoreError::Newer { found, .. } if *found == CURRENT_VERSION + 1),
    );
}
