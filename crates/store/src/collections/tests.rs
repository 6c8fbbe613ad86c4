//! The store's side of collections: roll-ups keep every count.

use super::*;
use dbio_model::collect::{DbIo, DeviceIo};

fn info() -> CollectionInfo {
    CollectionInfo {
        name: "c".into(),
        system: "postgresql".into(),
        source: "postgres://u@h/db".into(),
        host: "h".into(),
        interval_s: 60.0,
        duration_s: None,
        devices: vec!["sda".into()],
        started_at: "2026-12-01T00:00:00Z".into(),
        from_exports: false,
    }
}

/// Sample `i` of a 60 s collection: object a reads i, b reads 1 every other interval.
fn sample(i: u64) -> Sample {
    let mut a = ObjectIo::new("a", ObjectKind::Data);
    (a.reads, a.size_bytes) = (i, Some(1000 + i));
    let mut objects = vec![a];
    if i.is_multiple_of(2) {
        let mut b = ObjectIo::new("b", ObjectKind::Index);
        b.reads = 1;
        objects.push(b);
    }
    Sample {
        t_ms: 1_796_083_200_000 + i * 60_000,
        secs: 60.0,
        devices: vec![DeviceIo {
            name: "sda".into(),
            reads: i,
            busy_ms: 1000,
            ..Default::default()
        }],
        host_cpu: Some(if i.is_multiple_of(2) { 0.2 } else { 0.4 }),
        server_cpu: None,
        db: Some(DbIo {
            secs: 60.0,
            objects,
            io_wait: None,
            query_ms: 1.0,
        }),
        events: if i == 7 {
            vec!["reset".into()]
        } else {
            Vec::new()
        },
    }
}

/// Samples older than a day before the newest become 10-minute sums, with every count,
/// the time covered and the events kept; the last day stays whole.
#[test]
fn older_samples_are_rolled_into_ten_minute_sums() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("h.db")).unwrap();
    let mut w = s.create_collection(&info()).unwrap();
    let n = 26 * 60;
    for i in 1..=n {
        s.add_sample(&mut w, &sample(i), None).unwrap();
    }
    let mut kept = Vec::new();
    s.each_sample(w.id(), |x| kept.push(x)).unwrap();
    // The first 2 hours are 12 sums of 10 samples; the 24 hours after stay whole.
    let rolled = kept.iter().filter(|x| x.secs > 60.0).count();
    assert_eq!(rolled, 12);
    assert_eq!(kept.len() as u64, 12 + (n - 120));
    assert!(kept[..12].iter().all(|x| x.secs == 600.0));
    let reads = |name: &str| -> u64 {
        kept.iter()
            .flat_map(|x| &x.db.as_ref().unwrap().objects)
            .filter(|o| o.name == name)
            .map(|o| o.reads)
            .sum()
    };
    assert_eq!(reads("a"), n * (n + 1) / 2);
    assert_eq!(reads("b"), n / 2);
    let dev: u64 = kept.iter().map(|x| x.devices[0].reads).sum();
    assert_eq!(dev, n * (n + 1) / 2);
    assert!((kept[0].host_cpu.unwrap() - 0.3).abs() < 1e-12);
    assert_eq!(kept[0].events, ["reset"]);
    assert_eq!(
        kept[0].db.as_ref().unwrap().objects[0].size_bytes,
        Some(1010)
    );
    let secs: f64 = kept.iter().map(|x| x.secs).sum();
    assert_eq!(secs, n as f64 * 60.0);
}
