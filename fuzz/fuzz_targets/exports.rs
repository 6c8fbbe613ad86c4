//! The database statistics `dbio advise` reads: exports of every kind (PostgreSQL, MariaDB,
//! SQL Server, Oracle and its AWR, /proc/diskstats, read as `dbio advise FILE` does, detecting
//! the kind), its own `--snapshot` JSON, two exports as before and after, and `--sizes` files.
//! The first byte picks which; then the counts go through the ranking and placement.
#![no_main]

use dbio_analyze::advise::{advise, Latency, Options};
use dbio_db::snapshot::{delta, Counts, Snapshot};
use dbio_model::advise::SourceInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let counted = |s: Snapshot| (s.system.clone(), s.as_counts());
    let counts = match which % 5 {
        0 | 1 => dbio_db::read_export(text, "fuzz.txt", which % 5 == 1).map(counted),
        2 => Snapshot::from_json(text, "fuzz.json").map(counted),
        3 => {
            // Before and after, split at the first line of "====".
            let (a, b) = text.split_once("\n====\n").unwrap_or((text, text));
            match (
                dbio_db::read_export(a, "a.txt", false),
                dbio_db::read_export(b, "b.txt", false),
            ) {
                (Ok(a), Ok(b)) => delta(&a, &b).map(|c| (b.system, c)),
                _ => return,
            }
        }
        _ => {
            // A sizes file, then an export whose objects it sizes, split as above.
            let (s, e) = text.split_once("\n====\n").unwrap_or((text, ""));
            let (Ok(sizes), Ok(snap)) = (
                dbio_db::sizes::parse(s, "sizes.csv"),
                dbio_db::read_export(e, "e.txt", false),
            ) else {
                return;
            };
            let mut c = snap.as_counts();
            dbio_db::sizes::apply(&mut c.objects, &sizes);
            Ok((snap.system, c))
        }
    };
    if let Ok((system, c)) = counts {
        rank(system, c);
    }
});

/// What `dbio advise` does with the counts: rank, and place within a budget.
fn rank(system: String, c: Counts) {
    let own = c.io_wait.filter(|w| w.busy_ms > 0.0).map(|w| {
        let share = (w.io_ms / w.busy_ms).clamp(0.0, 1.0);
        (share, "the database's own figure".to_string())
    });
    let o = Options {
        budget: Some(100 << 30),
        latency: Latency::Assumed { flash_ms: 0.2 },
        io_wait_share: own,
    };
    let source = SourceInfo {
        system,
        name: "fuzz".into(),
        interval_secs: c.secs,
        since_start: c.since_start,
    };
    let r = advise(&c.objects, source, c.notes.clone(), String::new(), &o);
    let _ = dbio_report::advise::summary(&r, 20);
}
