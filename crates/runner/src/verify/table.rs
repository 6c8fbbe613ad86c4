//! The block tables of write verification: one entry per 4 KiB block of a target's region,
//! saying which write it must hold (or that it is busy, skipped or bad), and a stream's
//! tables with what its checks found.

use super::header;
use dbio_model::verify::{Corruption, CorruptionCounts, CorruptionKind, FIRST_LISTED, VERIFY_UNIT};
use header::UNIT;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A block table entry: an I/O is in flight on the block.
pub const BUSY: u64 = 1 << 63;
/// A block table entry: the block is not to be checked (a write to it failed, or it was
/// already found bad) until it is written again.
pub const SKIP: u64 = 1 << 62;
/// A block table entry: the block was found bad (and not written since); bits [`KIND`] say
/// how. Kept in the journal, so every later `dbio verify` reports it bad too.
pub const BAD: u64 = 1 << 61;
/// A block table entry: how a [`BAD`] block was bad (the index in [`CorruptionKind::ALL`]).
pub const KIND: u64 = 3 << KIND_SHIFT;
const KIND_SHIFT: u32 = 59;
/// A block table entry: the sequence of the last acknowledged write (0: none in this run).
pub const SEQ: u64 = (1 << KIND_SHIFT) - 1;

/// The entry bits that mark a block found bad as `kind` (and not to be checked again).
pub fn bad_bits(kind: CorruptionKind) -> u64 {
    let i = CorruptionKind::ALL
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(0) as u64;
    SKIP | BAD | (i << KIND_SHIFT)
}

/// How the block of entry `e` was found bad, when it was.
pub fn bad_kind(e: u64) -> Option<CorruptionKind> {
    (e & BAD != 0).then(|| CorruptionKind::ALL[((e & KIND) >> KIND_SHIFT) as usize])
}

/// The verified region of one target.
#[derive(Debug)]
pub struct TargetTable {
    pub name: String,
    /// The tag block headers carry for this target.
    pub tag: u64,
    /// Byte offset of the first block of the region.
    pub start: u64,
    /// One entry per 4 KiB block of the region.
    pub blocks: Box<[AtomicU64]>,
}

impl TargetTable {
    /// The table of `blocks` blocks from byte `start` of target `name`.
    pub fn new(name: &str, start: u64, blocks: u64) -> Self {
        TargetTable {
            name: name.to_string(),
            tag: header::target_tag(name),
            start,
            blocks: (0..blocks).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Entries of the blocks covered by `len` bytes at `offset`.
    #[inline]
    pub(super) fn range(&self, offset: u64, len: u32) -> std::ops::Range<usize> {
        let first = ((offset - self.start) / VERIFY_UNIT) as usize;
        first..first + len as usize / UNIT
    }
}

/// What the checks found: counts by kind and the first bad blocks.
#[derive(Debug, Default)]
pub(super) struct Findings {
    pub(super) counts: CorruptionCounts,
    pub(super) first: Vec<Corruption>,
}

/// The verification state of one stream, shared by its workers.
#[derive(Debug)]
pub struct StreamVerify {
    /// The run's id, in every header.
    pub run: u64,
    pub targets: Vec<TargetTable>,
    /// The last sequence number handed out.
    pub(super) seq: AtomicU64,
    pub(super) found: Mutex<Findings>,
    pub(super) written: AtomicU64,
    pub(super) checked_by_reads: AtomicU64,
    pub(super) unwritten: AtomicU64,
}

impl StreamVerify {
    /// Verification of `targets` (name, region start, blocks) in run `run`.
    pub fn new(run: u64, targets: Vec<TargetTable>) -> Self {
        StreamVerify {
            run,
            targets,
            seq: AtomicU64::new(0),
            found: Mutex::new(Findings::default()),
            written: AtomicU64::new(0),
            checked_by_reads: AtomicU64::new(0),
            unwritten: AtomicU64::new(0),
        }
    }

    /// Records a bad block (once: it is then skipped until written again).
    pub fn record(&self, c: Corruption) {
        let mut f = self.found.lock().unwrap_or_else(|e| e.into_inner());
        f.counts.add(c.kind);
        if f.first.len() < FIRST_LISTED {
            f.first.push(c);
        }
    }

    /// Counts by kind so far.
    pub fn counts(&self) -> CorruptionCounts {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).counts
    }

    /// Blocks whose writes were acknowledged so far.
    pub fn blocks_written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }
}
