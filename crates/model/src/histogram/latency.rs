//! Latency histograms as results carry them: the non-empty HDR buckets, and the percentile
//! summary computed from them.

use super::codec::{new_histogram, SIGFIG};
use hdrhistogram::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::codec::test_latencies;

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
