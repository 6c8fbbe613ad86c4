//! Write verification (`--verify`): every block a write carries gets a header (see
//! [`header`]); a table per target holds the last acknowledged write of every 4 KiB block of
//! the region; reads check what they got against it, a pass after the run reads every block
//! back, and a journal (`--verify-journal`) keeps the table on disk for `dbio verify`.
//!
//! No two I/Os in flight ever touch the same block (a worker draws another I/O when a block
//! is busy, as vdbench does), so what a block must hold is always known exactly.

pub mod error;
pub mod header;
pub mod journal;
pub mod judge;
pub mod pass;
pub mod setup;
pub mod table;

pub use judge::{judge, Judged};
pub use table::{bad_bits, bad_kind, StreamVerify, TargetTable, BAD, BUSY, KIND, SEQ, SKIP};

use dbio_engine::{Engine, OpKind};
use dbio_model::verify::{Corruption, CorruptionCounts, VerifyReport, FIRST_LISTED, VERIFY_UNIT};
use error::PassError;
use header::UNIT;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What a worker does for verification; [`NoVerify`] does nothing and compiles away.
pub trait Verify {
    /// False for [`NoVerify`]: the worker then skips every call.
    const ON: bool;
    /// Claims the blocks of an I/O; false when one of them has an I/O in flight (then the
    /// worker draws another I/O).
    fn claim(&mut self, target: u32, offset: u64, len: u32) -> bool;
    /// Gives write `buf` (about to go to `offset`) its headers, through `slot`.
    fn stamp(&mut self, slot: u32, target: u32, offset: u64, buf: &mut [u8]);
    /// An I/O on `slot` ended: `ok` when it did all its bytes.
    fn done(&mut self, slot: u32, kind: OpKind, target: u32, offset: u64, len: u32, ok: bool);
    /// Checks the reads that ended since the last call (their bytes are in the slots).
    fn check<E: Engine>(&mut self, engine: &mut E);
    /// The worker has ended.
    fn finish(&mut self);
}

/// No verification.
pub struct NoVerify;

impl Verify for NoVerify {
    const ON: bool = false;
    #[inline(always)]
    fn claim(&mut self, _: u32, _: u64, _: u32) -> bool {
        true
    }
    #[inline(always)]
    fn stamp(&mut self, _: u32, _: u32, _: u64, _: &mut [u8]) {}
    #[inline(always)]
    fn done(&mut self, _: u32, _: OpKind, _: u32, _: u64, _: u32, _: bool) {}
    #[inline(always)]
    fn check<E: Engine>(&mut self, _: &mut E) {}
    #[inline(always)]
    fn finish(&mut self) {}
}

/// A worker's verification: its slots' write sequences, the reads to check.
pub struct Checker {
    v: Arc<StreamVerify>,
    seqs: Vec<u64>,
    /// Reads ended and not yet checked: slot, target, offset, length.
    pending: Vec<(u32, u32, u64, u32)>,
    written: u64,
    checked: u64,
    unwritten: u64,
}

impl Checker {
    /// The verification of a worker with `slots` buffer slots.
    pub fn new(v: Arc<StreamVerify>, slots: u32) -> Self {
        Checker {
            v,
            seqs: vec![0; slots as usize],
            pending: Vec::with_capacity(slots as usize),
            written: 0,
            checked: 0,
            unwritten: 0,
        }
    }
}

impl Verify for Checker {
    const ON: bool = true;

    #[inline]
    fn claim(&mut self, target: u32, offset: u64, len: u32) -> bool {
        let t = &self.v.targets[target as usize];
        let range = t.range(offset, len);
        for i in range.clone() {
            let e = &t.blocks[i];
            let cur = e.load(Ordering::Acquire);
            if cur & BUSY != 0
                || e.compare_exchange(cur, cur | BUSY, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
            {
                for taken in &t.blocks[range.start..i] {
                    taken.fetch_and(!BUSY, Ordering::Release);
                }
                return false;
            }
        }
        true
    }

    #[inline]
    fn stamp(&mut self, slot: u32, target: u32, offset: u64, buf: &mut [u8]) {
        let seq = self.v.seq.fetch_add(1, Ordering::Relaxed) + 1;
        self.seqs[slot as usize] = seq;
        let tag = self.v.targets[target as usize].tag;
        for (k, block) in buf.chunks_exact_mut(UNIT).enumerate() {
            header::stamp(block, self.v.run, tag, offset + (k * UNIT) as u64, seq);
        }
    }

    #[inline]
    fn done(&mut self, slot: u32, kind: OpKind, target: u32, offset: u64, len: u32, ok: bool) {
        let t = &self.v.targets[target as usize];
        match (kind, ok) {
            (OpKind::Read, true) => self.pending.push((slot, target, offset, len)),
            (OpKind::Write, true) => {
                let seq = self.seqs[slot as usize];
                for e in &t.blocks[t.range(offset, len)] {
                    e.store(seq, Ordering::Release);
                }
                self.written += (len as usize / UNIT) as u64;
            }
            (OpKind::Write, false) => {
                // What the failed write left is unknown: not checked until written again.
                for e in &t.blocks[t.range(offset, len)] {
                    let cur = e.load(Ordering::Acquire);
                    e.store((cur & SEQ) | SKIP, Ordering::Release);
                }
            }
            _ => {
                for e in &t.blocks[t.range(offset, len)] {
                    e.fetch_and(!BUSY, Ordering::Release);
                }
            }
        }
    }

    fn check<E: Engine>(&mut self, engine: &mut E) {
        for (slot, target, offset, len) in self.pending.drain(..) {
            let t = &self.v.targets[target as usize];
            let buf = &engine.read_buf(slot)[..len as usize];
            for (k, i) in t.range(offset, len).enumerate() {
                let e = &t.blocks[i];
                let cur = e.load(Ordering::Acquire);
                let mut next = cur & !BUSY;
                if cur & SKIP == 0 {
                    let block = &buf[k * UNIT..(k + 1) * UNIT];
                    let at = offset + (k * UNIT) as u64;
                    let found = header::read(block, self.v.run);
                    match judge(found, block, cur & SEQ, t.tag, at) {
                        Judged::Good => self.checked += 1,
                        Judged::Unwritten => self.unwritten += 1,
                        Judged::Bad(kind, expected, found) => {
                            self.checked += 1;
                            next |= bad_bits(kind);
                            self.v.record(Corruption {
                                kind,
                                target: t.name.clone(),
                                offset: at,
                                found_by: "read".into(),
                                expected,
                                found,
                            });
                        }
                    }
                }
                e.store(next, Ordering::Release);
            }
        }
    }

    fn finish(&mut self) {
        self.v.written.fetch_add(self.written, Ordering::Relaxed);
        self.v
            .checked_by_reads
            .fetch_add(self.checked, Ordering::Relaxed);
        self.v
            .unwritten
            .fetch_add(self.unwritten, Ordering::Relaxed);
        (self.written, self.checked, self.unwritten) = (0, 0, 0);
    }
}

/// The verification of a whole run: each stream's tables and the journal.
pub struct Verification {
    pub run: u64,
    pub streams: Vec<Arc<StreamVerify>>,
    pub journal: Option<journal::JournalWriter>,
    pub journal_path: Option<String>,
}

/// What verification found after the run, and why the run failed because of it, if it did
/// (the journal could not be kept, or the pass could not read what it had to check).
pub struct Finished {
    pub report: VerifyReport,
    pub failure: Option<String>,
}

impl Verification {
    /// The verification of stream `i`, when it verifies.
    pub fn of_stream(&self, i: usize) -> Option<Arc<StreamVerify>> {
        self.streams.get(i).cloned()
    }

    /// The report after the run: (unless `skip_pass` says why not) the pass that reads every
    /// block of every region back, then the journal's last sync, so that the blocks the pass
    /// found bad are journaled bad too. `stop`, when set, ends the pass early: the pass is
    /// then incomplete ("interrupted: ..."), which does not fail the run.
    pub fn finish(
        mut self,
        files: &[Vec<&std::fs::File>],
        skip_pass: Option<String>,
        stop: Option<&AtomicBool>,
    ) -> Finished {
        let (pass, checked_after, unwritten_after) = match skip_pass {
            Some(why) => (Err(PassError::Skipped(why)), 0, 0),
            None => self.final_pass(files, stop),
        };
        let journal_failure = self
            .journal
            .take()
            .and_then(|j| j.close().err())
            .map(|e| e.to_string());
        let final_pass = match (&pass, &journal_failure) {
            (Ok(()), None) => "done".to_string(),
            (Ok(()), Some(j)) => format!("done; {j}"),
            (Err(p), None) => p.to_string(),
            (Err(p), Some(j)) => format!("{p}; {j}"),
        };
        let failure = match (pass, journal_failure) {
            (Err(p @ PassError::Stopped(_)), j) => Some(match j {
                Some(j) => format!("{j}; the verify pass {p}"),
                None => format!("the verify pass {p}"),
            }),
            (_, j) => j,
        };
        let report = self.report(final_pass, checked_after, unwritten_after);
        Finished { report, failure }
    }

    /// The pass after the run over every target: "stopped: ..." at the first read error,
    /// "interrupted: ..." when `stop` is set. Returns the pass's end and the blocks it checked
    /// and found unwritten.
    fn final_pass(
        &self,
        files: &[Vec<&std::fs::File>],
        stop: Option<&AtomicBool>,
    ) -> (Result<(), PassError>, u64, u64) {
        let (mut checked, mut unwritten) = (0, 0);
        for (s, files) in self.streams.iter().zip(files) {
            for (t, f) in s.targets.iter().zip(files) {
                let r = pass::final_pass(s, t, f, stop);
                checked += r.checked;
                unwritten += r.unwritten;
                if let Some(e) = r.stopped {
                    return (Err(PassError::Stopped(e)), checked, unwritten);
                }
                if r.interrupted {
                    return (Err(PassError::Interrupted), checked, unwritten);
                }
            }
        }
        (Ok(()), checked, unwritten)
    }

    /// The report of the whole run, with the pass's end and counts.
    fn report(&self, final_pass: String, checked_after: u64, unwritten_after: u64) -> VerifyReport {
        let mut counts = CorruptionCounts::default();
        let mut first = Vec::new();
        let (mut written, mut by_reads, mut unwritten) = (0, 0, unwritten_after);
        for s in &self.streams {
            let f = s.found.lock().unwrap_or_else(|e| e.into_inner());
            counts = counts.plus(&f.counts);
            first.extend(f.first.iter().cloned());
            written += s.written.load(Ordering::Relaxed);
            by_reads += s.checked_by_reads.load(Ordering::Relaxed);
            unwritten += s.unwritten.load(Ordering::Relaxed);
        }
        first.truncate(FIRST_LISTED);
        VerifyReport {
            run_id: format!("{:016x}", self.run),
            unit_bytes: VERIFY_UNIT,
            blocks_written: written,
            blocks_checked_by_reads: by_reads,
            blocks_checked_after: checked_after,
            blocks_unwritten: unwritten,
            final_pass,
            journal: self.journal_path.clone(),
            corrupt: counts,
            first,
        }
    }
}

#[cfg(test)]
mod tests;
