//! The precision and range of dbio's histograms, and their compact text form: HdrHistogram's
//! interval-log encoding (V2, deflated, base64).

use super::error::HistogramError;
use hdrhistogram::Histogram;

/// Significant digits of the latency histograms of a run's totals (0.1 % buckets).
pub const SIGFIG: u8 = 3;
/// Significant digits of the per-second histograms (1 % buckets): a second takes a few hundred
/// bytes instead of several KiB, so an hour of seconds from many hosts stays small and merges
/// fast. Each of its buckets is the union of whole buckets of [`SIGFIG`], so the seconds'
/// histograms sum exactly at this precision.
pub const SECOND_SIGFIG: u8 = 2;
/// Largest latency recorded exactly, in nanoseconds (one hour); longer ones saturate to it.
pub const HIGHEST_NS: u64 = 3_600_000_000_000;

/// A new empty latency histogram in nanoseconds with dbio's fixed precision and range.
pub fn new_histogram() -> Histogram<u64> {
    histogram_of(SIGFIG)
}

/// A new empty histogram of dbio's range at `sigfig` significant digits (1 to 5).
pub fn histogram_of(sigfig: u8) -> Histogram<u64> {
    Histogram::new_with_bounds(1, HIGHEST_NS, sigfig).expect("constant histogram bounds are valid")
}

/// Encodes `h` as HdrHistogram's interval logs do: the V2 format, deflated, in base64. One
/// second of latencies takes a few KiB, and HdrHistogram's log tools can read it.
pub fn encode_compact(h: &Histogram<u64>) -> String {
    Encoder::default().encode(h)
}

/// [`encode_compact`] with its buffers kept from one histogram to the next, its deflater too
/// (a new one each time made and zeroed some 300 KB a histogram).
#[derive(Default)]
pub struct Encoder {
    v2: Vec<u8>,
    out: Vec<u8>,
    second: Option<Histogram<u64>>,
    deflate: Option<flate2::Compress>,
}

impl Encoder {
    /// `h` brought to [`SECOND_SIGFIG`] digits (unchanged if it is already), then encoded:
    /// the form of a second's histogram in results.
    pub fn encode_second(&mut self, h: &Histogram<u64>) -> String {
        if h.sigfig() == SECOND_SIGFIG {
            return self.encode(h);
        }
        let mut coarse = self
            .second
            .take()
            .unwrap_or_else(|| histogram_of(SECOND_SIGFIG));
        coarse.reset();
        coarse
            .add(h)
            .expect("histograms of dbio's range add at any precision");
        let text = self.encode(&coarse);
        self.second = Some(coarse);
        text
    }

    /// `h` in the V2 compressed encoding, base64: the V2 bytes deflated (zlib) at the
    /// fastest level, behind V2's compressed cookie and length, as `V2DeflateSerializer`
    /// writes them (which deflates at the default level, for a few per cent less).
    pub fn encode(&mut self, h: &Histogram<u64>) -> String {
        use base64::Engine;
        use hdrhistogram::serialization::{Serializer, V2Serializer};
        self.v2.clear();
        V2Serializer::new()
            .serialize(h, &mut self.v2)
            .expect("serializing a histogram into memory cannot fail");
        self.out.clear();
        self.out.extend_from_slice(&0x1c84_9314u32.to_be_bytes());
        self.out.extend_from_slice(&[0; 4]);
        let z = self
            .deflate
            .get_or_insert_with(|| flate2::Compress::new(flate2::Compression::fast(), true));
        z.reset();
        deflate_into(z, &self.v2, &mut self.out);
        let len = (self.out.len() - 8) as u32;
        self.out[4..8].copy_from_slice(&len.to_be_bytes());
        base64::engine::general_purpose::STANDARD.encode(&self.out)
    }
}

/// Deflates `input` onto `out` with `z` (fresh or reset) as `flate2::write::ZlibEncoder`
/// does: all of it without flushing, then finished; so the bytes are the same.
fn deflate_into(z: &mut flate2::Compress, input: &[u8], out: &mut Vec<u8>) {
    use flate2::{FlushCompress, Status};
    let mut rest = input;
    while !rest.is_empty() {
        out.reserve(rest.len() / 2 + 64);
        let before = z.total_in();
        z.compress_vec(rest, out, FlushCompress::None)
            .expect("deflating into memory cannot fail");
        rest = &rest[(z.total_in() - before) as usize..];
    }
    loop {
        out.reserve(4096);
        let st = z
            .compress_vec(&[], out, FlushCompress::Finish)
            .expect("deflating into memory cannot fail");
        if st == Status::StreamEnd {
            return;
        }
    }
}

/// Decodes a histogram written by [`encode_compact`] (or by any HdrHistogram interval log).
pub fn decode_compact(s: &str) -> Result<Histogram<u64>, HistogramError> {
    use base64::Engine;
    use hdrhistogram::serialization::Deserializer;
    let bytes = base64::engine::general_purpose::STANDARD.decode(s.trim())?;
    let h: Histogram<u64> = Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| HistogramError::NotHdr(format!("{e:?}")))?;
    // Into dbio's own precision and range, so that merging is exact bucket for bucket.
    let mut out = new_histogram();
    out.add(&h)
        .map_err(|e| HistogramError::OutOfRange(format!("{e:?}")))?;
    Ok(out)
}

/// A deterministic heavy-tailed spread of `n` latencies from about 1 µs, seeded by `seed`:
/// the values the histogram tests record.
#[cfg(test)]
pub(crate) fn test_latencies(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            (1000.0 * (1.0 / (1.0 - u * 0.99999)).powf(1.5)) as u64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The kept deflater gives the bytes a new `ZlibEncoder` gives, histogram after histogram,
    /// small and large.
    #[test]
    fn the_kept_deflater_writes_what_a_new_one_does() {
        use base64::Engine;
        use hdrhistogram::serialization::{Serializer, V2Serializer};
        use std::io::Write;
        let mut enc = super::Encoder::default();
        for (seed, n) in [(1, 0), (2, 1), (3, 50), (4, 5_000), (5, 200_000), (6, 30)] {
            let mut h = super::new_histogram();
            for v in super::test_latencies(seed, n) {
                h.saturating_record(v);
            }
            let mut v2 = Vec::new();
            V2Serializer::new().serialize(&h, &mut v2).unwrap();
            let mut out = 0x1c84_9314u32.to_be_bytes().to_vec();
            out.extend_from_slice(&[0; 4]);
            let mut z = flate2::write::ZlibEncoder::new(&mut out, flate2::Compression::fast());
            z.write_all(&v2).unwrap();
            z.finish().unwrap();
            let len = (out.len() - 8) as u32;
            out[4..8].copy_from_slice(&len.to_be_bytes());
            let want = base64::engine::general_purpose::STANDARD.encode(&out);
            assert_eq!(enc.encode(&h), want, "{n} latencies");
        }
    }

    #[test]
    fn compact_encoding_round_trips_bucket_for_bucket() {
        let mut h = super::new_histogram();
        for v in [1_000u64, 1_001, 5_000, 77_777, 1_000_000, 3_600_000_000_000] {
            h.record_n(v, v % 7 + 1).unwrap();
        }
        let back = super::decode_compact(&super::encode_compact(&h)).unwrap();
        assert_eq!(back, h);
        assert!(super::decode_compact("not base64!").is_err());
        assert!(super::decode_compact("aGVsbG8=").is_err());
    }
}
