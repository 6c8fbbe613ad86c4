//! One worker thread: it owns an engine, keeps its queue full (or paces to a rate), and
//! records every completion in HDR histograms, sending one histogram per second.
//!
//! The loop ([`drive`]) turns over small steps: queue the I/Os that may go, submit them and
//! reap what completed, keep the time. Beside it, the pacing ([`pacing`]: closed or open
//! loop) says when an I/O may go, what its clock starts at and how long a wait may last; the
//! record side ([`state`]) is what a completion updates; the time side ([`phase`]) is where
//! the worker is on the run's timeline and the seconds it sends.

mod drive;
mod invalidate;
mod pacing;
mod phase;
mod plan;
mod replay;
mod report;
mod state;

pub use pacing::exp_gap;
pub use plan::{Clock, MonotonicClock, Quota, WorkerPlan};
pub use report::{DirTotals, Interval, ReplayStats, WorkerReport};

use crate::datagen::WriteData;
use crate::verify::{NoVerify, Verify};
use dbio_engine::Engine;
use drive::Worker;
use pacing::{ClosedLoop, OpenLoop};
use replay::TracePacing;

/// Lays out the write halves of the engine's buffers for `data` (random bytes, a pattern,
/// the chunks of reducible data), before the run's clock starts: with large blocks this
/// takes a noticeable time.
pub fn prepare_buffers<E: Engine>(engine: &mut E, qd: u32, data: &mut WriteData) {
    for slot in 0..qd {
        data.prepare(engine.buf(slot));
    }
}

/// Runs one worker to its end and reports what it measured. The engine's buffers must
/// have been prepared with [`prepare_buffers`].
pub fn run_worker<E: Engine>(engine: E, plan: WorkerPlan) -> WorkerReport {
    run_worker_on(engine, plan, &MonotonicClock)
}

/// [`run_worker`] reading the time from `clock`. Every I/O's clock starts when it is
/// submitted (or, paced, when it was due) and stops when the worker first sees it complete:
/// a closed-loop worker waits for one completion, not for a batch, so an I/O that completes
/// early is not charged with the wait for the others.
pub fn run_worker_on<E: Engine, C: Clock>(engine: E, plan: WorkerPlan, clock: &C) -> WorkerReport {
    run_worker_with(engine, plan, clock, NoVerify)
}

/// [`run_worker_on`] with write verification `ver` ([`NoVerify`] compiles every check away).
/// The pacing is chosen here, once: the loop is compiled for each.
pub fn run_worker_with<E: Engine, C: Clock, V: Verify>(
    engine: E,
    mut plan: WorkerPlan,
    clock: &C,
    ver: V,
) -> WorkerReport {
    if plan.pace.is_some() || plan.replay.as_ref().is_some_and(|r| r.1) {
        // Paced: an I/O's wait for its time ends when asked, not up to 50 µs later.
        dbio_engine::sys::tight_timers();
    }
    let t0 = clock.now();
    if let Some((feed, timed)) = plan.replay.take() {
        return if timed {
            let pacing = TracePacing::<true>::new(feed, t0);
            Worker::new(engine, plan, clock, ver, pacing, t0).run(t0)
        } else {
            let pacing = TracePacing::<false>::new(feed, t0);
            Worker::new(engine, plan, clock, ver, pacing, t0).run(t0)
        };
    }
    match plan.pace {
        None => Worker::new(engine, plan, clock, ver, ClosedLoop, t0).run(t0),
        Some(every) => {
            let pacing = OpenLoop::new(every, plan.poisson, t0);
            Worker::new(engine, plan, clock, ver, pacing, t0).run(t0)
        }
    }
}

#[cfg(test)]
mod tests;
