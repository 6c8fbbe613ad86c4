//! What a worker hands back: one interval per second, and its totals when it ends.

use dbio_engine::sys::CpuTimes;
use dbio_engine::IoError;
use dbio_model::histogram::new_histogram;
use dbio_model::Moments;
use hdrhistogram::Histogram;

/// One second (or the last part of one) of one worker's completions.
pub struct Interval {
    pub worker: u32,
    pub index: u32,
    /// A second of settling (`--steady`), before measuring; its histogram is empty.
    pub settling: bool,
    /// Length of the interval in seconds (1.0 but for the last).
    pub secs: f64,
    pub read_ios: u64,
    pub write_ios: u64,
    pub bytes: u64,
    /// Latency of reads and writes completed in the interval.
    pub hist: Histogram<u64>,
}

/// Totals of one direction.
pub struct DirTotals {
    pub ios: u64,
    pub bytes: u64,
    pub hist: Histogram<u64>,
}

impl Default for DirTotals {
    fn default() -> Self {
        Self::new()
    }
}

impl DirTotals {
    /// Empty totals.
    pub fn new() -> Self {
        DirTotals {
            ios: 0,
            bytes: 0,
            hist: new_histogram(),
        }
    }
}

/// What a worker hands back when it ends.
pub struct WorkerReport {
    pub read: DirTotals,
    pub write: DirTotals,
    pub flush: DirTotals,
    /// Reads and writes on each target when it spread its I/O over several (else empty).
    pub per_target: Vec<[Moments; 2]>,
    /// CPU of this thread while measuring.
    pub cpu: CpuTimes,
    /// Wall time from the start of measuring to the end of the drain.
    pub wall_s: f64,
    /// I/Os issued while measuring.
    pub issued: u64,
    /// Paced runs: the worker fell behind its schedule.
    pub behind: bool,
    pub error: Option<IoError>,
    /// A replayed trace: how closely it was kept.
    pub replay: Option<ReplayStats>,
}

/// How closely one worker kept the trace.
pub struct ReplayStats {
    /// How late each request was issued against its time, in nanoseconds.
    pub lag: Histogram<u64>,
    pub issued: u64,
    pub on_time: u64,
    pub folded: u64,
    pub discards: u64,
    /// Why the trace stopped being read before its end, if it did.
    pub error: Option<String>,
}

impl ReplayStats {
    pub(super) fn empty() -> Self {
        ReplayStats {
            lag: new_histogram(),
            issued: 0,
            on_time: 0,
            folded: 0,
            discards: 0,
            error: None,
        }
    }
}
