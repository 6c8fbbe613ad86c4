//! The one pass over the data: this thread reads chunks (O_DIRECT where the file system
//! allows it) and worker threads classify, fingerprint and compress their blocks at every
//! dedupe unit, sharing one sharded fingerprint table per unit.

use super::block::{classify, CompressSpec, Compressors, Kind, Sizes};
use super::sources::{self, Source};
use super::table::FpTable;
use dbio_engine::AlignedBuf;
use dbio_model::reduce::{ReduceSource, SkippedPath};
use std::collections::BinaryHeap;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::Mutex;

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
        self.sizes.lz4 += o.sizes.lz4;
        self.sizes.zstd += o.sizes.zstd;
        self.sizes.bucket += o.sizes.bucket;
    }

    fn compressed_one(&mut self, unit: usize, s: Sizes) {
        self.compressed += 1;
        self.raw += unit as u64;
        self.sizes.lz4 += s.lz4;
        self.sizes.zstd += s.zstd;
        self.sizes.bucket += s.bucket;
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

/// The k smallest fingerprint priorities seen and their compressed sizes.
struct BottomK {
    k: usize,
    threshold: AtomicU64,
    heap: Mutex<BinaryHeap<(u64, Sizes)>>,
}

impl BottomK {
    fn offer(&self, prio: u64, s: Sizes) {
        let mut h = self.heap.lock().expect("no worker panics holding it");
        if h.len() < self.k {
            h.push((prio, s));
        } else if h.peek().is_some_and(|top| prio < top.0) {
            h.pop();
            h.push((prio, s));
        }
        if h.len() == self.k {
            let top = h.peek().map_or(u64::MAX, |t| t.0);
            self.threshold.store(top, Ordering::Relaxed);
        }
    }
}

/// The shared state of one unit.
struct UnitState {
    unit: usize,
    shards: Vec<Mutex<FpTable>>,
    bottom: Option<BottomK>,
}

/// A chunk of one source on its way to a worker.
struct Chunk {
    buf: AlignedBuf,
    len: usize,
    device: bool,
}

/// Reads every source once, calling `progress` with the bytes read so far.
pub fn scan(
    plan: &ScanPlan,
    list: &[Source],
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> std::io::Result<ScanOutput> {
    let states: Vec<UnitState> = plan
        .units
        .iter()
        .map(|&unit| UnitState {
            unit,
            shards: (0..SHARDS)
                .map(|_| Mutex::new(FpTable::default()))
                .collect(),
            bottom: plan.compress_sample.map(|k| BottomK {
                k,
                threshold: AtomicU64::new(u64::MAX),
                heap: Mutex::new(BinaryHeap::new()),
            }),
        })
        .collect();
    let max_unit = plan.units.iter().copied().max().unwrap_or(4096);
    let threads = plan.threads.max(1);
    let pool = 2 * threads + 2;
    let (work_tx, work_rx) = sync_channel::<Chunk>(pool);
    let (free_tx, free_rx) = channel::<AlignedBuf>();
    for _ in 0..pool {
        free_tx
            .send(AlignedBuf::new(CHUNK))
            .expect("receiver alive");
    }
    let work_rx = Mutex::new(work_rx);
    let mut out = ScanOutput::default();
    // Made before any worker starts: a failure then cannot leave workers waiting for work.
    let compressors = (0..threads)
        .map(|_| Compressors::new(&plan.compress, max_unit))
        .collect::<std::io::Result<Vec<_>>>()?;
    let totals = std::thread::scope(|s| -> Vec<(Vec<UnitCounts>, u64)> {
        let mut workers = Vec::new();
        for mut comp in compressors {
            let (states, work_rx, free_tx) = (&states, &work_rx, free_tx.clone());
            workers.push(s.spawn(move || {
                let mut counts = vec![UnitCounts::default(); states.len()];
                let mut device_zero = 0;
                loop {
                    let next = work_rx.lock().expect("no worker panics holding it").recv();
                    let Ok(c) = next else { break };
                    let data = &c.buf.as_slice()[..c.len.div_ceil(max_unit) * max_unit];
                    for (st, n) in states.iter().zip(counts.iter_mut()) {
                        let z = work(
                            plan,
                            st,
                            &data[..c.len.div_ceil(st.unit) * st.unit],
                            n,
                            &mut comp,
                        );
                        if c.device && st.unit == plan.units[0] {
                            device_zero += z;
                        }
                    }
                    let _ = free_tx.send(c.buf);
                }
                (counts, device_zero)
            }));
        }
        drop(free_tx);
        read_all(
            plan, list, max_unit, stop, progress, &work_tx, &free_rx, &mut out,
        );
        drop(work_tx);
        workers
            .into_iter()
            .map(|w| w.join().expect("a reduce worker panicked"))
            .collect()
    });
    out.units = states
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let mut c = UnitCounts::default();
            for (counts, _) in &totals {
                c.add(&counts[i]);
            }
            if let Some(b) = &st.bottom {
                c.compressed = 0;
                c.raw = 0;
                c.sizes = Sizes::default();
                for &(_, s) in b.heap.lock().expect("workers are done").iter() {
                    c.compressed_one(st.unit, s);
                }
            }
            let bytes = st
                .shards
                .iter()
                .map(|t| t.lock().expect("workers are done").bytes())
                .sum();
            (c, bytes)
        })
        .collect();
    out.device_zero_blocks = totals.iter().map(|t| t.1).sum();
    out.compression_sampled =
        !plan.compress.none() && (plan.modulus > 1 || plan.compress_sample.is_some());
    Ok(out)
}

/// Classifies, fingerprints and compresses the blocks of one unit in `data` (a whole number
/// of blocks, the tail padded with zeros); returns the all-zero blocks.
fn work(
    plan: &ScanPlan,
    st: &UnitState,
    data: &[u8],
    n: &mut UnitCounts,
    comp: &mut Compressors,
) -> u64 {
    let mut zero = 0;
    for b in data.chunks_exact(st.unit) {
        n.blocks += 1;
        let h = match classify(b, plan.seed) {
            Kind::Zero => {
                zero += 1;
                continue;
            }
            Kind::Pattern => {
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
                let prio = h as u64;
                if prio < bk.threshold.load(Ordering::Relaxed) {
                    bk.offer(prio, comp.sizes(b));
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

/// Reads each source into chunks for the workers, recording what was read, skipped or changed.
#[allow(clippy::too_many_arguments)]
fn read_all(
    plan: &ScanPlan,
    list: &[Source],
    max_unit: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64),
    work_tx: &std::sync::mpsc::SyncSender<Chunk>,
    free_rx: &std::sync::mpsc::Receiver<AlignedBuf>,
    out: &mut ScanOutput,
) {
    for src in list {
        if stop.load(Ordering::Relaxed) {
            out.partial = true;
            return;
        }
        let shown = src.path.display().to_string();
        let before = sources::stamp(&src.path);
        let (mut file, mut direct) = match sources::open(&src.path, plan.buffered) {
            Ok(x) => x,
            Err(e) => {
                out.skipped.push(SkippedPath {
                    path: shown,
                    error: e.to_string(),
                });
                continue;
            }
        };
        let mut offset = 0u64;
        let mut failed = None;
        loop {
            if stop.load(Ordering::Relaxed) {
                out.partial = true;
                break;
            }
            let Ok(mut buf) = free_rx.recv() else { return };
            let mut len = 0;
            let eof = loop {
                match file.read_at(&mut buf.as_mut_slice()[len..CHUNK], offset + len as u64) {
                    Ok(0) => break true,
                    Ok(n) => {
                        len += n;
                        if len == CHUNK {
                            break false;
                        }
                        if direct && len % 512 != 0 {
                            break true;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) if direct && e.raw_os_error() == Some(libc::EINVAL) => {
                        match sources::open(&src.path, true) {
                            Ok((f, _)) => {
                                file = f;
                                direct = false;
                            }
                            Err(e) => {
                                failed = Some(e);
                                break true;
                            }
                        }
                    }
                    Err(e) => {
                        failed = Some(std::io::Error::new(
                            e.kind(),
                            format!("read at byte {}: {e}", offset + len as u64),
                        ));
                        break true;
                    }
                }
            };
            if len > 0 {
                let padded = len.div_ceil(max_unit) * max_unit;
                buf.as_mut_slice()[len..padded].fill(0);
                offset += len as u64;
                out.bytes_read += len as u64;
                progress(out.bytes_read);
                let chunk = Chunk {
                    buf,
                    len,
                    device: src.device,
                };
                if work_tx.send(chunk).is_err() {
                    return;
                }
            }
            if eof {
                break;
            }
        }
        let changed = !src.device && before != sources::stamp(&src.path);
        if changed {
            out.notes.push(format!(
                "{shown}: changed while it was read (size or modification time differs); its figures mix old and new content"
            ));
        }
        if let Some(e) = failed {
            out.skipped.push(SkippedPath {
                path: shown.clone(),
                error: e.to_string(),
            });
        }
        out.sources.push(ReduceSource {
            path: shown,
            kind: if src.device { "device" } else { "file" }.into(),
            bytes: offset,
            allocated_bytes: if src.device { offset } else { src.allocated },
            direct,
            changed,
        });
    }
}
