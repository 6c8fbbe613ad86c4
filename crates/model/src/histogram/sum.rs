//! The sum of many compactly encoded histograms (HdrHistogram's V2 interval-log encoding,
//! base64), decoded straight into one array of counts: merging thousands of per-second
//! histograms costs no full-range histogram per decoded one.

use super::codec::{decode_compact, histogram_of};
use super::error::HistogramError;
use hdrhistogram::Histogram;
use libdeflater::{DecompressionError, Decompressor};

/// V2 cookies as the `hdrhistogram` crate and HdrHistogram (Java) write them.
const V2_COOKIE: u32 = 0x1c84_9313;
const V2_COMPRESSED_COOKIE: u32 = 0x1c84_9314;
/// The most an inflated histogram may take: dbio's widest histogram with every count at
/// its longest is under 2 MiB.
const MAX_PAYLOAD: usize = 64 * 1024 * 1024;
/// Bytes of a V2 header after its cookie: payload length, normalizing offset, significant
/// digits, lowest and highest trackable value, integer-to-double ratio.
const V2_HEADER: usize = 4 + 4 + 4 + 8 + 8 + 8;
/// The bucket layout of a histogram from 1 ns with `sigfig` significant digits: `half` is
/// log2 of half its sub-buckets (2 × 10^3 needs 2048 sub-buckets, 2^11: half is 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    sigfig: u8,
    half: u32,
}

impl Layout {
    /// The layout of `sigfig` digits (1 to 5, as HdrHistogram allows).
    pub const fn of(sigfig: u8) -> Self {
        let sub = 2 * 10u64.pow(sigfig as u32);
        // Sub-buckets are the next power of two above 2 × 10^sigfig.
        let half = 64 - (sub - 1).leading_zeros() - 1;
        Layout { sigfig, half }
    }

    /// Index into the counts array of the bucket holding `v`.
    pub fn index_of(self, v: u64) -> usize {
        let half_count = 1usize << self.half;
        let bucket = 63 - (v | (2 * half_count as u64 - 1)).leading_zeros() - self.half;
        let sub = (v >> bucket) as usize;
        (((bucket + 1) as usize) << self.half) + sub - half_count
    }

    /// The lowest value of the bucket at `index`.
    pub fn value_of(self, index: usize) -> u64 {
        let half_count = 1usize << self.half;
        let bucket = (index >> self.half) as i64 - 1;
        let sub = (index & (half_count - 1)) + half_count;
        if bucket < 0 {
            (sub - half_count) as u64
        } else {
            (sub as u64) << bucket
        }
    }
}

/// Adds up encoded histograms bucket for bucket; reusable after [`HistogramSum::clear`].
pub struct HistogramSum {
    layout: Layout,
    counts: Vec<u64>,
    /// Lowest and highest index holding a count (`lo > hi` when empty).
    lo: usize,
    hi: usize,
    base64: Vec<u8>,
    payload: Vec<u8>,
    inflate: Decompressor,
}

impl HistogramSum {
    /// An empty sum over dbio's range, at `sigfig` significant digits (the run totals'
    /// [`super::SIGFIG`] or the seconds' [`super::SECOND_SIGFIG`]).
    pub fn new(sigfig: u8) -> Self {
        HistogramSum {
            layout: Layout::of(sigfig),
            counts: vec![0; histogram_of(sigfig).distinct_values()],
            lo: usize::MAX,
            hi: 0,
            base64: Vec::new(),
            payload: Vec::new(),
            inflate: Decompressor::new(),
        }
    }

    /// True when nothing has been added (or every histogram added was empty).
    pub fn is_empty(&self) -> bool {
        self.lo > self.hi
    }

    /// Empties the sum, touching only the counts that were set.
    pub fn clear(&mut self) {
        if !self.is_empty() {
            self.counts[self.lo..=self.hi].fill(0);
        }
        self.lo = usize::MAX;
        self.hi = 0;
    }

    /// Adds one histogram encoded by [`super::encode_compact`] or any HdrHistogram interval
    /// log line (V2, deflated or not, base64). Err says what the text is not; the sum is then
    /// unspecified until cleared.
    pub fn add_compact(&mut self, s: &str) -> Result<(), HistogramError> {
        let text = s.trim().as_bytes();
        let b64 = base64_simd::STANDARD;
        let len = b64.decoded_length(text)?;
        self.base64.resize(len, 0);
        let used = b64
            .decode(text, base64_simd::Out::from_slice(&mut self.base64))?
            .len();
        self.base64.truncate(used);
        let bytes = std::mem::take(&mut self.base64);
        let added = self.add_v2(&bytes, s);
        self.base64 = bytes;
        added
    }

    /// Adds a V2 histogram (`bytes`, cookie first); `s` is its text for the slow path.
    fn add_v2(&mut self, bytes: &[u8], s: &str) -> Result<(), HistogramError> {
        match be_u32(bytes, 0) {
            Some(V2_COMPRESSED_COOKIE) => {
                let len = be_u32(bytes, 4).ok_or(HistogramError::Truncated)? as usize;
                let body = bytes.get(8..8 + len).ok_or(HistogramError::Truncated)?;
                let n = self.inflate_into_payload(body)?;
                let payload = std::mem::take(&mut self.payload);
                let added = self.add_payload(&payload[..n], s);
                self.payload = payload;
                added
            }
            Some(V2_COOKIE) => self.add_payload(bytes, s),
            _ => Err(HistogramError::NotHdr("unknown cookie".into())),
        }
    }

    /// Inflates a zlib stream into the start of `self.payload` and returns its length. The
    /// buffer (never shrunk, zeroed only when it grows) doubles until it holds the whole, up
    /// to [`MAX_PAYLOAD`].
    fn inflate_into_payload(&mut self, body: &[u8]) -> Result<usize, HistogramError> {
        if self.payload.len() < 16 * 1024 {
            self.payload.resize(16 * 1024, 0);
        }
        loop {
            match self.inflate.zlib_decompress(body, &mut self.payload) {
                Ok(n) => return Ok(n),
                Err(DecompressionError::InsufficientSpace) if self.payload.len() < MAX_PAYLOAD => {
                    self.payload.resize(self.payload.len() * 2, 0)
                }
                Err(DecompressionError::InsufficientSpace) => {
                    return Err(HistogramError::NotHdr(
                        "the deflated data inflates past 64 MiB".into(),
                    ))
                }
                Err(DecompressionError::BadData) => {
                    return Err(HistogramError::NotHdr(
                        "the deflated data is damaged or truncated".into(),
                    ))
                }
            }
        }
    }

    /// Adds an uncompressed V2 histogram (cookie first). Histograms of another lowest value
    /// or precision go through the `hdrhistogram` crate's own decoder and an exact `add`.
    fn add_payload(&mut self, v2: &[u8], s: &str) -> Result<(), HistogramError> {
        let truncated = || HistogramError::NotHdr("truncated".into());
        if be_u32(v2, 0) != Some(V2_COOKIE) || v2.len() < 4 + V2_HEADER {
            return Err(truncated());
        }
        let len = be_u32(v2, 4).ok_or_else(truncated)? as usize;
        let offset = be_u32(v2, 8).ok_or_else(truncated)?;
        let digits = be_u32(v2, 12).ok_or_else(truncated)?;
        let low = u64::from_be_bytes(v2[16..24].try_into().expect("8 bytes"));
        let ratio = f64::from_be_bytes(v2[32..40].try_into().expect("8 bytes"));
        if offset != 0 || digits != u32::from(self.layout.sigfig) || low != 1 || ratio != 1.0 {
            return self.add_other_layout(s);
        }
        let body = v2.get(40..40 + len).ok_or_else(truncated)?;
        self.add_counts(body)
    }

    /// Adds the zig-zag LEB128 counts of a V2 payload laid out as dbio's histograms are.
    fn add_counts(&mut self, body: &[u8]) -> Result<(), HistogramError> {
        let (mut at, mut index) = (0usize, 0usize);
        let (mut first, mut last) = (usize::MAX, 0usize);
        while at < body.len() {
            // Most counts of a second are under 64: one byte.
            let zz = match body[at] {
                b if b < 0x80 => {
                    at += 1;
                    u64::from(b)
                }
                _ => {
                    let (v, used) = varint(&body[at..])
                        .ok_or_else(|| HistogramError::NotHdr("a truncated count".into()))?;
                    at += used;
                    v
                }
            };
            let n = ((zz >> 1) as i64) ^ -((zz & 1) as i64);
            if n < 0 {
                index = index.saturating_add(n.unsigned_abs() as usize);
                continue;
            }
            if n > 0 {
                let c = self.counts.get_mut(index).ok_or_else(|| {
                    HistogramError::OutOfRange("a latency beyond dbio's one hour".into())
                })?;
                *c = c
                    .checked_add(n as u64)
                    .ok_or_else(|| HistogramError::OutOfRange("count overflow".into()))?;
                first = first.min(index);
                last = index;
            }
            index += 1;
        }
        if first <= last {
            self.lo = self.lo.min(first);
            self.hi = self.hi.max(last);
        }
        Ok(())
    }

    /// The slow path for histograms of another layout: decoded whole, then added exactly
    /// (a finer histogram's buckets each lie inside one of a coarser one's).
    fn add_other_layout(&mut self, s: &str) -> Result<(), HistogramError> {
        let h = decode_compact(s)?;
        for v in h.iter_recorded() {
            let i = self
                .layout
                .index_of(h.lowest_equivalent(v.value_iterated_to()));
            self.counts[i] += v.count_at_value();
            self.lo = self.lo.min(i);
            self.hi = self.hi.max(i);
        }
        Ok(())
    }

    /// The counts from the lowest non-empty bucket to the highest, and the index of the first
    /// (empty when nothing was counted): a whole decoded histogram to add elsewhere at once.
    pub fn counts(&self) -> (usize, &[u64]) {
        if self.is_empty() {
            return (0, &[]);
        }
        (self.lo, &self.counts[self.lo..=self.hi])
    }

    /// The non-empty buckets as (index in [`Layout`], count), lowest index first: what a sum
    /// kept sparsely elsewhere takes from one decoded histogram.
    pub fn buckets(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let from = if self.is_empty() { 0 } else { self.lo };
        let counts = if self.is_empty() {
            &self.counts[..0]
        } else {
            &self.counts[self.lo..=self.hi]
        };
        let nonzero = counts.iter().enumerate().filter(|(_, &c)| c > 0);
        nonzero.map(move |(i, &c)| (from + i, c))
    }

    /// Adds `count` to the bucket at `index` (as [`HistogramSum::buckets`] gives it). Err
    /// when the index is beyond the range or the count overflows.
    pub fn add_bucket(&mut self, index: usize, count: u64) -> Result<(), HistogramError> {
        let c = self
            .counts
            .get_mut(index)
            .ok_or_else(|| HistogramError::OutOfRange("a latency beyond dbio's one hour".into()))?;
        *c = c
            .checked_add(count)
            .ok_or_else(|| HistogramError::OutOfRange("count overflow".into()))?;
        if count > 0 {
            self.lo = self.lo.min(index);
            self.hi = self.hi.max(index);
        }
        Ok(())
    }

    /// Total count of everything added.
    pub fn len(&self) -> u64 {
        if self.is_empty() {
            return 0;
        }
        self.counts[self.lo..=self.hi].iter().sum()
    }

    /// Writes the sum into `h` (a histogram of dbio's range, emptied first).
    pub fn write_into(&self, h: &mut Histogram<u64>) {
        h.reset();
        if self.is_empty() {
            return;
        }
        for (i, &c) in self.counts[self.lo..=self.hi].iter().enumerate() {
            if c > 0 {
                h.saturating_record_n(self.layout.value_of(self.lo + i), c);
            }
        }
    }

    /// The sum as a new histogram.
    pub fn to_histogram(&self) -> Histogram<u64> {
        let mut h = histogram_of(self.layout.sigfig);
        self.write_into(&mut h);
        h
    }
}

fn be_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// One LEB128 varint as V2 writes it (at most 9 bytes, the ninth holding 8 bits) and its
/// length; None when `b` ends inside it.
fn varint(b: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for (k, &byte) in b.iter().enumerate().take(9) {
        if k == 8 {
            return Some((v | (u64::from(byte) << 56), 9));
        }
        v |= u64::from(byte & 0x7f) << (7 * k);
        if byte & 0x80 == 0 {
            return Some((v, k + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests;
