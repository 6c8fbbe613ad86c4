//! The worker's loop: queue the I/Os that may go, submit them and reap what completed (one
//! clock read per reap, the completion time of everything it reaps), then move the clock's
//! bookkeeping on; the pacing ([`Pacing`]) beside it says when an I/O may go and how long to wait.

use super::invalidate::Invalidate;
use super::pacing::{Pacing, MAX_WAIT};
use super::phase::Phase;
use super::plan::{Clock, Quota, WorkerPlan};
use super::report::WorkerReport;
use super::state::{Slot, State};
use crate::burst::off_until;
use crate::datagen::WriteData;
use crate::pattern::{NextIo, Pattern};
use crate::verify::Verify;
use dbio_engine::{Engine, Op, OpKind};
use dbio_model::{Burst, SyncMode};
use fastrand::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// One worker while it runs: its engine, pacing and verification, what is in flight, and
/// where it is on the timeline.
pub(super) struct Worker<'c, E, C, V, P> {
    engine: E,
    clock: &'c C,
    ver: V,
    pacing: P,
    /// Slots, totals and the current second: what completions update.
    st: State,
    /// Where the worker is on the timeline, and the seconds it sends.
    phase: Phase,
    /// I/Os queued for the next submission (and flushes that follow writes).
    ops: Vec<Op>,
    pattern: Pattern,
    rng: Rng,
    data: WriteData,
    /// A flush follows every this many writes (0: none).
    flush_every: u32,
    writes_since_flush: u32,
    quota: Quota,
    /// I/Os and bytes issued while measuring.
    issued: u64,
    issued_bytes: u64,
    /// Nothing more is issued; the loop ends when nothing is in flight.
    stopping: bool,
    burst: Option<Burst>,
    /// When the clock started: bursts count from here until measuring begins.
    origin: Instant,
    targets: Arc<Vec<String>>,
    stop: Arc<AtomicBool>,
    abort: Arc<AtomicBool>,
    invalidate: Option<Invalidate>,
}

impl<'c, E: Engine, C: Clock, V: Verify, P: Pacing> Worker<'c, E, C, V, P> {
    /// The worker of `plan` on `engine`, paced by `pacing`, its clock first read at `t0`.
    /// (Inlined, as [`Worker::run`] is, so that the worker is a local of the caller whose
    /// fields the compiler keeps in registers, as it did the loop's local variables.)
    #[inline(always)]
    pub(super) fn new(
        engine: E,
        plan: WorkerPlan,
        clock: &'c C,
        ver: V,
        pacing: P,
        t0: Instant,
    ) -> Self {
        let WorkerPlan {
            id,
            qd,
            pattern,
            sync,
            data,
            seed,
            targets,
            origin,
            start,
            settle_from,
            measure_secs,
            burst,
            quota,
            pace: _,
            poisson: _,
            stop,
            abort,
            intervals,
            invalidate,
            replay: _,
        } = plan;
        let invalidate = invalidate.map(|fds| Invalidate::new(pattern.part(), fds));
        let (flush_kind, flush_every) = match sync {
            SyncMode::Fdatasync(n) => (OpKind::Fdatasync, n),
            SyncMode::Fsync(n) => (OpKind::Fsync, n),
            SyncMode::None | SyncMode::Dsync => (OpKind::Fdatasync, 0),
        };
        Worker {
            engine,
            clock,
            ver,
            pacing,
            st: State::new(qd, targets.len(), flush_kind, t0),
            phase: Phase::new(id, intervals, start, settle_from, measure_secs, t0),
            ops: Vec::with_capacity(qd as usize * 2),
            pattern,
            rng: Rng::with_seed(seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            data,
            flush_every,
            writes_since_flush: 0,
            quota,
            issued: 0,
            issued_bytes: 0,
            stopping: false,
            burst,
            origin,
            targets,
            stop,
            abort,
            invalidate,
        }
    }

    /// The loop: each turn queues what may go, then either sleeps (nothing in flight, nothing
    /// due) or submits and reaps, then keeps the time; it ends when the worker is stopping
    /// and nothing is in flight.
    #[inline(always)]
    pub(super) fn run(mut self, t0: Instant) -> WorkerReport {
        let mut now = t0;
        loop {
            let off = self.idle_until(now);
            if !self.stopping && off.is_none() {
                self.queue(now);
            }
            if self.st.inflight == 0 && self.stopping {
                break;
            }
            // Nothing in flight and nothing due yet (paced, or between bursts): sleep until
            // the next I/O is due.
            now = match off.or(self.pacing.wake()) {
                Some(wake) if self.st.inflight == 0 => self.sleep_until(wake),
                _ => match self.submit_and_reap() {
                    Some(now) => now,
                    None => break,
                },
            };
            self.keep_time(now);
        }
        self.finish()
    }

    /// Between bursts nothing is issued: the start of the next burst while `now` is in an
    /// idle part (a paced schedule resumes there), None while a burst is on.
    #[inline(always)]
    fn idle_until(&mut self, now: Instant) -> Option<Instant> {
        let anchor = if self.phase.measuring {
            self.phase.measure_from
        } else {
            self.origin
        };
        let off = self.burst.and_then(|b| off_until(&b, anchor, now));
        if let Some(on) = off {
            self.pacing.resume_at(on);
        }
        off
    }

    /// Queues I/Os until the queue is full, the pacing says wait, or there is nothing left
    /// to do (the quota is reached: the worker is then stopping).
    #[inline(always)]
    fn queue(&mut self, now: Instant) {
        while let Some(&slot) = self.st.free.last() {
            if !self.may_issue() {
                self.stopping = true;
                break;
            }
            let Some(start) = self.pacing.start_of(now, &mut self.rng) else {
                self.stopping |= self.pacing.exhausted();
                break;
            };
            let mut io = self.pacing.next_io(&mut self.pattern, &mut self.rng);
            if V::ON && !claim(&mut self.ver, &mut io, &mut self.pattern, &mut self.rng) {
                // Every draw hit a block with an I/O in flight: wait for completions.
                break;
            }
            self.st.free.pop();
            let flush_after = io.kind == OpKind::Write && self.write_data(slot, &io);
            self.issue(slot, &io, start, flush_after);
        }
    }

    /// The quota allows one more I/O (there is none until measuring begins).
    #[inline(always)]
    fn may_issue(&self) -> bool {
        match self.quota {
            _ if !self.phase.measuring => true,
            Quota::None => true,
            Quota::Ops(n) => self.issued < n,
            Quota::Bytes(n) => self.issued_bytes < n,
        }
    }

    /// Writes the bytes of write `io` into the buffer of `slot` (stamped when verifying);
    /// true when a flush must follow it.
    #[inline(always)]
    fn write_data(&mut self, slot: u32, io: &NextIo) -> bool {
        self.data
            .fill(&mut self.engine.buf(slot)[..io.len as usize], io.offset);
        if V::ON {
            let buf = &mut self.engine.buf(slot)[..io.len as usize];
            self.ver.stamp(slot, io.target, io.offset, buf);
        }
        if self.flush_every > 0 {
            self.writes_since_flush += 1;
            if self.writes_since_flush == self.flush_every {
                self.writes_since_flush = 0;
                return true;
            }
        }
        false
    }

    /// Puts `io` in flight on `slot`, its clock started at `start`, and queues it.
    #[inline(always)]
    fn issue(&mut self, slot: u32, io: &NextIo, start: Instant, flush_after: bool) {
        let measuring = self.phase.measuring;
        if measuring {
            self.issued += 1;
            self.issued_bytes += io.len as u64;
        }
        if let Some(inv) = &mut self.invalidate {
            inv.issued(io.len as u64);
        }
        self.st.slots[slot as usize] = Slot {
            kind: io.kind,
            target: io.target,
            offset: io.offset,
            len: io.len,
            measured: measuring,
            flush_after,
            flushing: false,
            start,
            flush_start: start,
        };
        self.st.inflight += 1;
        self.ops.push(Op {
            kind: io.kind,
            target: io.target,
            offset: io.offset,
            len: io.len,
            slot,
        });
    }

    /// Sleeps until `wake` (at most [`MAX_WAIT`]); returns the time after.
    fn sleep_until(&mut self, wake: Instant) -> Instant {
        std::thread::sleep(
            wake.saturating_duration_since(self.clock.now())
                .min(MAX_WAIT),
        );
        self.clock.now()
    }

    /// Submits the queued I/Os, waiting for completions as the pacing says, and reaps what
    /// completed: every completion reaped is timed by the one clock read after the wait.
    /// Returns that time; None when the submission failed (the error is kept).
    #[inline(always)]
    fn submit_and_reap(&mut self) -> Option<Instant> {
        let submit_at = self.clock.now();
        if P::CLOSED {
            for op in &self.ops {
                let s = &mut self.st.slots[op.slot as usize];
                if op.kind == OpKind::Read || op.kind == OpKind::Write {
                    s.start = submit_at;
                }
            }
        }
        // Wait for a completion unless more I/O is due right now. (With deferred task work,
        // completions are only reaped by a wait, so a stopping worker must always wait.)
        let (wait, timeout) = if self.st.inflight == 0 {
            (0, None)
        } else {
            let can_issue = !self.stopping && !self.st.free.is_empty();
            self.pacing.wait(submit_at, can_issue)
        };
        if let Err(e) = self.engine.submit(&self.ops, wait, timeout) {
            self.st.error.get_or_insert(e);
            return None;
        }
        self.ops.clear();
        let now = self.clock.now();
        let (st, targets, ops, ver) = (&mut self.st, &self.targets, &mut self.ops, &mut self.ver);
        self.engine
            .reap(|slot, res| st.complete(slot, res, now, targets, ops, ver));
        if V::ON {
            self.ver.check(&mut self.engine);
        }
        Some(now)
    }

    /// Moves the timeline on to `now` (measuring, settling, the seconds sent) and decides
    /// whether the worker is stopping: an error, the user's stop, the run's own, or the end
    /// of the measured time.
    #[inline(always)]
    fn keep_time(&mut self, now: Instant) {
        let over = self.phase.advance(now, &mut self.st);
        if self.st.error.is_some()
            || self.stop.load(Ordering::Relaxed)
            || self.abort.load(Ordering::Relaxed)
            || over
        {
            self.stopping = true;
        }
    }

    /// The worker has ended: its last second, and its report.
    fn finish(mut self) -> WorkerReport {
        let end = self.clock.now();
        let wall_s = self.phase.finish(end, &mut self.st);
        let behind = self
            .pacing
            .behind(self.phase.measure_from, self.issued, self.burst);
        self.ver.finish();
        let cpu = self.phase.cpu();
        let [read, write, flush] = self.st.totals;
        WorkerReport {
            read,
            write,
            flush,
            per_target: self.st.per_target,
            cpu,
            wall_s,
            issued: self.issued,
            behind,
            error: self.st.error,
            replay: self.pacing.replay(),
        }
    }
}

/// Verify mode: claims the blocks of `io`, drawing other I/Os while one of its blocks has
/// an I/O in flight (at most 64 draws; false when all were busy).
#[inline]
fn claim<V: Verify>(ver: &mut V, io: &mut NextIo, pattern: &mut Pattern, rng: &mut Rng) -> bool {
    for _ in 0..64 {
        if ver.claim(io.target, io.offset, io.len) {
            return true;
        }
        *io = pattern.next(rng);
    }
    false
}
