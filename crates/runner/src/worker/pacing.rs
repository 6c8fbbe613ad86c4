//! How a worker paces its I/O, beside its loop: closed loop (the queue kept full, each I/O's
//! clock started when it is submitted) or open loop (`--rate`: one I/O due every interval,
//! even or, with `--arrivals poisson`, exponential gaps; each I/O's clock started when it was
//! due). The loop is compiled once per pacing (static dispatch): nothing is decided per I/O
//! that the pacing already knows.

use super::report::ReplayStats;
use crate::pattern::{NextIo, Pattern};
use dbio_model::Burst;
use fastrand::Rng;
use std::time::{Duration, Instant};

/// How long a wait for completions may block before the worker looks at the clock and the
/// stop flag again: Ctrl-C is honoured well within a second even on a stalled device.
pub(super) const MAX_WAIT: Duration = Duration::from_millis(100);

/// A worker's pacing: when the next I/O may go, what its clock starts at, how long a wait
/// for completions may last, and whether the worker kept its schedule.
pub(super) trait Pacing {
    /// Closed loop: the clock of every I/O starts when it is submitted (its start is
    /// stamped again at the submission), not when it was queued.
    const CLOSED: bool;

    /// A burst's idle part lasts until `on`: nothing is due before it.
    fn resume_at(&mut self, on: Instant);

    /// The start of the clock of one more I/O issued at `now`, or None when none is due yet.
    /// Draws from `rng` (Poisson gaps) before the I/O itself does.
    fn start_of(&mut self, now: Instant, rng: &mut Rng) -> Option<Instant>;

    /// When the next I/O is due (open loop): a worker with nothing in flight sleeps until then.
    fn wake(&self) -> Option<Instant>;

    /// How many completions to wait for, and for how long, when I/Os are in flight;
    /// `can_issue`: the worker is not stopping and has a free slot.
    fn wait(&self, submit_at: Instant, can_issue: bool) -> (u32, Option<Duration>);

    /// The worker fell behind its schedule: `issued` I/Os while measuring from
    /// `measure_from`, between bursts `burst` nothing being due.
    fn behind(&self, measure_from: Instant, issued: u64, burst: Option<Burst>) -> bool;

    /// The I/O that `start_of` just allowed: the pattern's next (a replay's own request).
    #[inline(always)]
    fn next_io(&mut self, pattern: &mut Pattern, rng: &mut Rng) -> NextIo {
        pattern.next(rng)
    }

    /// Nothing more will ever be due (a replay at the end of its trace).
    #[inline(always)]
    fn exhausted(&self) -> bool {
        false
    }

    /// A replay's figures, taken when the worker ends.
    fn replay(&mut self) -> Option<ReplayStats> {
        None
    }
}

/// Closed loop: an I/O goes whenever a slot is free.
pub(super) struct ClosedLoop;

impl Pacing for ClosedLoop {
    const CLOSED: bool = true;

    #[inline(always)]
    fn resume_at(&mut self, _: Instant) {}

    #[inline(always)]
    fn start_of(&mut self, now: Instant, _: &mut Rng) -> Option<Instant> {
        Some(now)
    }

    #[inline(always)]
    fn wake(&self) -> Option<Instant> {
        None
    }

    #[inline(always)]
    fn wait(&self, _: Instant, _: bool) -> (u32, Option<Duration>) {
        // One completion is enough to wake for, at every depth (as fio's default
        // iodepth_batch_complete_min=1): its clock stops when it is first seen, and
        // whatever else has completed by then is reaped with it.
        (1, Some(MAX_WAIT))
    }

    fn behind(&self, _: Instant, _: u64, _: Option<Burst>) -> bool {
        false
    }
}

/// Open loop (`--rate`): one I/O due every `every` (this worker's share of the rate).
pub(super) struct OpenLoop {
    every: Duration,
    /// Exponential gaps with mean `every` (Poisson arrivals) instead of even ones.
    poisson: bool,
    /// When the next I/O is due.
    next_due: Instant,
    /// When the last I/O was issued, and when it was due.
    last_issue: Instant,
    last_due: Instant,
}

impl OpenLoop {
    /// A schedule of one I/O every `every` (exponential gaps when `poisson`), the first due
    /// at `t0`.
    pub(super) fn new(every: Duration, poisson: bool, t0: Instant) -> Self {
        OpenLoop {
            every,
            poisson,
            next_due: t0,
            last_issue: t0,
            last_due: t0,
        }
    }
}

impl Pacing for OpenLoop {
    const CLOSED: bool = false;

    #[inline(always)]
    fn resume_at(&mut self, on: Instant) {
        // A paced schedule resumes at the next burst.
        self.next_due = self.next_due.max(on);
    }

    #[inline(always)]
    fn start_of(&mut self, now: Instant, rng: &mut Rng) -> Option<Instant> {
        if self.next_due > now {
            return None;
        }
        let due = self.next_due;
        self.next_due += if self.poisson {
            exp_gap(self.every, rng)
        } else {
            self.every
        };
        (self.last_issue, self.last_due) = (now, due);
        Some(due)
    }

    #[inline(always)]
    fn wake(&self) -> Option<Instant> {
        Some(self.next_due)
    }

    #[inline(always)]
    fn wait(&self, submit_at: Instant, can_issue: bool) -> (u32, Option<Duration>) {
        if !can_issue {
            // Stopping, or every slot busy: wait for a completion (with deferred task work,
            // completions are only reaped by a wait, so a stopping worker must always wait).
            (1, Some(MAX_WAIT))
        } else if self.next_due <= submit_at {
            // More I/O is due right now: reap what is there without waiting.
            (0, None)
        } else {
            let until_due = self.next_due.saturating_duration_since(submit_at);
            (1, Some(until_due.clamp(Duration::from_micros(1), MAX_WAIT)))
        }
    }

    fn behind(&self, measure_from: Instant, issued: u64, burst: Option<Burst>) -> bool {
        // A kept schedule issues one I/O per interval up to the last issue; the drain after
        // it does not count against the rate.
        let issuing = self
            .last_issue
            .saturating_duration_since(measure_from)
            .as_secs_f64();
        // Between bursts nothing is due.
        let issuing = burst.map_or(issuing, |b| b.on_time(issuing));
        if self.poisson {
            // Random gaps make the count of dues noisy: judge by how far the schedule lags.
            let lag = self
                .last_issue
                .saturating_duration_since(self.last_due)
                .as_secs_f64();
            lag > issuing * 0.01 + self.every.as_secs_f64()
        } else {
            let expected = issuing / self.every.as_secs_f64();
            (issued as f64) < expected * 0.99 - 1.0
        }
    }
}

/// One exponential gap with mean `mean` (the next arrival of a Poisson process).
pub fn exp_gap(mean: Duration, rng: &mut Rng) -> Duration {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    mean.mul_f64(-(1.0 - rng.f64()).ln())
}
