//! The one timeline of a run's workers: when the clock started, and when measuring starts
//! (fixed at the end of the ramp, or set once the I/O has settled with `--steady`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When the workers measure; the same for all of them.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// When the clock started: the start of the ramp.
    pub origin: Instant,
    /// Start of the measured window and of the per-second intervals.
    pub start: MeasureStart,
    /// With `--steady`: end of the ramp, where settling samples begin.
    pub settle_from: Option<Instant>,
}

/// The start of measuring, shared by the workers and the runner: fixed at the end of the
/// ramp, or (with `--steady`) set once by the runner when the I/O has settled.
#[derive(Debug, Clone)]
pub struct MeasureStart {
    origin: Instant,
    /// Nanoseconds after `origin`; `UNSET` until known.
    nanos: Arc<AtomicU64>,
}

const UNSET: u64 = u64::MAX;

impl MeasureStart {
    pub(crate) fn new(origin: Instant, at: Option<Instant>) -> Self {
        let nanos = at.map_or(UNSET, |a| a.duration_since(origin).as_nanos() as u64);
        MeasureStart {
            origin,
            nanos: Arc::new(AtomicU64::new(nanos)),
        }
    }

    /// The start of measuring, once known.
    pub fn get(&self) -> Option<Instant> {
        match self.nanos.load(Ordering::Acquire) {
            UNSET => None,
            n => Some(self.origin + Duration::from_nanos(n)),
        }
    }

    /// Sets the start of measuring unless it is already set; returns the start in force.
    pub fn set(&self, at: Instant) -> Instant {
        let n = at.saturating_duration_since(self.origin).as_nanos() as u64;
        let _ = self
            .nanos
            .compare_exchange(UNSET, n, Ordering::AcqRel, Ordering::Acquire);
        self.get().expect("set just now or before")
    }
}
