//! What a worker is given: its plan (queue depth, pattern, pacing, stop) and its clock.

use super::report::Interval;
use crate::datagen::WriteData;
use crate::pattern::Pattern;
use crate::timeline::MeasureStart;
use dbio_model::{Burst, SyncMode};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where a worker reads the time: the monotonic clock, or a test's stub that moves with a
/// stub engine's completions.
pub trait Clock {
    fn now(&self) -> Instant;
}

/// The monotonic clock (`Instant::now`, a vDSO call).
pub struct MonotonicClock;

impl Clock for MonotonicClock {
    #[inline]
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// What ends a worker's measuring, besides the clock and the stop flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quota {
    None,
    Ops(u64),
    Bytes(u64),
}

/// Everything a worker needs to run.
pub struct WorkerPlan {
    pub id: u32,
    pub qd: u32,
    pub pattern: Pattern,
    pub sync: SyncMode,
    /// The bytes of every write (seeded anew in every run, so runs never repeat each
    /// other's blocks).
    pub data: WriteData,
    /// Seed of the I/O choices (`--seed`): the same seed gives the same offsets and sizes.
    pub seed: u64,
    /// Target names, for error messages.
    pub targets: Arc<Vec<String>>,
    /// When the clock started (the start of the ramp).
    pub origin: Instant,
    /// When measuring starts; also the origin of the per-second intervals.
    pub start: MeasureStart,
    /// With `--steady`: when per-second settling samples begin (the end of the ramp).
    pub settle_from: Option<Instant>,
    /// Measuring time of time-based runs.
    pub measure_secs: Option<f64>,
    pub burst: Option<Burst>,
    pub quota: Quota,
    /// Open loop: one I/O every this long (this worker's share of the rate).
    pub pace: Option<Duration>,
    /// Open loop: exponential gaps with mean `pace` (Poisson arrivals) instead of even ones.
    pub poisson: bool,
    /// The user's stop (Ctrl-C, SIGTERM).
    pub stop: Arc<AtomicBool>,
    /// The run's own stop, set when verification fails (its journal cannot be kept): it ends
    /// the worker as `stop` does, without being taken for the user's.
    pub abort: Arc<AtomicBool>,
    pub intervals: Sender<Interval>,
    /// With `--invalidate` on a buffered run: the targets' descriptors, whose pages leave the
    /// page cache again after each pass over the worker's part of the region (fio's way).
    pub invalidate: Option<Vec<i32>>,
    /// A replay: the trace's requests, and whether they go at their times (else as fast
    /// as the slots allow).
    pub replay: Option<(crate::replay::TraceFeed, bool)>,
}
