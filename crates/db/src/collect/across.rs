//! The difference of two snapshots of a collection, which must go on across a restart of
//! the server or a reset of its statistics: an object whose counters went backwards counts
//! from zero again (its counts after the reset, which lies inside the interval), and a
//! restart that lost the statistics, or a reset of them all, makes every object count from
//! zero. What happened is said as an event; nothing is refused.

use crate::snapshot::{IoWait, Pool, Snapshot};
use dbio_model::advise::ObjectIo;
use std::collections::{HashMap, HashSet};

/// The counts of one interval, and what a reader must know about them.
pub struct Across {
    pub objects: Vec<ObjectIo>,
    pub io_wait: Option<IoWait>,
    /// A restart or reset inside the interval, said in one line.
    pub event: Option<String>,
}

/// What `after` counted since `before`, across restarts and resets.
pub fn delta_across(before: &Snapshot, after: &Snapshot) -> Across {
    let restarted = before.server_started != after.server_started
        || matches!((before.counting_ms, after.counting_ms), (Some(a), Some(b)) if b < a);
    let was: HashMap<&str, &ObjectIo> = before
        .objects
        .iter()
        .map(|o| (o.name.as_str(), o))
        .collect();
    let back: HashSet<&str> = after
        .objects
        .iter()
        .filter(|o| was.get(o.name.as_str()).is_some_and(|b| went_back(b, o)))
        .map(|o| o.name.as_str())
        .collect();
    let reset = before.counters_since != after.counters_since;
    // A restart that kept the statistics (PostgreSQL 15 writes them out at a clean
    // shutdown) leaves every counter at least where it was.
    let all = reset || (restarted && !back.is_empty());
    let objects = after
        .objects
        .iter()
        .map(|o| match was.get(o.name.as_str()) {
            Some(b) if !all && !back.contains(o.name.as_str()) => minus(o, b),
            _ => o.clone(),
        })
        .collect();
    let pool = match (before.read_time_pool, after.read_time_pool) {
        (Some(a), Some(b)) if !all && b.blocks >= a.blocks && b.ms >= a.ms => Some(Pool {
            blocks: b.blocks - a.blocks,
            ms: b.ms - a.ms,
        }),
        (_, b) => b,
    };
    let io_wait = match (before.io_wait, after.io_wait) {
        (Some(a), Some(b)) if !all && b.io_ms >= a.io_ms && b.busy_ms >= a.busy_ms => {
            Some(IoWait {
                io_ms: b.io_ms - a.io_ms,
                busy_ms: b.busy_ms - a.busy_ms,
            })
        }
        (_, b) => b,
    };
    let event = if restarted && all {
        Some(format!(
            "the server restarted in this interval (started {}) and its statistics started again: this interval counts from the restart",
            after.server_started.as_deref().unwrap_or("at an unknown time")
        ))
    } else if restarted {
        Some(format!(
            "the server restarted in this interval (started {}) and kept its statistics",
            after
                .server_started
                .as_deref()
                .unwrap_or("at an unknown time")
        ))
    } else if reset {
        Some("the database's statistics were reset in this interval: every object counts from the reset".to_string())
    } else if !back.is_empty() {
        Some(format!(
            "the statistics of {} object(s) were reset in this interval and count from the reset: {}",
            back.len(),
            {
                let mut names: Vec<&str> = back.iter().copied().collect();
                names.sort_unstable();
                names.truncate(5);
                names.join(", ")
            }
        ))
    } else {
        None
    };
    Across {
        objects: crate::snapshot::shared_out(objects, pool),
        io_wait,
        event,
    }
}

/// Whether any of `after`'s counters is below `before`'s.
fn went_back(before: &ObjectIo, after: &ObjectIo) -> bool {
    let f = |x: Option<f64>, y: Option<f64>| matches!((x, y), (Some(x), Some(y)) if x + 1e-6 < y);
    after.reads < before.reads
        || after.writes < before.writes
        || after.bytes_read < before.bytes_read
        || after.bytes_written < before.bytes_written
        || f(after.read_ms, before.read_ms)
        || f(after.write_ms, before.write_ms)
        || f(after.stall_ms, before.stall_ms)
}

/// `a − b`, every counter at least `b`'s (checked by the caller); the size is `a`'s.
fn minus(a: &ObjectIo, b: &ObjectIo) -> ObjectIo {
    let f = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => Some((x - y).max(0.0)),
        (x, _) => x,
    };
    ObjectIo {
        name: a.name.clone(),
        kind: a.kind,
        size_bytes: a.size_bytes,
        reads: a.reads - b.reads,
        writes: a.writes - b.writes,
        bytes_read: a.bytes_read - b.bytes_read,
        bytes_written: a.bytes_written - b.bytes_written,
        read_ms: f(a.read_ms, b.read_ms),
        write_ms: f(a.write_ms, b.write_ms),
        stall_ms: f(a.stall_ms, b.stall_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::advise::ObjectKind;

    fn snap(started: &str, reset: Option<&str>, objs: &[(&str, u64)]) -> Snapshot {
        let mut s = Snapshot::new("postgresql", "x");
        s.server_started = Some(started.into());
        s.counters_since = reset.map(str::to_string);
        for (n, r) in objs {
            let mut o = ObjectIo::new(*n, ObjectKind::Data);
            o.reads = *r;
            s.objects.push(o);
        }
        s
    }

    fn reads(a: &Across) -> Vec<u64> {
        a.objects.iter().map(|o| o.reads).collect()
    }

    #[test]
    fn plain_intervals_subtract() {
        let a = delta_across(
            &snap("t0", None, &[("a", 10), ("b", 5)]),
            &snap("t0", None, &[("a", 25), ("b", 5), ("c", 3)]),
        );
        assert_eq!(reads(&a), [15, 0, 3]);
        assert!(a.event.is_none());
    }

    #[test]
    fn one_object_reset_counts_from_its_reset() {
        let a = delta_across(
            &snap("t0", None, &[("a", 10), ("b", 50)]),
            &snap("t0", None, &[("a", 25), ("b", 7)]),
        );
        assert_eq!(reads(&a), [15, 7]);
        assert!(a.event.unwrap().contains("1 object(s)"));
    }

    #[test]
    fn a_reset_of_all_counts_every_object_from_it() {
        // b read more after the reset than before it: only the reset time tells.
        let a = delta_across(
            &snap("t0", None, &[("a", 10), ("b", 5)]),
            &snap("t0", Some("r1"), &[("a", 2), ("b", 9)]),
        );
        assert_eq!(reads(&a), [2, 9]);
        assert!(a.event.unwrap().contains("were reset"));
    }

    #[test]
    fn restarts_with_and_without_the_statistics() {
        let lost = delta_across(
            &snap("t0", None, &[("a", 10), ("b", 5)]),
            &snap("t1", None, &[("a", 2), ("b", 9)]),
        );
        assert_eq!(reads(&lost), [2, 9]);
        assert!(lost.event.unwrap().contains("started again"));
        let kept = delta_across(
            &snap("t0", None, &[("a", 10), ("b", 5)]),
            &snap("t1", None, &[("a", 12), ("b", 9)]),
        );
        assert_eq!(reads(&kept), [2, 4]);
        assert!(kept.event.unwrap().contains("kept its statistics"));
    }
}
