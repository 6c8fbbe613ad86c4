//! The sum is held against the `hdrhistogram` crate: its own index layout, its decoder and
//! its exact `add` are the oracle.

use super::*;
use crate::histogram::{encode_compact, new_histogram, Encoder, SECOND_SIGFIG, SIGFIG};
use hdrhistogram::serialization::{Serializer, V2Serializer};

/// The histogram tests' heavy-tailed latencies.
fn latencies(seed: u64, n: usize) -> Vec<u64> {
    crate::histogram::test_latencies(seed, n)
}

fn hist(values: &[u64]) -> Histogram<u64> {
    let mut h = new_histogram();
    values.iter().for_each(|&v| h.saturating_record(v));
    h
}

/// Every bucket's value and index as the crate lays them out, at both precisions.
#[test]
fn index_and_value_agree_with_the_crate_for_every_bucket() {
    for sigfig in [SIGFIG, SECOND_SIGFIG] {
        let (h, l) = (histogram_of(sigfig), Layout::of(sigfig));
        for i in 0..h.distinct_values() {
            let v = l.value_of(i);
            assert_eq!(h.lowest_equivalent(v), v, "{sigfig} digits: index {i}");
            assert_eq!(l.index_of(v), i, "{sigfig} digits: value {v}");
            assert_eq!(l.index_of(h.highest_equivalent(v)), i, "top of index {i}");
        }
        let mut one = histogram_of(sigfig);
        one.record(123_456_789).unwrap();
        let at = one.iter_all().position(|v| v.count_at_value() > 0).unwrap();
        assert_eq!(at, l.index_of(123_456_789));
    }
}

/// Seconds encoded as results carry them (two digits), from hosts that recorded at three:
/// their sum equals the crate's own add of the three-digit histograms into a two-digit one,
/// bucket for bucket, and a three-digit second from an older result sums the same.
#[test]
fn seconds_sum_exactly_at_two_digits() {
    let hosts: Vec<Histogram<u64>> = (1..=3)
        .map(|s| hist(&latencies(s * 104_729, 30_000)))
        .collect();
    let mut sum = HistogramSum::new(SECOND_SIGFIG);
    let mut oracle = histogram_of(SECOND_SIGFIG);
    let mut enc = Encoder::default();
    for (i, h) in hosts.iter().enumerate() {
        let text = if i == 2 {
            encode_compact(h)
        } else {
            enc.encode_second(h)
        };
        sum.add_compact(&text).unwrap();
        oracle.add(h).unwrap();
    }
    assert_eq!(sum.to_histogram(), oracle);
    assert_eq!(sum.len(), 90_000);
    // Two digits hold the p99 to 1 %.
    let fine = {
        let mut f = new_histogram();
        hosts.iter().for_each(|h| f.add(h).unwrap());
        f.value_at_quantile(0.99) as f64
    };
    let coarse = sum.to_histogram().value_at_quantile(0.99) as f64;
    assert!(
        (coarse / fine - 1.0).abs() < 0.01,
        "{coarse} against {fine}"
    );
}

/// Three hosts' seconds, each encoded as dbio writes them, summed without a histogram per
/// second: equal bucket for bucket to the crate's decode-and-add, and round trips exactly.
#[test]
fn a_sum_of_encoded_seconds_equals_the_crate_sum_bucket_for_bucket() {
    let hosts: Vec<Histogram<u64>> = (1..=3)
        .map(|s| hist(&latencies(s * 7919, 40_000)))
        .collect();
    let mut sum = HistogramSum::new(SIGFIG);
    let mut oracle = new_histogram();
    for h in &hosts {
        let text = encode_compact(h);
        sum.add_compact(&text).unwrap();
        oracle.add(decode_compact(&text).unwrap()).unwrap();
    }
    assert_eq!(sum.to_histogram(), oracle);
    assert_eq!(sum.len(), 120_000);
    let again = decode_compact(&encode_compact(&sum.to_histogram())).unwrap();
    assert_eq!(again, oracle);
    let recorded = |h: &Histogram<u64>| -> Vec<(u64, u64)> {
        h.iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect()
    };
    assert_eq!(recorded(&sum.to_histogram()), recorded(&oracle));
}

#[test]
fn clear_forgets_everything_and_the_sum_is_reusable() {
    let mut sum = HistogramSum::new(SIGFIG);
    sum.add_compact(&encode_compact(&hist(&[5_000, 9_000_000])))
        .unwrap();
    sum.clear();
    assert!(sum.is_empty());
    assert_eq!(sum.len(), 0);
    let h = hist(&[70_000, 70_001, 3_600_000_000_000]);
    sum.add_compact(&encode_compact(&h)).unwrap();
    assert_eq!(sum.to_histogram(), h);
    // An empty histogram adds nothing.
    sum.add_compact(&encode_compact(&new_histogram())).unwrap();
    assert_eq!(sum.to_histogram(), h);
}

/// Uncompressed V2, and a histogram of another lowest value and precision (as a foreign
/// interval log might hold), are summed as the crate's exact `add` would.
#[test]
fn other_v2_forms_are_summed_exactly() {
    use base64::Engine;
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let plain = hist(&latencies(42, 5_000));
    let mut raw = Vec::new();
    V2Serializer::new().serialize(&plain, &mut raw).unwrap();
    let mut foreign = Histogram::<u64>::new_with_bounds(1000, 3_600_000_000_000, 2).unwrap();
    latencies(43, 5_000)
        .iter()
        .for_each(|&v| foreign.saturating_record(v));
    let mut sum = HistogramSum::new(SIGFIG);
    sum.add_compact(&b64(&raw)).unwrap();
    sum.add_compact(&encode_compact(&foreign)).unwrap();
    let mut oracle = plain.clone();
    oracle.add(&foreign).unwrap();
    assert_eq!(sum.to_histogram(), oracle);
}

#[test]
fn text_that_is_no_histogram_is_refused() {
    let mut sum = HistogramSum::new(SIGFIG);
    assert!(sum
        .add_compact("not base64!")
        .unwrap_err()
        .to_string()
        .contains("base64"));
    assert!(sum
        .add_compact("aGVsbG8=")
        .unwrap_err()
        .to_string()
        .contains("HdrHistogram"));
    let whole = encode_compact(&hist(&latencies(1, 1000)));
    let cut = &whole[..whole.len() / 2 / 4 * 4];
    assert!(sum.add_compact(cut).is_err());
}

/// The buckets a sum gives, added one by one to another sum, make the same histogram.
#[test]
fn buckets_given_and_added_back_make_the_same_sum() {
    let mut sum = HistogramSum::new(SECOND_SIGFIG);
    let mut enc = Encoder::default();
    sum.add_compact(&enc.encode_second(&hist(&latencies(7, 3_000))))
        .unwrap();
    let mut copy = HistogramSum::new(SECOND_SIGFIG);
    let buckets: Vec<(usize, u64)> = sum.buckets().collect();
    assert!(buckets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 > 0));
    for &(i, c) in &buckets {
        copy.add_bucket(i, c).unwrap();
    }
    assert_eq!(copy.to_histogram(), sum.to_histogram());
    assert_eq!(copy.len(), 3_000);
    let (lo, counts) = copy.counts();
    assert_eq!(
        (lo, counts.len()),
        (buckets[0].0, buckets.last().unwrap().0 - lo + 1)
    );
    assert_eq!(counts.iter().sum::<u64>(), 3_000);
    assert!(copy.add_bucket(usize::MAX, 1).is_err());
    assert!(copy.add_bucket(buckets[0].0, u64::MAX).is_err());
    copy.clear();
    assert_eq!(copy.buckets().count(), 0);
    assert_eq!(copy.counts(), (0, &[][..]));
}

/// A histogram with a count in every bucket inflates to far more than the first buffer
/// (16 KiB): the buffer grows and the sum is still exact.
#[test]
fn a_histogram_wider_than_the_first_buffer_is_summed_whole() {
    let layout = Layout::of(SIGFIG);
    let mut h = new_histogram();
    for i in 0..h.distinct_values() {
        h.saturating_record(layout.value_of(i));
    }
    let text = encode_compact(&h);
    let mut sum = HistogramSum::new(SIGFIG);
    sum.add_compact(&text).unwrap();
    assert!(sum.payload.len() > 16 * 1024, "the buffer grew");
    assert_eq!(sum.to_histogram(), h);
    assert_eq!(sum.len(), h.len());
}
