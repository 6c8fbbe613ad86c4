//! One worker thread: it owns an engine, keeps its queue full (or paces to a rate), and
//! records every completion in HDR histograms, sending one histogram per second.

use crate::burst::off_until;
use crate::datagen::WriteData;
use crate::pattern::Pattern;
use crate::timeline::MeasureStart;
use crate::verify::{NoVerify, Verify};
use dbio_engine::sys::{thread_cpu, CpuTimes};
use dbio_engine::{Engine, IoError, Op, OpKind};
use dbio_model::histogram::new_histogram;
use dbio_model::{Burst, SyncMode};
use fastrand::Rng;
use hdrhistogram::Histogram;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a wait for completions may block before the worker looks at the clock and the
/// stop flag again: Ctrl-C is honoured well within a second even on a stalled device.
const MAX_WAIT: Duration = Duration::from_millis(100);

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
}

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
    /// CPU of this thread while measuring.
    pub cpu: CpuTimes,
    /// Wall time from the start of measuring to the end of the drain.
    pub wall_s: f64,
    /// I/Os issued while measuring.
    pub issued: u64,
    /// Paced runs: the worker fell behind its schedule.
    pub behind: bool,
    pub error: Option<IoError>,
}

/// State of one buffer slot while its I/O is in flight.
#[derive(Clone, Copy)]
struct Slot {
    kind: OpKind,
    target: u32,
    offset: u64,
    len: u32,
    measured: bool,
    /// A write that a flush must follow before it counts as done.
    flush_after: bool,
    /// The write is done and its flush is in flight.
    flushing: bool,
    start: Instant,
    flush_start: Instant,
}

/// Everything the completion path touches, apart from the engine.
struct State {
    slots: Vec<Slot>,
    free: Vec<u32>,
    inflight: u32,
    totals: [DirTotals; 3],
    interval: Histogram<u64>,
    iv_reads: u64,
    iv_writes: u64,
    iv_bytes: u64,
    /// Settling: completions of unmeasured I/Os count in the interval counters.
    settling: bool,
    error: Option<IoError>,
    flush_kind: OpKind,
}

const READ: usize = 0;
const WRITE: usize = 1;
const FLUSH: usize = 2;

impl State {
    #[inline]
    fn complete<V: Verify>(
        &mut self,
        slot: u32,
        res: i32,
        now: Instant,
        targets: &[String],
        resubmit: &mut Vec<Op>,
        ver: &mut V,
    ) {
        let s = &mut self.slots[slot as usize];
        let is_flush = s.flushing;
        if V::ON && !is_flush {
            let ok = res >= 0 && res as u32 == s.len;
            ver.done(slot, s.kind, s.target, s.offset, s.len, ok);
        }
        if res < 0 || (!is_flush && res as u32 != s.len) {
            if self.error.is_none() {
                let (op, err) = if res < 0 {
                    (
                        op_name(if is_flush { self.flush_kind } else { s.kind }),
                        std::io::Error::from_raw_os_error(-res),
                    )
                } else {
                    let what = if s.kind == OpKind::Read {
                        "short read"
                    } else {
                        "short write"
                    };
                    (
                        op_name(s.kind),
                        std::io::Error::other(format!("{what}: {res} of {} bytes", s.len)),
                    )
                };
                self.error = Some(IoError::at(
                    op,
                    &targets[s.target as usize],
                    s.offset,
                    s.len as u64,
                    err,
                ));
            }
            self.release(slot);
            return;
        }
        if s.flush_after && !is_flush {
            // The write is done; its flush follows on the same slot.
            s.flushing = true;
            s.flush_start = now;
            resubmit.push(Op {
                kind: self.flush_kind,
                target: s.target,
                offset: 0,
                len: 0,
                slot,
            });
            return;
        }
        let dir = if s.kind == OpKind::Read { READ } else { WRITE };
        if s.measured || self.settling {
            if dir == READ {
                self.iv_reads += 1;
            } else {
                self.iv_writes += 1;
            }
            self.iv_bytes += s.len as u64;
        }
        if s.measured {
            let lat = now.saturating_duration_since(s.start).as_nanos() as u64;
            let t = &mut self.totals[dir];
            t.ios += 1;
            t.bytes += s.len as u64;
            t.hist.saturating_record(lat);
            self.interval.saturating_record(lat);
            if is_flush {
                let f = &mut self.totals[FLUSH];
                f.ios += 1;
                f.hist.saturating_record(
                    now.saturating_duration_since(s.flush_start).as_nanos() as u64
                );
            }
        }
        self.release(slot);
    }

    #[inline]
    fn release(&mut self, slot: u32) {
        self.free.push(slot);
        self.inflight -= 1;
    }
}

fn op_name(kind: OpKind) -> &'static str {
    match kind {
        OpKind::Read => "pread",
        OpKind::Write => "pwrite",
        OpKind::Fdatasync => "fdatasync",
        OpKind::Fsync => "fsync",
    }
}

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
pub fn run_worker_with<E: Engine, C: Clock, V: Verify>(
    mut engine: E,
    plan: WorkerPlan,
    clock: &C,
    mut ver: V,
) -> WorkerReport {
    let WorkerPlan {
        id,
        qd,
        mut pattern,
        sync,
        mut data,
        seed,
        targets,
        origin,
        start,
        settle_from,
        measure_secs,
        burst,
        quota,
        pace,
        poisson,
        stop,
        abort,
        intervals,
    } = plan;
    let mut rng = Rng::with_seed(seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let (flush_kind, flush_every) = match sync {
        SyncMode::Fdatasync(n) => (OpKind::Fdatasync, n),
        SyncMode::Fsync(n) => (OpKind::Fsync, n),
        SyncMode::None | SyncMode::Dsync => (OpKind::Fdatasync, 0),
    };
    let t0 = clock.now();
    let idle = Slot {
        kind: OpKind::Read,
        target: 0,
        offset: 0,
        len: 0,
        measured: false,
        flush_after: false,
        flushing: false,
        start: t0,
        flush_start: t0,
    };
    let mut st = State {
        slots: vec![idle; qd as usize],
        free: (0..qd).rev().collect(),
        inflight: 0,
        totals: [DirTotals::new(), DirTotals::new(), DirTotals::new()],
        interval: new_histogram(),
        iv_reads: 0,
        iv_writes: 0,
        iv_bytes: 0,
        settling: false,
        error: None,
        flush_kind,
    };
    let mut ops: Vec<Op> = Vec::with_capacity(qd as usize * 2);
    let mut writes_since_flush = 0u32;
    let mut issued = 0u64;
    let mut issued_bytes = 0u64;
    let mut stopping = false;
    // Until measuring starts these hold placeholders; its start gives them their values.
    let mut measure_from = start.get().unwrap_or(t0);
    let mut measuring = start.get().is_some_and(|m| t0 >= m);
    let until = |from: Instant| measure_secs.map(|s| from + Duration::from_secs_f64(s));
    let mut measure_until = if measuring { until(measure_from) } else { None };
    let mut cpu0 = thread_cpu();
    let mut next_tick = measure_from + Duration::from_secs(1);
    let mut tick_index = 0u32;
    let (mut next_settle_tick, mut settle_index) = (t0, 0u32);
    let mut next_due = t0;
    let mut behind = false;
    let mut now = t0;
    let mut last_issue = t0;
    let mut last_due = t0;

    loop {
        // Between bursts nothing is issued; a paced schedule resumes at the next burst.
        let off =
            burst.and_then(|b| off_until(&b, if measuring { measure_from } else { origin }, now));
        if let (Some(on), Some(_)) = (off, pace) {
            next_due = next_due.max(on);
        }
        // Issue until the queue is full, the schedule says wait, or there is nothing left to do.
        if !stopping && off.is_none() {
            while let Some(&slot) = st.free.last() {
                let may = match quota {
                    _ if !measuring => true,
                    Quota::None => true,
                    Quota::Ops(n) => issued < n,
                    Quota::Bytes(n) => issued_bytes < n,
                };
                if !may {
                    stopping = true;
                    break;
                }
                let start = match pace {
                    Some(iv) => {
                        if next_due > now {
                            break;
                        }
                        let due = next_due;
                        next_due += if poisson { exp_gap(iv, &mut rng) } else { iv };
                        (last_issue, last_due) = (now, due);
                        due
                    }
                    None => now,
                };
                let mut io = pattern.next(&mut rng);
                if V::ON && !claim(&mut ver, &mut io, &mut pattern, &mut rng) {
                    // Every draw hit a block with an I/O in flight: wait for completions.
                    break;
                }
                st.free.pop();
                let mut flush_after = false;
                if io.kind == OpKind::Write {
                    data.fill(&mut engine.buf(slot)[..io.len as usize], io.offset);
                    if V::ON {
                        let buf = &mut engine.buf(slot)[..io.len as usize];
                        ver.stamp(slot, io.target, io.offset, buf);
                    }
                    if flush_every > 0 {
                        writes_since_flush += 1;
                        if writes_since_flush == flush_every {
                            writes_since_flush = 0;
                            flush_after = true;
                        }
                    }
                }
                if measuring {
                    issued += 1;
                    issued_bytes += io.len as u64;
                }
                st.slots[slot as usize] = Slot {
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
                st.inflight += 1;
                ops.push(Op {
                    kind: io.kind,
                    target: io.target,
                    offset: io.offset,
                    len: io.len,
                    slot,
                });
            }
        }
        if st.inflight == 0 && stopping {
            break;
        }
        // Nothing in flight and nothing due yet (paced, or between bursts): sleep until the
        // next I/O is due, then keep the clock's bookkeeping below.
        let wake = off.or(pace.map(|_| next_due));
        if let (0, Some(wake)) = (st.inflight, wake) {
            std::thread::sleep(wake.saturating_duration_since(clock.now()).min(MAX_WAIT));
            now = clock.now();
        } else {
            let submit_at = clock.now();
            if pace.is_none() {
                for op in &ops {
                    let s = &mut st.slots[op.slot as usize];
                    if op.kind == OpKind::Read || op.kind == OpKind::Write {
                        s.start = submit_at;
                    }
                }
            }
            // Wait for a completion unless more I/O is due right now. (With deferred task work,
            // completions are only reaped by a wait, so a stopping worker must always wait.)
            let due_now =
                !stopping && !st.free.is_empty() && pace.is_some() && next_due <= submit_at;
            let (wait, timeout) = if st.inflight == 0 || due_now {
                (0, None)
            } else if pace.is_some() && !stopping && !st.free.is_empty() {
                let until_due = next_due.saturating_duration_since(submit_at);
                (1, Some(until_due.clamp(Duration::from_micros(1), MAX_WAIT)))
            } else {
                // One completion is enough to wake for, at every depth (as fio's default
                // iodepth_batch_complete_min=1): its clock stops when it is first seen, and
                // whatever else has completed by then is reaped with it.
                (1, Some(MAX_WAIT))
            };
            if let Err(e) = engine.submit(&ops, wait, timeout) {
                st.error.get_or_insert(e);
                break;
            }
            ops.clear();
            now = clock.now();
            engine.reap(|slot, res| st.complete(slot, res, now, &targets, &mut ops, &mut ver));
            if V::ON {
                ver.check(&mut engine);
            }
        }

        if let Some(from) = start.get().filter(|m| !measuring && now >= *m) {
            (measuring, measure_from, measure_until) = (true, from, until(from));
            next_tick = from + Duration::from_secs(1);
            cpu0 = thread_cpu();
            // Anything recorded during the ramp or settling is discarded.
            st.settling = false;
            st.totals = [DirTotals::new(), DirTotals::new(), DirTotals::new()];
            st.interval.reset();
            (st.iv_reads, st.iv_writes, st.iv_bytes) = (0, 0, 0);
        }
        if let Some(from) = settle_from.filter(|f| !measuring && !st.settling && now >= *f) {
            // Settling samples begin: the ramp's completions are left out.
            st.settling = true;
            next_settle_tick = from + Duration::from_secs(1);
            (st.iv_reads, st.iv_writes, st.iv_bytes) = (0, 0, 0);
        }
        while st.settling && now >= next_settle_tick {
            send_interval(&mut st, &intervals, id, settle_index, 1.0, true);
            settle_index += 1;
            next_settle_tick += Duration::from_secs(1);
        }
        while measuring && now >= next_tick {
            send_interval(&mut st, &intervals, id, tick_index, 1.0, false);
            tick_index += 1;
            next_tick += Duration::from_secs(1);
        }
        if st.error.is_some()
            || stop.load(Ordering::Relaxed)
            || abort.load(Ordering::Relaxed)
            || measure_until.is_some_and(|u| now >= u)
        {
            stopping = true;
        }
    }
    let end = clock.now();
    let last_secs =
        (end.saturating_duration_since(next_tick - Duration::from_secs(1))).as_secs_f64();
    if measuring && (last_secs > 0.0 || st.iv_reads + st.iv_writes > 0) {
        send_interval(
            &mut st,
            &intervals,
            id,
            tick_index,
            last_secs.min(1.0),
            false,
        );
    }
    let wall_s = if measuring {
        end.saturating_duration_since(measure_from).as_secs_f64()
    } else {
        0.0
    };
    if let Some(iv) = pace {
        // A kept schedule issues one I/O per interval up to the last issue; the drain after
        // it does not count against the rate.
        let issuing = last_issue
            .saturating_duration_since(measure_from)
            .as_secs_f64();
        // Between bursts nothing is due.
        let issuing = burst.map_or(issuing, |b| b.on_time(issuing));
        behind = if poisson {
            // Random gaps make the count of dues noisy: judge by how far the schedule lags.
            let lag = last_issue.saturating_duration_since(last_due).as_secs_f64();
            lag > issuing * 0.01 + iv.as_secs_f64()
        } else {
            let expected = issuing / iv.as_secs_f64();
            (issued as f64) < expected * 0.99 - 1.0
        };
    }
    ver.finish();
    let [read, write, flush] = st.totals;
    WorkerReport {
        read,
        write,
        flush,
        cpu: if measuring {
            thread_cpu().since(cpu0)
        } else {
            CpuTimes::default()
        },
        wall_s,
        issued,
        behind,
        error: st.error,
    }
}

/// Verify mode: claims the blocks of `io`, drawing other I/Os while one of its blocks has
/// an I/O in flight (at most 64 draws; false when all were busy).
#[inline]
fn claim<V: Verify>(
    ver: &mut V,
    io: &mut crate::pattern::NextIo,
    pattern: &mut Pattern,
    rng: &mut Rng,
) -> bool {
    for _ in 0..64 {
        if ver.claim(io.target, io.offset, io.len) {
            return true;
        }
        *io = pattern.next(rng);
    }
    false
}

/// One exponential gap with mean `mean` (the next arrival of a Poisson process).
pub fn exp_gap(mean: Duration, rng: &mut Rng) -> Duration {
    // 1 − u lies in (0, 1], so the logarithm is finite.
    mean.mul_f64(-(1.0 - rng.f64()).ln())
}

fn send_interval(
    st: &mut State,
    tx: &Sender<Interval>,
    worker: u32,
    index: u32,
    secs: f64,
    settling: bool,
) {
    let hist = std::mem::replace(&mut st.interval, new_histogram());
    let _ = tx.send(Interval {
        worker,
        index,
        settling,
        secs,
        read_ios: st.iv_reads,
        write_ios: st.iv_writes,
        bytes: st.iv_bytes,
        hist,
    });
    (st.iv_reads, st.iv_writes, st.iv_bytes) = (0, 0, 0);
}

#[cfg(test)]
mod tests;
