//! A snapshot of a source's cumulative counters, and the delta of two: what the objects
//! did between them. A counter that went backwards means a restart or a reset, and is
//! refused rather than turned into nonsense.

use crate::error::DbError;
use dbio_model::advise::{ObjectIo, ObjectKind};
use serde::{Deserialize, Serialize};

/// Identifier and version of the snapshot file format (`--snapshot FILE`).
pub const SNAPSHOT_SCHEMA: &str = "dbio.advise-snapshot/1";

/// Largest sum over a snapshot's objects of one counter (reads, writes, bytes, sizes).
pub const MAX_TOTAL: u64 = 1 << 62;

/// Cumulative counters of every object of one source at one moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Always [`SNAPSHOT_SCHEMA`].
    pub schema: String,
    /// postgresql, mariadb, sqlserver, oracle, oracle-awr or diskstats.
    pub system: String,
    /// The URL without its password, or the file read.
    pub source: String,
    /// Unix time of the snapshot in ms, when known (live sources).
    pub taken_at_ms: Option<u64>,
    /// How long the counters have been counting in ms (uptime, sample_ms), when known.
    pub counting_ms: Option<u64>,
    /// When the server started, as it says; a change means the counters restarted.
    pub server_started: Option<String>,
    /// When the source's statistics were last reset, as it says (PostgreSQL's
    /// pg_stat_database.stats_reset); a change means every counter started again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters_since: Option<String>,
    /// True when the counters are already a delta (an AWR section covers its snapshots).
    pub is_delta: bool,
    pub objects: Vec<ObjectIo>,
    /// The server's own time waiting on I/O and time busy (ms), cumulative, for the share
    /// of time spent waiting on I/O.
    pub io_wait: Option<IoWait>,
    /// Read time the source keeps for all objects together (PostgreSQL's per database),
    /// shared out over the objects by blocks read once the interval is known.
    pub read_time_pool: Option<Pool>,
    /// What the reader should know about these figures.
    pub notes: Vec<String>,
}

/// Blocks read and their read time (ms), cumulative, of a whole database.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    pub blocks: u64,
    pub ms: f64,
}

/// Time spent waiting on I/O and time spent busy, cumulative (ms).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IoWait {
    pub io_ms: f64,
    pub busy_ms: f64,
}

impl Snapshot {
    /// An empty snapshot of `system` read from `source`.
    pub fn new(system: &str, source: &str) -> Snapshot {
        Snapshot {
            schema: SNAPSHOT_SCHEMA.into(),
            system: system.into(),
            source: source.into(),
            taken_at_ms: None,
            counting_ms: None,
            server_started: None,
            counters_since: None,
            is_delta: false,
            objects: Vec::new(),
            io_wait: None,
            read_time_pool: None,
            notes: Vec::new(),
        }
    }

    /// The snapshot if its counters add up to what a server can count (each sum over the
    /// objects at most [`MAX_TOTAL`]), else a message naming the file and the counter: larger
    /// figures are not a server's, and their sums would overflow.
    pub fn checked(self, file: &str) -> Result<Snapshot, DbError> {
        type Counter = fn(&ObjectIo) -> u64;
        let fields: [(&str, Counter); 5] = [
            ("reads", |o| o.reads),
            ("writes", |o| o.writes),
            ("bytes read", |o| o.bytes_read),
            ("bytes written", |o| o.bytes_written),
            ("sizes", |o| o.size_bytes.unwrap_or(0)),
        ];
        for (what, f) in fields {
            let total = self.objects.iter().try_fold(0u64, |sum, o| {
                sum.checked_add(f(o)).filter(|t| *t <= MAX_TOTAL)
            });
            if total.is_none() {
                return Err(DbError::export(
                    file,
                    format!(
                        "the {what} of its objects add up to more than 2^62; no server counts that much, so this is not an export of one (or it is damaged)"
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// Reads a snapshot written by `dbio advise --snapshot`.
    pub fn from_json(text: &str, file: &str) -> Result<Snapshot, DbError> {
        let s: Snapshot = serde_json::from_str(text)
            .map_err(|e| DbError::export(file, format!("not a dbio advise snapshot ({e})")))?;
        if s.schema != SNAPSHOT_SCHEMA {
            return Err(DbError::export(
                file,
                format!(
                    "snapshot format {} is not {SNAPSHOT_SCHEMA}; take the snapshot again with this dbio",
                    s.schema
                ),
            ));
        }
        s.checked(file)
    }

    /// The snapshot as JSON for `--snapshot FILE`.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a snapshot always serialises");
        s.push('\n');
        s
    }

    /// The counts as they stand (from the server's start, or the section's own interval),
    /// with the seconds they cover (0 when unknown).
    pub fn as_counts(&self) -> Counts {
        Counts {
            objects: shared_out(self.objects.clone(), self.read_time_pool),
            secs: self.counting_ms.unwrap_or(0) as f64 / 1000.0,
            since_start: !self.is_delta,
            io_wait: self.io_wait,
            notes: self.notes.clone(),
        }
    }
}

/// What objects did over an interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    pub objects: Vec<ObjectIo>,
    /// Seconds covered; 0 when the source does not say.
    pub secs: f64,
    /// True when the counts run from the server's start.
    pub since_start: bool,
    pub io_wait: Option<IoWait>,
    pub notes: Vec<String>,
}

/// What happened between `before` and `after`: counters subtracted object by object.
pub fn delta(before: &Snapshot, after: &Snapshot) -> Result<Counts, DbError> {
    if before.system != after.system {
        return Err(DbError::delta(format!(
            "the snapshots come from different systems ({} and {}); give two of the same source",
            before.system, after.system
        )));
    }
    if before.is_delta || after.is_delta {
        return Err(DbError::delta(
            "an AWR section is already the difference of two AWR snapshots; give one section alone",
        ));
    }
    if let (Some(a), Some(b)) = (&before.server_started, &after.server_started) {
        if a != b {
            return Err(DbError::delta(
                format!(
                    "the server restarted between the snapshots (started {a}, then {b}), so its counters started again; take a new first snapshot"
                ),
            ));
        }
    }
    if let (Some(a), Some(b)) = (before.counting_ms, after.counting_ms) {
        if b < a {
            return Err(DbError::delta(
                format!(
                    "the second snapshot counts over less time ({} s) than the first ({} s): the server restarted between them (or they are in the wrong order), so its counters started again; take a new first snapshot",
                    b / 1000,
                    a / 1000
                ),
            ));
        }
    }
    let mut notes = after.notes.clone();
    let mut objects = Vec::with_capacity(after.objects.len());
    let mut new = 0;
    for o in &after.objects {
        match before.objects.iter().find(|b| b.name == o.name) {
            Some(b) => objects.push(minus(o, b)?),
            None => {
                new += 1;
                objects.push(o.clone());
            }
        }
    }
    if new > 0 {
        notes.push(format!(
            "{new} object(s) appeared between the snapshots and are counted from zero"
        ));
    }
    let secs = match (
        before.taken_at_ms,
        after.taken_at_ms,
        before.counting_ms,
        after.counting_ms,
    ) {
        (Some(a), Some(b), _, _) if b > a => (b - a) as f64 / 1000.0,
        (_, _, Some(a), Some(b)) if b > a => (b - a) as f64 / 1000.0,
        _ => 0.0,
    };
    let io_wait = match (before.io_wait, after.io_wait) {
        (Some(a), Some(b)) if b.io_ms >= a.io_ms && b.busy_ms >= a.busy_ms => Some(IoWait {
            io_ms: b.io_ms - a.io_ms,
            busy_ms: b.busy_ms - a.busy_ms,
        }),
        _ => None,
    };
    let pool = match (before.read_time_pool, after.read_time_pool) {
        (Some(a), Some(b)) if b.blocks >= a.blocks && b.ms >= a.ms => Some(Pool {
            blocks: b.blocks - a.blocks,
            ms: b.ms - a.ms,
        }),
        (Some(_), Some(_)) => return Err(DbError::delta(
            "the database's blocks read or read time went backwards between the snapshots: its statistics were reset or the server restarted; take a new first snapshot",
        )),
        _ => None,
    };
    Ok(Counts {
        objects: shared_out(objects, pool),
        secs,
        since_start: false,
        io_wait,
        notes,
    })
}

/// Gives objects without a read time their share of the pool's, by blocks read.
pub(crate) fn shared_out(mut objects: Vec<ObjectIo>, pool: Option<Pool>) -> Vec<ObjectIo> {
    if let Some(p) = pool {
        let per_block = if p.blocks > 0 {
            p.ms / p.blocks as f64
        } else {
            0.0
        };
        for o in objects
            .iter_mut()
            .filter(|o| o.read_ms.is_none() && o.kind != ObjectKind::Log)
        {
            o.read_ms = Some(o.reads as f64 * per_block);
        }
    }
    objects
}

/// `a − b` for one object; an error naming the counter that went backwards.
fn minus(a: &ObjectIo, b: &ObjectIo) -> Result<ObjectIo, DbError> {
    let back = |what: &str, x: f64, y: f64| {
        DbError::delta(
            format!(
                "counters went backwards for {}: {what} {y} then {x}; the server restarted or its statistics were reset between the snapshots (or they are in the wrong order): take a new first snapshot",
                a.name
            ),
        )
    };
    let sub = |what: &str, x: u64, y: u64| {
        x.checked_sub(y)
            .ok_or_else(|| back(what, x as f64, y as f64))
    };
    let subf = |what: &str, x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) if x + 1e-6 < y => Err(back(what, x, y)),
        (Some(x), Some(y)) => Ok(Some((x - y).max(0.0))),
        (x, None) => Ok(x),
        (None, Some(_)) => Ok(None),
    };
    Ok(ObjectIo {
        name: a.name.clone(),
        kind: a.kind,
        size_bytes: a.size_bytes,
        reads: sub("reads", a.reads, b.reads)?,
        writes: sub("writes", a.writes, b.writes)?,
        bytes_read: sub("bytes read", a.bytes_read, b.bytes_read)?,
        bytes_written: sub("bytes written", a.bytes_written, b.bytes_written)?,
        read_ms: subf("read time (ms)", a.read_ms, b.read_ms)?,
        write_ms: subf("write time (ms)", a.write_ms, b.write_ms)?,
        stall_ms: subf("stall (ms)", a.stall_ms, b.stall_ms)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(reads: u64, ms: u64) -> Snapshot {
        let mut s = Snapshot::new("postgresql", "x");
        s.taken_at_ms = Some(ms);
        let mut o = ObjectIo::new("t", ObjectKind::Data);
        o.reads = reads;
        o.read_ms = Some(reads as f64);
        s.objects.push(o);
        s
    }

    #[test]
    fn delta_subtracts_and_times() {
        let d = delta(&snap(10, 1000), &snap(25, 61_000)).unwrap();
        assert_eq!(d.objects[0].reads, 15);
        assert_eq!(d.objects[0].read_ms, Some(15.0));
        assert_eq!(d.secs, 60.0);
    }

    #[test]
    fn backwards_is_refused_with_one_line() {
        let e = delta(&snap(25, 1000), &snap(10, 2000))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("counters went backwards for t: reads 25 then 10"),
            "{e}"
        );
        assert!(!e.contains('\n'));
    }

    /// Found by the `exports` fuzz target: counters near u64::MAX overflowed the ranking's
    /// sums. They are refused where the export is read.
    #[test]
    fn counters_past_what_a_server_counts_are_refused() {
        let mut s = snap(MAX_TOTAL, 1000);
        assert!(s.clone().checked("f").is_ok());
        s.objects.push(ObjectIo::new("u", ObjectKind::Data));
        s.objects[1].reads = 1;
        let e = s.checked("f").unwrap_err().to_string();
        assert!(
            e.starts_with("f: the reads of its objects add up to more than 2^62"),
            "{e}"
        );
        let mut big = snap(u64::MAX, 1000);
        big.objects[0].bytes_read = 1;
        assert!(Snapshot::from_json(&big.to_json(), "b.json")
            .unwrap_err()
            .to_string()
            .contains("reads"));
    }
}
