//! The compression sample: during the pass, the unique blocks with the k smallest
//! priorities (bits of their fingerprint, so a uniform sample without replacement) are noted
//! with where they are; after it, as many of them as the bound needs over the unique blocks
//! found are compressed, each once. Blocks whose priority is low enough to be in the final
//! sample whatever the data are compressed during the pass; the rest are read again after.

use super::block::{Compressors, Hashing, Kind, Sizes};
use super::sources::Source;
use dbio_analyze::reduce as math;
use std::collections::BinaryHeap;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// A unique block in the sample: its priority, fingerprint and place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pick {
    pub prio: u64,
    pub fp: u128,
    pub source: usize,
    pub offset: u64,
    /// Compressed during the pass.
    pub sizes: Option<Sizes>,
}

/// The k smallest priorities seen so far.
pub struct BottomK {
    k: usize,
    /// Bytes the pass reads in all, and unique blocks seen so far: together they project
    /// the unique blocks of the whole pass, and so the share the final sample takes.
    total_bytes: u64,
    unique: AtomicU64,
    /// The eager share when every block is unique: the least it can be.
    floor: u64,
    /// Priorities below it are compressed during the pass.
    eager: AtomicU64,
    threshold: AtomicU64,
    heap: Mutex<BinaryHeap<Pick>>,
}

/// The priority below which a block is in the final sample drawn from `unique` blocks with
/// little doubt: the sample's share of them, less four of its standard deviations.
fn sure_share(k: usize, unique: f64) -> u64 {
    let unique = unique.max(1.0);
    let m = math::samples_for(bound(k), math::HOEFFDING_DELTA, unique as u64) as f64;
    let share = (m / unique * (1.0 - 4.0 / m.sqrt())).clamp(0.0, 1.0);
    (share * u64::MAX as f64) as u64
}

impl BottomK {
    /// An empty sample of at most `k` blocks out of `blocks` in `total_bytes`.
    pub fn new(k: usize, blocks: u64, total_bytes: u64) -> Self {
        let floor = sure_share(k, blocks as f64);
        BottomK {
            k,
            total_bytes,
            unique: AtomicU64::new(0),
            floor,
            eager: AtomicU64::new(floor),
            threshold: AtomicU64::new(u64::MAX),
            heap: Mutex::new(BinaryHeap::new()),
        }
    }

    /// Counts a unique block, whether or not it is offered.
    #[inline]
    pub fn saw_unique(&self) {
        self.unique.fetch_add(1, Ordering::Relaxed);
    }

    /// True when a block of this priority is to be compressed during the pass.
    #[inline]
    pub fn eager(&self, prio: u64) -> bool {
        prio < self.eager.load(Ordering::Relaxed)
    }

    /// Projects the unique blocks of the whole pass from the `bytes_read` so far and moves
    /// the eager share to match. A wrong projection costs work, never accuracy: a block
    /// compressed in vain is left out, a block missed is read again after the pass.
    pub fn project(&self, bytes_read: u64) {
        if bytes_read == 0 {
            return;
        }
        let seen = self.unique.load(Ordering::Relaxed) as f64;
        let projected = seen * self.total_bytes as f64 / bytes_read as f64;
        let e = sure_share(self.k, projected).max(self.floor);
        self.eager.store(e, Ordering::Relaxed);
    }

    /// True when a block of this priority could still be in the sample.
    #[inline]
    pub fn wants(&self, prio: u64) -> bool {
        prio < self.threshold.load(Ordering::Relaxed)
    }

    /// Notes a unique block.
    pub fn offer(&self, p: Pick) {
        let mut h = self.heap.lock().expect("no worker panics holding it");
        if h.len() < self.k {
            h.push(p);
        } else if h.peek().is_some_and(|top| p < *top) {
            h.pop();
            h.push(p);
        }
        if h.len() == self.k {
            let top = h.peek().map_or(u64::MAX, |t| t.prio);
            self.threshold.store(top, Ordering::Relaxed);
        }
    }

    /// The picks that give the bound `k` samples would give by Hoeffding's bound, drawn from
    /// `unique` blocks (fewer than k when `unique` is finite), sorted by place.
    pub fn select(self, unique: u64) -> Vec<Pick> {
        let m = math::samples_for(bound(self.k), math::HOEFFDING_DELTA, unique.max(1)) as usize;
        let mut picks = self.heap.into_inner().expect("workers are done").into_vec();
        picks.sort_unstable();
        picks.truncate(m);
        picks.sort_unstable_by_key(|p| (p.source, p.offset));
        picks
    }
}

/// The bound Hoeffding's inequality gives `k` samples.
fn bound(k: usize) -> f64 {
    math::hoeffding_bound(k as u64, math::HOEFFDING_DELTA)
}

/// The compressed sizes of the sample, summed, and how many blocks were left out because
/// they no longer held what was fingerprinted (the source changed since the pass).
#[derive(Debug, Default)]
pub struct SampleSizes {
    pub blocks: u64,
    pub sizes: Sizes,
    pub changed: u64,
}

/// Sums the picks compressed during the pass, and reads and compresses the others, one
/// share per compressor's thread, through the page cache (small reads in offset order).
pub fn compress(
    picks: &[Pick],
    unit: usize,
    list: &[Source],
    hashing: Hashing,
    comps: &mut [Compressors],
) -> SampleSizes {
    let mut t = SampleSizes::default();
    let mut later = Vec::new();
    for p in picks {
        match p.sizes {
            Some(s) => t.add(s),
            None => later.push(*p),
        }
    }
    let share = later.len().div_ceil(comps.len().max(1)).max(1);
    let parts: Vec<SampleSizes> = std::thread::scope(|s| {
        let handles: Vec<_> = later
            .chunks(share)
            .zip(comps.iter_mut())
            .map(|(part, comp)| s.spawn(move || compress_part(part, unit, list, hashing, comp)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a reduce worker panicked"))
            .collect()
    });
    for p in parts {
        t.blocks += p.blocks;
        t.changed += p.changed;
        t.sizes += p.sizes;
    }
    t
}

impl SampleSizes {
    /// Counts one block of these sizes.
    fn add(&mut self, s: Sizes) {
        self.blocks += 1;
        self.sizes += s;
    }
}

fn compress_part(
    picks: &[Pick],
    unit: usize,
    list: &[Source],
    hashing: Hashing,
    comp: &mut Compressors,
) -> SampleSizes {
    let mut t = SampleSizes::default();
    let mut buf = vec![0u8; unit];
    let mut open: Option<(usize, std::fs::File)> = None;
    for p in picks {
        if open.as_ref().is_none_or(|(i, _)| *i != p.source) {
            open = dbio_engine::device::open_noatime(&list[p.source].path, false, 0)
                .ok()
                .map(|f| (p.source, f));
        }
        let block = buf.as_mut_slice();
        let read = open
            .as_ref()
            .map_or(0, |(_, f)| read_block(f, p.offset, block));
        // The tail of a source was fingerprinted padded with zeros: pad it the same way.
        block[read..].fill(0);
        let same = read > 0 && matches!(hashing.kind(block), Kind::Data(fp) if fp == p.fp);
        if !same {
            t.changed += 1;
            continue;
        }
        t.add(comp.sizes(block));
    }
    t
}

/// Reads up to `block.len()` bytes at `offset` (fewer at the end of the source; 0 on error).
fn read_block(f: &std::fs::File, offset: u64, block: &mut [u8]) -> usize {
    let mut len = 0;
    while len < block.len() {
        match f.read_at(&mut block[len..], offset + len as u64) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return 0,
        }
    }
    len
}
