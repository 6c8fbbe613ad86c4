//! Latency histograms as they travel in results: HDR buckets that merge exactly across
//! workers, runs and hosts, and the percentile summary computed from them.

use hdrhistogram::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) mod second;
mod sum;
pub use second::SecondHist;
pub use sum::{HistogramSum, Layout};

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

/// [`encode_compact`] with its buffers kept from one histogram to the next.
#[derive(Default)]
pub struct Encoder {
    v2: Vec<u8>,
    out: Vec<u8>,
    second: Option<Histogram<u64>>,
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
        use std::io::Write;
        self.v2.clear();
        V2Serializer::new()
            .serialize(h, &mut self.v2)
            .expect("serializing a histogram into memory cannot fail");
        self.out.clear();
        self.out.extend_from_slice(&0x1c84_9314u32.to_be_bytes());
        self.out.extend_from_slice(&[0; 4]);
        let mut z = flate2::write::ZlibEncoder::new(&mut self.out, flate2::Compression::fast());
        z.write_all(&self.v2)
            .and_then(|_| z.finish().map(|_| ()))
            .expect("deflating into memory cannot fail");
        let len = (self.out.len() - 8) as u32;
        self.out[4..8].copy_from_slice(&len.to_be_bytes());
        base64::engine::general_purpose::STANDARD.encode(&self.out)
    }
}

/// Decodes a histogram written by [`encode_compact`] (or by any HdrHistogram interval log).
pub fn decode_compact(s: &str) -> Result<Histogram<u64>, String> {
    use base64::Engine;
    use hdrhistogram::serialization::Deserializer;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(s.trim())
        .map_err(|e| format!("not base64: {e}"))?;
    let h: Histogram<u64> = Deserializer::new()
        .deserialize(&mut bytes.as_slice())
        .map_err(|e| format!("not an HdrHistogram: {e:?}"))?;
    // Into dbio's own precision and range, so that merging is exact bucket for bucket.
    let mut out = new_histogram();
    out.add(&h).map_err(|e| format!("out of range: {e:?}"))?;
    Ok(out)
}

/// An HDR histogram in a form JSON can carry: the non-empty buckets as
/// `[value_ns, count]`, where `value_ns` is a value inside the bucket. Recording each pair back
/// into a histogram of the same precision rebuilds it exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct LatencyHistogram {
    /// Significant digits of the histogram (3).
    pub sigfig: u8,
    /// Unit of the values: always "ns".
    pub unit: String,
    /// Non-empty buckets as [value in ns, count], in increasing value order.
    pub buckets: Vec<[u64; 2]>,
}

impl LatencyHistogram {
    /// Captures every non-empty bucket of `h`.
    pub fn from_hdr(h: &Histogram<u64>) -> Self {
        let buckets = h
            .iter_recorded()
            .map(|v| {
                [
                    h.lowest_equivalent(v.value_iterated_to()),
                    v.count_at_value(),
                ]
            })
            .collect();
        LatencyHistogram {
            sigfig: SIGFIG,
            unit: "ns".into(),
            buckets,
        }
    }

    /// Rebuilds the HDR histogram.
    pub fn to_hdr(&self) -> Histogram<u64> {
        let mut h = new_histogram();
        for [v, c] in &self.buckets {
            h.saturating_record_n(*v, *c);
        }
        h
    }
}

/// Latency figures of one direction, in nanoseconds, all read from the HDR histogram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct LatencySummary {
    pub min: u64,
    pub mean: f64,
    pub p50: u64,
    pub p90: u64,
    pub p95: u64,
    pub p99: u64,
    pub p99_9: u64,
    pub p99_99: u64,
    pub max: u64,
}

impl LatencySummary {
    /// Computes the summary of `h` (all zeros when it is empty).
    pub fn of(h: &Histogram<u64>) -> Self {
        if h.is_empty() {
            return Self::default();
        }
        let q = |p: f64| h.value_at_quantile(p);
        LatencySummary {
            min: h.min(),
            mean: h.mean(),
            p50: q(0.50),
            p90: q(0.90),
            p95: q(0.95),
            p99: q(0.99),
            p99_9: q(0.999),
            p99_99: q(0.9999),
            max: h.max(),
        }
    }
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

    use super::*;

    /// Nearest-rank percentile of sorted values: the oracle the histogram is held against.
    fn exact(sorted: &[u64], q: f64) -> u64 {
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }

    /// A deterministic spread of latencies from 1 µs to ~30 s, heavy-tailed like real I/O.
    fn generated(n: usize) -> Vec<u64> {
        test_latencies(0x9E37_79B9_7F4A_7C15, n)
    }

    #[test]
    fn percentiles_match_sorted_oracle_within_precision() {
        let values = generated(200_000);
        let mut h = new_histogram();
        for &v in &values {
            h.record(v).unwrap();
        }
        let mut sorted = values.clone();
        sorted.sort_unstable();
        let s = LatencySummary::of(&h);
        for (q, got) in [
            (0.5, s.p50),
            (0.9, s.p90),
            (0.95, s.p95),
            (0.99, s.p99),
            (0.999, s.p99_9),
            (0.9999, s.p99_99),
        ] {
            let want = exact(&sorted, q);
            let err = (got as f64 - want as f64).abs() / want as f64;
            assert!(err <= 0.001, "q={q}: histogram {got} vs exact {want}");
        }
        let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
        assert!((s.mean - mean).abs() / mean < 0.001);
        assert!((s.min as f64 - sorted[0] as f64).abs() <= sorted[0] as f64 * 0.001);
        let max = *sorted.last().unwrap() as f64;
        assert!((s.max as f64 - max).abs() <= max * 0.001);
    }

    #[test]
    fn json_form_rebuilds_exactly_and_merges() {
        let values = generated(50_000);
        let (a, b) = values.split_at(20_000);
        let mut ha = new_histogram();
        let mut hb = new_histogram();
        let mut all = new_histogram();
        a.iter().for_each(|&v| ha.record(v).unwrap());
        b.iter().for_each(|&v| hb.record(v).unwrap());
        values.iter().for_each(|&v| all.record(v).unwrap());
        let mut merged = LatencyHistogram::from_hdr(&ha).to_hdr();
        merged
            .add(LatencyHistogram::from_hdr(&hb).to_hdr())
            .unwrap();
        assert_eq!(merged, all);
        assert_eq!(
            LatencyHistogram::from_hdr(&merged),
            LatencyHistogram::from_hdr(&all)
        );
    }
}
