//! The record side of a worker: its buffer slots while their I/Os are in flight, and what
//! every completion adds to the totals and to the current second's interval.

use super::report::{DirTotals, Interval};
use crate::verify::Verify;
use dbio_engine::{IoError, Op, OpKind};
use dbio_model::histogram::new_histogram;
use dbio_model::Moments;
use hdrhistogram::Histogram;
use std::time::Instant;

/// State of one buffer slot while its I/O is in flight.
#[derive(Clone, Copy)]
pub(super) struct Slot {
    pub(super) kind: OpKind,
    pub(super) target: u32,
    pub(super) offset: u64,
    pub(super) len: u32,
    pub(super) measured: bool,
    /// A write that a flush must follow before it counts as done.
    pub(super) flush_after: bool,
    /// The write is done and its flush is in flight.
    pub(super) flushing: bool,
    pub(super) start: Instant,
    pub(super) flush_start: Instant,
}

/// Everything the completion path touches, apart from the engine.
pub(super) struct State {
    pub(super) slots: Vec<Slot>,
    pub(super) free: Vec<u32>,
    pub(super) inflight: u32,
    /// Counts of the measured window; the latencies of reads and writes join their
    /// histograms from each second's as it ends (one record per I/O, not two).
    pub(super) totals: [DirTotals; 3],
    /// The current second's latencies of reads and of writes.
    pub(super) interval: [Histogram<u64>; 2],
    pub(super) iv_reads: u64,
    pub(super) iv_writes: u64,
    pub(super) iv_bytes: u64,
    /// Settling: completions of unmeasured I/Os count in the interval counters.
    pub(super) settling: bool,
    pub(super) error: Option<IoError>,
    pub(super) flush_kind: OpKind,
    /// Reads and writes on each target, kept only when there are several.
    pub(super) per_target: Vec<[Moments; 2]>,
}

const READ: usize = 0;
const WRITE: usize = 1;
const FLUSH: usize = 2;

impl State {
    /// The state of a worker with `qd` free slots over `targets` targets, its clock read
    /// first at `t0`; a flush is of `flush_kind`.
    pub(super) fn new(qd: u32, targets: usize, flush_kind: OpKind, t0: Instant) -> Self {
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
        State {
            slots: vec![idle; qd as usize],
            free: (0..qd).rev().collect(),
            inflight: 0,
            totals: [DirTotals::new(), DirTotals::new(), DirTotals::new()],
            interval: [new_histogram(), new_histogram()],
            iv_reads: 0,
            iv_writes: 0,
            iv_bytes: 0,
            settling: false,
            error: None,
            flush_kind,
            per_target: if targets > 1 {
                vec![[Moments::default(); 2]; targets]
            } else {
                Vec::new()
            },
        }
    }

    /// Records the completion of the I/O on `slot` with result `res`, seen at `now`: its
    /// latency, or its error, or (a write a flush must follow) its flush queued in `resubmit`.
    #[inline]
    pub(super) fn complete<V: Verify>(
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
        if matches!(s.kind, OpKind::Fdatasync | OpKind::Fsync) {
            // A flush of its own (a replayed trace's): counted with the flushes alone.
            if s.measured {
                let lat = now.saturating_duration_since(s.start).as_nanos() as u64;
                self.totals[FLUSH].ios += 1;
                self.totals[FLUSH].hist.saturating_record(lat);
            }
            self.release(slot);
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
            self.interval[dir].saturating_record(lat);
            if let Some(m) = self.per_target.get_mut(s.target as usize) {
                m[dir].add(lat, s.len);
            }
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

    /// `slot` is free again.
    #[inline]
    fn release(&mut self, slot: u32) {
        self.free.push(slot);
        self.inflight -= 1;
    }

    /// Takes the current second's interval (its histogram and counters), leaving it empty;
    /// its latencies join the totals' histograms.
    pub(super) fn take_interval(
        &mut self,
        worker: u32,
        index: u32,
        secs: f64,
        settling: bool,
    ) -> Interval {
        let mut hist = new_histogram();
        for (d, h) in self.interval.iter_mut().enumerate() {
            if !h.is_empty() {
                // Same bounds and precision: adding cannot fail.
                let _ = self.totals[d].hist.add(&*h);
                let _ = hist.add(&*h);
                h.reset();
            }
        }
        let iv = Interval {
            worker,
            index,
            settling,
            secs,
            read_ios: self.iv_reads,
            write_ios: self.iv_writes,
            bytes: self.iv_bytes,
            hist,
        };
        self.clear_interval();
        iv
    }

    /// Empties the current second's counters (not its histogram).
    pub(super) fn clear_interval(&mut self) {
        (self.iv_reads, self.iv_writes, self.iv_bytes) = (0, 0, 0);
    }
}

/// The name of the system call of `kind`, for error messages.
fn op_name(kind: OpKind) -> &'static str {
    match kind {
        OpKind::Read => "pread",
        OpKind::Write => "pwrite",
        OpKind::Fdatasync => "fdatasync",
        OpKind::Fsync => "fsync",
    }
}
