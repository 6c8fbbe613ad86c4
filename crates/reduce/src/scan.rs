//! The pass over the data: worker threads take the sources chunk by chunk from one cursor,
//! read them (O_DIRECT where the file system allows it), and classify, fingerprint and
//! compress their blocks at every dedupe unit, sharing one sharded fingerprint table per
//! unit. With a compression sample, the pass only notes the sample and compresses it after.

use super::block::{classify, combine, CompressSpec, Compressors, Hashing, Kind, Sizes};
use super::cursor::{Cursor, Outcome};
use super::sample::{self, BottomK, Pick};
use super::sources::{self, Source};
use super::table::FpTable;
use dbio_engine::AlignedBuf;
use dbio_model::reduce::{ReduceSource, SkippedPath};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

/// Bytes read at a time: a multiple of every dedupe unit (at most 128 KiB).
pub const CHUNK: usize = 4 << 20;
/// Shards of each unit's fingerprint table (locks taken per block, rarely contended).
const SHARDS: usize = 64;

/// How the pass keeps fingerprints and compresses.
#[derive(Debug, Clone)]
pub struct ScanPlan {
    /// Dedupe units in bytes, ascending.
    pub units: Vec<usize>,
    pub compress: CompressSpec,
    /// Compress only the unique blocks with the k smallest fingerprints (a uniform sample).
    pub compress_sample: Option<usize>,
    /// Keep fingerprints with hash mod modulus == residue (modulus 1: all of them).
    pub modulus: u64,
    pub residue: u64,
    pub seed: u64,
    pub threads: usize,
    pub buffered: bool,
}

/// Counts of one unit from one worker, then summed.
#[derive(Debug, Clone, Default)]
pub struct UnitCounts {
    pub blocks: u64,
    pub zero: u64,
    pub pattern: u64,
    pub used: u64,
    /// Fingerprints that were new when inserted (kept ones only in sampled mode).
    pub unique: u64,
    /// Unique blocks compressed, their raw bytes and compressed sizes.
    pub compressed: u64,
    pub raw: u64,
    pub sizes: Sizes,
}

impl UnitCounts {
    fn add(&mut self, o: &UnitCounts) {
        self.blocks += o.blocks;
        self.zero += o.zero;
        self.pattern += o.pattern;
        self.used += o.used;
        self.unique += o.unique;
        self.compressed += o.compressed;
        self.raw += o.raw;
        self.sizes += o.sizes;
    }

    fn compressed_one(&mut self, unit: usize, s: Sizes) {
        self.compressed += 1;
        self.raw += unit as u64;
        self.sizes += s;
    }
}

/// What the pass found.
#[derive(Debug, Default)]
pub struct ScanOutput {
    /// Per unit: counts, and the fingerprint table's bytes.
    pub units: Vec<(UnitCounts, u64)>,
    /// True when compression covered a sample of the unique blocks, not all of them.
    pub compression_sampled: bool,
    pub bytes_read: u64,
    /// All-zero blocks of the smallest unit on block devices.
    pub device_zero_blocks: u64,
    pub sources: Vec<ReduceSource>,
    pub skipped: Vec<SkippedPath>,
    pub notes: Vec<String>,
    pub partial: bool,
}

/// The shared state of one unit.
struct UnitState {
    unit: usize,
    shards: Vec<Mutex<FpTable>>,
    bottom: Option<BottomK>,
}

/// The empty state of each unit of `plan`: its fingerprint shards, and its compression
/// sample when the plan samples.
fn unit_states(plan: &ScanPlan, list: &[Source]) -> Vec<UnitState> {
    plan.units
        .iter()
        .map(|&unit| UnitState {
            unit,
            shards: (0..SHARDS)
                .map(|_| Mutex::new(FpTable::default()))
                .collect(),
            bottom: plan.compress_sample.map(|k| {
                let blocks = list.iter().map(|s| s.size.div_ceil(unit as u64)).sum();
                BottomK::new(k, blocks, list.iter().map(|s| s.size).sum())
            }),
        })
        .collect()
}

/// Reads every source once, calling `progress` with the bytes read so far.
pub fn scan(
    plan: &ScanPlan,
    list: &[Source],
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<ScanOutput> {
    let states = unit_states(plan, list);
    let max_unit = plan.units.iter().copied().max().unwrap_or(4096);
    let threads = plan.threads.max(1);
    let cursor = Cursor::new(list, plan.buffered, CHUNK);
    // Made before any worker starts: a failure then cannot leave workers waiting for work.
    let compressors = (0..threads)
        .map(|_| Compressors::new(&plan.compress, max_unit))
        .collect::<std::io::Result<Vec<_>>>()?;
    let (done_tx, done_rx) = channel::<()>();
    let totals = std::thread::scope(|s| {
        let workers: Vec<_> = compressors
            .into_iter()
            .map(|comp| {
                let (states, cursor, done_tx) = (&states, &cursor, done_tx.clone());
                s.spawn(move || {
                    let r = worker(plan, states, cursor, stop, max_unit, comp);
                    let _ = done_tx.send(());
                    r
                })
            })
            .collect();
        drop(done_tx);
        // This thread shows progress until every worker is done.
        while let Ok(()) | Err(RecvTimeoutError::Timeout) =
            done_rx.recv_timeout(Duration::from_millis(100))
        {
            progress(cursor.bytes());
            if workers.iter().all(|w| w.is_finished()) {
                break;
            }
        }
        progress(cursor.bytes());
        workers
            .into_iter()
            .map(|w| w.join().expect("a reduce worker panicked"))
            .collect::<Vec<_>>()
    });
    let mut out = ScanOutput {
        bytes_read: cursor.bytes(),
        partial: cursor.partial.load(Ordering::Relaxed),
        ..ScanOutput::default()
    };
    record_sources(list, cursor.into_outcomes(), &mut out);
    let mut comps: Vec<Compressors> = Vec::with_capacity(threads);
    let mut device_zero = 0;
    let mut counts = vec![UnitCounts::default(); states.len()];
    for (c, zero, comp) in totals {
        for (sum, one) in counts.iter_mut().zip(&c) {
            sum.add(one);
        }
        device_zero += zero;
        comps.push(comp);
    }
    for (st, mut c) in states.into_iter().zip(counts) {
        if let Some(b) = st.bottom {
            let picks = b.select(c.unique);
            let hashing = Hashing {
                base: plan.units[0],
                seed: plan.seed,
            };
            let got = sample::compress(&picks, st.unit, list, hashing, &mut comps);
            if got.changed > 0 {
                out.notes.push(format!(
                    "{} of the {} blocks sampled for compression at unit {} changed before they were compressed; the sample leaves them out",
                    got.changed,
                    picks.len(),
                    dbio_model::units::format_size(st.unit as u64)
                ));
            }
            (c.compressed, c.raw, c.sizes) = (got.blocks, got.blocks * st.unit as u64, got.sizes);
        }
        let bytes = st
            .shards
            .iter()
            .map(|t| t.lock().expect("workers are done").bytes())
            .sum();
        out.units.push((c, bytes));
    }
    out.device_zero_blocks = device_zero;
    out.compression_sampled =
        !plan.compress.none() && (plan.modulus > 1 || plan.compress_sample.is_some());
    Ok(out)
}

/// One worker: claims chunks until none are left, and returns its counts per unit, the
/// all-zero blocks of devices, and its compressors (for the sample).
fn worker(
    plan: &ScanPlan,
    states: &[UnitState],
    cursor: &Cursor,
    stop: &AtomicBool,
    max_unit: usize,
    mut comp: Compressors,
) -> (Vec<UnitCounts>, u64, Compressors) {
    let mut counts = vec![UnitCounts::default(); states.len()];
    let mut device_zero = 0;
    let mut buf = AlignedBuf::new(CHUNK);
    let base = plan.units[0];
    // The kinds of the chunk's blocks at the smallest unit, and at the unit in hand.
    let (mut base_kinds, mut kinds) = (Vec::new(), Vec::new());
    while let Some(c) = cursor.claim(stop) {
        let len = cursor.read(&c, buf.as_mut_slice());
        if len == 0 {
            continue;
        }
        let padded = len.div_ceil(max_unit) * max_unit;
        buf.as_mut_slice()[len..padded].fill(0);
        let data = &buf.as_slice()[..padded];
        let at = Place {
            source: c.open.index,
            offset: c.offset,
        };
        // Each byte is hashed once, at the smallest unit; larger units combine those kinds.
        base_kinds.clear();
        base_kinds.extend(data.chunks_exact(base).map(|b| classify(b, plan.seed)));
        for (st, n) in states.iter().zip(counts.iter_mut()) {
            let blocks = len.div_ceil(st.unit);
            let these = if st.unit == base {
                &base_kinds[..blocks]
            } else {
                let k = st.unit / base;
                kinds.clear();
                kinds.extend(
                    base_kinds
                        .chunks_exact(k)
                        .take(blocks)
                        .map(|p| combine(p, plan.seed)),
                );
                &kinds[..]
            };
            let z = work(plan, st, &data[..blocks * st.unit], these, at, n, &mut comp);
            if let Some(bk) = &st.bottom {
                bk.project(cursor.bytes());
            }
            if c.device && st.unit == base {
                device_zero += z;
            }
        }
    }
    (counts, device_zero, comp)
}

/// Where a chunk starts.
#[derive(Clone, Copy)]
struct Place {
    source: usize,
    offset: u64,
}

/// Counts, dedupes and compresses the blocks of one unit in `data` (a whole number of
/// blocks, the tail padded with zeros), whose kinds are `kinds`; returns the all-zero blocks.
fn work(
    plan: &ScanPlan,
    st: &UnitState,
    data: &[u8],
    kinds: &[Kind],
    at: Place,
    n: &mut UnitCounts,
    comp: &mut Compressors,
) -> u64 {
    let mut zero = 0;
    for (i, (b, kind)) in data.chunks_exact(st.unit).zip(kinds).enumerate() {
        n.blocks += 1;
        let h = match *kind {
            Kind::Zero => {
                zero += 1;
                continue;
            }
            Kind::Pattern(_) => {
                n.pattern += 1;
                continue;
            }
            Kind::Data(h) => h,
        };
        n.used += 1;
        let hi = (h >> 64) as u64;
        if plan.modulus > 1 && hi % plan.modulus != plan.residue {
            continue;
        }
        let shard = (hi >> 58) as usize % SHARDS;
        if !st.shards[shard]
            .lock()
            .expect("no worker panics holding it")
            .insert(h)
        {
            continue;
        }
        n.unique += 1;
        if plan.compress.none() {
            continue;
        }
        match &st.bottom {
            Some(bk) => {
                bk.saw_unique();
                let prio = h as u64;
                if bk.wants(prio) {
                    bk.offer(Pick {
                        prio,
                        fp: h,
                        source: at.source,
                        offset: at.offset + (i * st.unit) as u64,
                        sizes: bk.eager(prio).then(|| comp.sizes(b)),
                    });
                }
            }
            None => {
                let s = comp.sizes(b);
                n.compressed_one(st.unit, s);
            }
        }
    }
    n.zero += zero;
    zero
}

/// Turns what each source gave into the result's sources, skipped paths and notes.
fn record_sources(list: &[Source], outcomes: Vec<Outcome>, out: &mut ScanOutput) {
    for (src, o) in list.iter().zip(outcomes) {
        let shown = src.path.display().to_string();
        if let Some(e) = o.open_error {
            out.skipped.push(SkippedPath {
                path: shown,
                error: e.to_string(),
            });
            continue;
        }
        if !o.opened {
            continue;
        }
        let changed = !src.device && o.before != sources::stamp(&src.path);
        if changed {
            out.notes.push(format!(
                "{shown}: changed while it was read (size or modification time differs); its figures mix old and new content"
            ));
        }
        if let Some(e) = o.error {
            out.skipped.push(SkippedPath {
                path: shown.clone(),
                error: e.to_string(),
            });
        }
        out.sources.push(ReduceSource {
            path: shown,
            kind: if src.device { "device" } else { "file" }.into(),
            bytes: o.bytes,
            allocated_bytes: if src.device { o.bytes } else { src.allocated },
            direct: o.direct,
            changed,
        });
    }
}
