//! Test data of a chosen reducibility (`--data dedupe:R,compress:C,unit:SIZE`), a repeated
//! byte pattern (`--data pattern:0x…`), and the one interface every writer (workers, prefill,
//! the session writers) fills its buffers through.
//!
//! Reducible data is made of units (the dedupe unit, 4–128 KiB) of 4 KiB chunks. Each chunk
//! is a 16-byte stamp derived from the unit's id and the chunk's place, then incompressible
//! bytes up to `head`, then zeros; `head` is chosen so that LZ4 and zstd -1 compress a chunk
//! (hence a unit) by C. The incompressible bytes are the run's pool for the chunk's place,
//! XORed with a key of the stamp: units of equal id are equal, units of different ids share
//! no byte string (a compressor whose window spans many units gets no more than C). A write
//! buffer's zero tails are laid out once and each write only stamps and keys the heads. Units of equal id are equal; ids are drawn by an exact quota: of
//! the first n units a writer makes, ceil(n / R) have new ids and the rest repeat one of the
//! writer's recent ids (uniformly among its last [`DEDUPE_WINDOW`]), so its stream dedupes
//! by R (exactly at multiples of R).
//! Writers never share ids (each has its own tag), and the stamp is salted with a per-run
//! seed, so no two runs, streams or writers share a block.

use crate::data::{fill_random, mix, xor_key, Stamper};
use dbio_model::{units::format_size, ContentSample, DataInfo, DataKind, Reducibility};
use fastrand::Rng;

/// Size of the chunks whose compressibility is set (the smallest dedupe unit).
pub const CHUNK: usize = 4096;
/// Bytes of the stamp at the start of every chunk.
const STAMP: usize = 16;
/// A duplicate repeats one of its writer's last this many new units (as fio's
/// dedupe_working_set): recent units are still on the target, so the array finds them
/// stored, unless the target holds fewer than about R × this many units.
pub const DEDUPE_WINDOW: u64 = 1024;
/// Compressed bytes LZ4 and zstd -1 spend on a chunk beyond its incompressible head (the
/// literal-run and match headers of the zero tail, LZ4's last literals), measured: LZ4 spends
/// about 20, zstd about 6; the middle keeps both within a few percent of C.
const CHUNK_OVERHEAD: usize = 12;

/// Incompressible bytes at the start of each 4 KiB chunk (stamp included) for ratio `c`.
pub fn head_len(c: f64) -> usize {
    if c <= 1.0 {
        return CHUNK;
    }
    let want = (CHUNK as f64 / c).round() as usize;
    want.saturating_sub(CHUNK_OVERHEAD).clamp(STAMP, CHUNK)
}

/// The unit stream of one writer: lays out buffers and stamps each unit with its id.
#[derive(Debug, Clone)]
pub struct Reducer {
    unit: usize,
    head: usize,
    /// Dedupe ratio in thousandths (exact integer quota arithmetic).
    ratio_milli: u64,
    /// The incompressible bytes of every chunk place in a unit (unit bytes long).
    pool: Vec<u8>,
    salt: u64,
    /// First id of this writer: ids are `base..base + new_ids`.
    base: u64,
    /// Units made so far.
    made: u64,
    /// New ids drawn so far.
    new_ids: u64,
    rng: Rng,
}

impl Reducer {
    /// The stream of writer `tag` (0..2^16) in a run seeded with `seed`; writers of one seed
    /// lay out the same bytes, so only their ids tell their blocks apart.
    pub fn new(r: &Reducibility, seed: u64, tag: u64) -> Self {
        let unit = r.unit as usize;
        let mut pool = vec![0u8; unit];
        fill_random(&mut pool, &mut Rng::with_seed(mix(seed ^ 0x706f_6f6c)));
        Reducer {
            unit,
            head: head_len(r.compress),
            ratio_milli: (r.dedupe * 1000.0).round().max(1000.0) as u64,
            pool,
            salt: mix(seed ^ 0x7265_6475),
            base: (tag & 0xFFFF) << 40,
            made: 0,
            new_ids: 0,
            rng: Rng::with_seed(mix(seed ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15))),
        }
    }

    /// Lays out `buf` (which starts at a unit boundary): every chunk gets its place's
    /// incompressible bytes and a zero tail. Done once per buffer; writes then only stamp.
    pub fn layout(&self, buf: &mut [u8]) {
        let per_unit = self.unit / CHUNK;
        for (k, chunk) in buf.chunks_mut(CHUNK).enumerate() {
            let place = (k % per_unit) * CHUNK;
            let head = self.head.min(chunk.len());
            chunk[..head].copy_from_slice(&self.pool[place..place + head]);
            chunk[head..].fill(0);
        }
    }

    /// The id of the next unit: new while the quota ceil(n / R) allows, else one of the last
    /// [`DEDUPE_WINDOW`] new ids.
    #[inline]
    fn next_id(&mut self) -> u64 {
        self.made += 1;
        // ceil(made·1000 / ratio_milli) > new_ids, without a division.
        if self.made * 1000 > self.new_ids * self.ratio_milli {
            self.new_ids += 1;
            self.base + self.new_ids - 1
        } else {
            self.base + self.new_ids - 1 - self.rng.u64(..self.new_ids.min(DEDUPE_WINDOW))
        }
    }

    /// Stamps every unit of a laid-out `buf` with its id (a last partial unit counts as one).
    #[inline]
    pub fn stamp(&mut self, buf: &mut [u8]) {
        for unit in buf.chunks_mut(self.unit) {
            let id = self.next_id();
            for (j, chunk) in unit.chunks_mut(CHUNK).enumerate() {
                let a = mix(((id << 5) | j as u64) ^ self.salt);
                let head = self.head.min(chunk.len());
                if head > STAMP {
                    let place = j * CHUNK;
                    chunk[STAMP..head].copy_from_slice(&self.pool[place + STAMP..place + head]);
                    xor_key(&mut chunk[STAMP..head], mix(a ^ 0x006b_6579));
                }
                let mut s = [0u8; STAMP];
                s[..8].copy_from_slice(&a.to_le_bytes());
                s[8..].copy_from_slice(&mix(a ^ 0x5354_414d).to_le_bytes());
                let n = chunk.len().min(STAMP);
                chunk[..n].copy_from_slice(&s[..n]);
            }
        }
    }

    /// Units made and new ids drawn so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.made, self.new_ids)
    }
}

/// Fills `buf` with `pattern` repeated, in phase with byte offset `at` of the stream.
pub fn fill_pattern(buf: &mut [u8], pattern: &[u8], at: u64) {
    if pattern.is_empty() {
        return buf.fill(0);
    }
    let n = pattern.len();
    let phase = (at % n as u64) as usize;
    let first = buf.len().min(n);
    for (i, b) in buf[..first].iter_mut().enumerate() {
        *b = pattern[(phase + i) % n];
    }
    // Doubling copies: memcpy speed, whatever the pattern's length.
    let mut done = first;
    while done < buf.len() {
        let len = done.min(buf.len() - done);
        buf.copy_within(..len, done);
        done += len;
    }
}

/// The data of a redo log under `kind`: its writes are neither unit-sized nor unit-aligned,
/// so reducible data keeps its compressibility but every unit of the log is unique.
pub fn log_data(kind: &DataKind) -> DataKind {
    match kind {
        DataKind::Reducible(r) => DataKind::Reducible(Reducibility { dedupe: 1.0, ..*r }),
        other => other.clone(),
    }
}

/// The prefill's fill function for `kind`: the bytes of the piece at file offset `off`.
/// Reducible data gets a writer of its own (tag 0, seeded by `rng`), so it shares no unit
/// with the workers' writes; 1 MiB pieces are whole units.
pub fn prefill_data<'a>(kind: &DataKind, rng: &'a mut Rng) -> impl FnMut(&mut [u8], u64) + 'a {
    let seed = rng.u64(..);
    let mut data = match kind {
        DataKind::Reducible(r) => Some(Reducer::new(r, seed, 0)),
        _ => None,
    };
    let kind = kind.clone();
    let pattern = kind.pattern_bytes();
    move |buf: &mut [u8], off: u64| match (&kind, data.as_mut()) {
        (DataKind::Zeros, _) => buf.fill(0),
        (DataKind::Pattern(_), _) => fill_pattern(buf, &pattern, off),
        (DataKind::Reducible(_), Some(r)) => {
            r.layout(buf);
            r.stamp(buf);
        }
        _ => fill_random(buf, rng),
    }
}

/// What the result says about the data: its kind, in plain words, and its parameters.
pub fn data_info(kind: &DataKind, prefill: Vec<String>, sampled: Vec<ContentSample>) -> DataInfo {
    let description = match kind {
        DataKind::Random => {
            "incompressible pseudo-random bytes; every 4 KiB block written is unique and shares no byte string with another".into()
        }
        DataKind::Zeros => "zero bytes: a reducing array dedupes and compresses them away".into(),
        DataKind::Pattern(p) => {
            format!("the byte pattern {p} repeated (in phase with file offsets): a reducing array stores next to nothing")
        }
        DataKind::Reducible(r) => format!(
            "dedupes {}:1 at {} units (of the first n units a writer makes, ceil(n / {}) are new and the rest repeat one of its last 1024 new units; the prefill and each thread are writers of their own) and its unique units compress {}:1 with LZ4 and zstd -1 (every 4 KiB: incompressible bytes, then zeros); a session's redo log compresses alike but every unit is unique",
            r.dedupe,
            format_size(r.unit),
            r.dedupe,
            r.compress
        ),
    };
    let r = match kind {
        DataKind::Reducible(r) => Some(r),
        _ => None,
    };
    DataInfo {
        kind: kind.name().into(),
        description,
        prefill,
        dedupe_ratio: r.map(|r| r.dedupe),
        compress_ratio: r.map(|r| r.compress),
        unit_bytes: r.map(|r| r.unit),
        pattern: match kind {
            DataKind::Pattern(p) => Some(p.clone()),
            _ => None,
        },
        sampled,
    }
}

/// How one writer makes the bytes of its writes: `prepare` each buffer once, before the
/// clock starts, then `fill` it before every write (cheap: at most a stamp per chunk).
#[derive(Debug, Clone)]
pub enum WriteData {
    Random { stamper: Stamper, rng: Rng },
    Zeros,
    Pattern(Vec<u8>),
    Reducible(Box<Reducer>),
}

impl WriteData {
    /// The data of writer `tag` (a worker id, unique in its stream) in a stream seeded `seed`.
    pub fn new(kind: &DataKind, seed: u64, tag: u32) -> Self {
        match kind {
            DataKind::Random => WriteData::Random {
                stamper: Stamper::new(seed, tag),
                rng: Rng::with_seed(seed ^ (tag as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)),
            },
            DataKind::Zeros => WriteData::Zeros,
            DataKind::Pattern(_) => WriteData::Pattern(kind.pattern_bytes()),
            DataKind::Reducible(r) => {
                WriteData::Reducible(Box::new(Reducer::new(r, seed, tag as u64 + 1)))
            }
        }
    }

    /// Lays out a write buffer once (random bytes, zeros, the pattern, or chunk layout).
    pub fn prepare(&mut self, buf: &mut [u8]) {
        match self {
            WriteData::Random { rng, .. } => fill_random(buf, rng),
            WriteData::Zeros => buf.fill(0),
            WriteData::Pattern(p) => fill_pattern(buf, p, 0),
            WriteData::Reducible(r) => r.layout(buf),
        }
    }

    /// Makes a prepared buffer's first bytes (`buf`, the write to byte offset `at` of its
    /// target) this write's data. A pattern is rewritten in phase with `at`.
    #[inline]
    pub fn fill(&mut self, buf: &mut [u8], at: u64) {
        match self {
            WriteData::Random { stamper, .. } => stamper.stamp(buf),
            WriteData::Zeros => {}
            WriteData::Pattern(p) => fill_pattern(buf, p, at),
            WriteData::Reducible(r) => r.stamp(buf),
        }
    }
}

#[cfg(test)]
mod tests;
