//! Session mode (the SLOB method without a database): the settings of a session run and
//! its AWR-like report of wait events and load profile.

use crate::histogram::latency::{LatencyHistogram, LatencySummary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a session run works: N synchronous sessions reading WORK_UNIT pages per operation,
/// a share of them modifying their pages, a background writer and a log writer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionSpec {
    /// Foreground sessions, each one thread doing one operation at a time.
    pub sessions: u32,
    /// Page size in bytes (the job's block size).
    pub page: u64,
    /// Pages read per operation: logically adjacent, physically scattered.
    pub work_unit: u32,
    /// Read the work unit as one batch (db file parallel read) instead of one page at a time
    /// (db file sequential read).
    pub batch_reads: bool,
    /// Operations per 100 that modify their pages (an exact quota per 100).
    pub update_pct: u8,
    /// Redo bytes appended per modified page.
    pub redo_stress: u64,
    /// Page reads per 100 served from the buffer pool, costing no I/O (an exact quota per 100).
    pub cache_hit_pct: u8,
    /// Think time after operations, if any.
    pub think: Option<Think>,
    /// The file the redo goes to.
    pub log_target: String,
    /// Most pages the background writer writes in one batch.
    pub write_batch: u32,
}

/// SLOB's think time: after every `every`-th operation a session sleeps a uniformly drawn time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Think {
    pub every: u32,
    pub min_ns: u64,
    pub max_ns: u64,
}

/// The report of a session run, as AWR shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionReport {
    /// One row per wait event that occurred, foreground first, by time waited.
    pub events: Vec<WaitEvent>,
    pub load: LoadProfile,
    /// Foreground time: the sessions' measured time minus think time, in seconds.
    pub db_time_s: f64,
    /// CPU seconds the sessions spent (user + system).
    pub db_cpu_s: f64,
    /// Where the redo went, in plain words (e.g. "./dbio-testfile.redo, beside the data target").
    pub redo_target: String,
}

/// One wait event: Oracle's name and the generic one, with its count and time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WaitEvent {
    /// Oracle's name, e.g. "db file sequential read".
    pub name: String,
    /// The generic name, e.g. "single-page read".
    pub generic: String,
    /// "foreground" (a session waits) or "background" (the writers wait).
    pub class: String,
    pub waits: u64,
    /// Total time waited, seconds.
    pub time_s: f64,
    /// Share of DB time, percent (foreground events only).
    pub pct_db_time: Option<f64>,
    /// Latency of one wait, from its HDR histogram (ns).
    pub latency_ns: LatencySummary,
    pub histogram: LatencyHistogram,
}

/// The load profile: rates over the measured window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct LoadProfile {
    pub operations: u64,
    /// Operations that modified their pages (each committed).
    pub updates: u64,
    pub ops_per_s: f64,
    /// Page reads, from the buffer pool or the device.
    pub logical_reads_per_s: f64,
    pub physical_reads_per_s: f64,
    /// Data pages written by the background writer, per second.
    pub physical_writes_per_s: f64,
    pub read_mb_s: f64,
    pub write_mb_s: f64,
    /// Redo generated: updates × work unit × redo stress bytes.
    pub redo_bytes: u64,
    /// Bytes written to the log, with each group write padded to the log's block size.
    pub log_bytes_written: u64,
    pub redo_mb_s: f64,
    /// Pages read from the buffer pool with no I/O.
    pub cache_hits: u64,
    /// Busy share of one CPU taken by all of dbio's threads, percent.
    pub cpu_pct: f64,
}
