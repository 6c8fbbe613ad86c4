//! The arithmetic of `dbio reduce`: ratios as qdda defines them, the confidence interval of
//! a sampled dedupe ratio, the Hoeffding bound of a sampled compression ratio, bucket
//! rounding and the birthday bound of 128-bit fingerprints. Pure functions.

use dbio_model::reduce::{Estimate, ReductionSteps};

/// Probability that a Hoeffding bound does not hold (0.999 confidence).
pub const HOEFFDING_DELTA: f64 = 0.001;

/// Normal quantile of the two-sided 99 % interval given for a sampled dedupe ratio.
pub const Z_99: f64 = 2.575_829;

/// An exact figure: its interval is itself.
pub fn exact(value: f64) -> Estimate {
    Estimate {
        value,
        low: value,
        high: value,
        confidence: 1.0,
    }
}

/// Half-width ε of the Hoeffding bound on the mean of `m` samples in [0, 1]: the mean is
/// within ±ε of the population's with probability 1 − δ, ε = √(ln(2/δ) / (2m)).
pub fn hoeffding_bound(m: u64, delta: f64) -> f64 {
    sample_bound(m, f64::INFINITY, delta)
}

/// Samples needed for ±ε with probability 1 − δ: m ≥ ln(2/δ) / (2ε²).
pub fn hoeffding_samples(eps: f64, delta: f64) -> u64 {
    ((2.0 / delta).ln() / (2.0 * eps * eps)).ceil() as u64
}

/// Half-width ε of the bound on the mean of `m` samples in [0, 1] drawn without replacement
/// from `population` values (Serfling 1974, Hoeffding's bound with the finite-population
/// factor): ε = √(ln(2/δ) · (1 − (m − 1)/N) / (2m)); N = ∞ gives Hoeffding's.
pub fn sample_bound(m: u64, population: f64, delta: f64) -> f64 {
    if m == 0 {
        return 1.0;
    }
    let m = m as f64;
    let left = (1.0 - (m - 1.0) / population).max(0.0);
    ((2.0 / delta).ln() * left / (2.0 * m)).sqrt()
}

/// The fewest samples without replacement from `population` whose [`sample_bound`] is at
/// most `eps` (all of them when the population is smaller).
pub fn samples_for(eps: f64, delta: f64, population: u64) -> u64 {
    let n0 = (2.0 / delta).ln() / (2.0 * eps * eps);
    let n = population as f64;
    // ε(m) ≤ eps ⇔ m ≥ n0 · (1 + 1/N) / (1 + n0/N); step over rounding at the edge.
    let mut m =
        ((n0 * (1.0 + 1.0 / n) / (1.0 + n0 / n)).floor() as u64).clamp(1, population.max(1));
    let meets = |m: u64| sample_bound(m, n, delta) <= eps * (1.0 + 1e-12);
    while m < population && !meets(m) {
        m += 1;
    }
    while m > 1 && meets(m - 1) {
        m -= 1;
    }
    m.min(population)
}

/// Birthday bound on the probability that any two of `n` distinct blocks share a 128-bit
/// fingerprint: n² / 2^129 (at most 1).
pub fn collision_odds(n: u64) -> f64 {
    let n = n as f64;
    (n * n / 2f64.powi(129)).min(1.0)
}

/// Dedupe ratio used / unique; 1 when nothing is used.
pub fn dedupe_ratio(used: u64, unique: f64) -> f64 {
    if used == 0 || unique <= 0.0 {
        1.0
    } else {
        used as f64 / unique
    }
}

/// The dedupe ratio of a sampled pass: `distinct` fingerprints kept out of `used` blocks
/// with `hash mod modulus == residue`. The unique count is estimated as modulus × distinct;
/// distinct is Binomial(unique, 1/modulus), so the 99 % interval of unique is
/// modulus × (distinct ± z·√(distinct·(1 − 1/modulus))), clamped to [distinct, used].
pub fn sampled_dedupe(used: u64, distinct: u64, modulus: u64) -> (f64, Estimate) {
    if modulus <= 1 {
        return (distinct as f64, exact(dedupe_ratio(used, distinct as f64)));
    }
    let m = modulus as f64;
    let d = distinct as f64;
    let sd = (d * (1.0 - 1.0 / m)).sqrt().max(1.0);
    let clamp = |u: f64| u.clamp(d.max(1.0), (used as f64).max(1.0));
    let unique = clamp(m * d);
    let unique_low = clamp(m * (d - Z_99 * sd));
    let unique_high = clamp(m * (d + Z_99 * sd));
    (
        unique,
        Estimate {
            value: dedupe_ratio(used, unique),
            low: dedupe_ratio(used, unique_high),
            high: dedupe_ratio(used, unique_low),
            confidence: 0.99,
        },
    )
}

/// Compression ratio raw / stored of `blocks` unique blocks. When they were a sample drawn
/// from `sampled_from` unique blocks (`f64::INFINITY` when that number is unknown), the
/// stored share stored/raw carries the bound ε of [`sample_bound`] at 1 − [`HOEFFDING_DELTA`]
/// and the ratio's interval is 1/(share ± ε); returns (ratio, ε).
pub fn compression_ratio(
    raw: u64,
    stored: u64,
    blocks: u64,
    sampled_from: Option<f64>,
) -> (Estimate, f64) {
    if raw == 0 || stored == 0 {
        return (exact(1.0), 0.0);
    }
    let share = stored as f64 / raw as f64;
    let Some(population) = sampled_from else {
        return (exact(1.0 / share), 0.0);
    };
    let eps = sample_bound(blocks, population, HOEFFDING_DELTA);
    let high_share = (share + eps).min(1.0);
    // A block never takes less than one byte: that caps the ratio's upper end.
    let low_share = (share - eps).max(blocks as f64 / raw as f64);
    (
        Estimate {
            value: 1.0 / share,
            low: 1.0 / high_share,
            high: 1.0 / low_share,
            confidence: 1.0 - HOEFFDING_DELTA,
        },
        eps,
    )
}

/// The bucket a compressed block of `size` bytes takes: the smallest bucket ≥ size, or the
/// whole `unit` when none is smaller than it (`buckets` sorted ascending).
pub fn bucket_size(size: u64, buckets: &[u64], unit: u64) -> u64 {
    buckets
        .iter()
        .copied()
        .find(|&b| b >= size && b < unit)
        .unwrap_or(unit)
}

/// The shares seed 003 reports and the combined ratio: pattern removal takes its share of
/// all blocks, dedupe 1 − 1/ratio of the rest, compression 1 − 1/ratio of what dedupe left;
/// total = 1/(1 − pattern) × dedupe × compression (each of value, low and high), at most
/// `blocks` : 1 (data of patterns only is counted as one stored block).
pub fn combine(
    pattern_share: f64,
    dedupe: Estimate,
    compression: Estimate,
    blocks: u64,
) -> (ReductionSteps, Estimate) {
    let steps = ReductionSteps {
        pattern: pattern_share,
        dedupe: 1.0 - 1.0 / dedupe.value,
        compression: 1.0 - 1.0 / compression.value,
    };
    let kept = 1.0 - pattern_share;
    let most = (blocks as f64).max(1.0);
    let total = |d: f64, c: f64| {
        if kept <= 0.0 {
            most
        } else {
            (d * c / kept).min(most)
        }
    };
    (
        steps,
        Estimate {
            value: total(dedupe.value, compression.value),
            low: total(dedupe.low, compression.low),
            high: total(dedupe.high, compression.high),
            confidence: dedupe.confidence.min(compression.confidence),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoeffding_needs_38000_blocks_for_one_percent_at_99_9() {
        // ln(2000) / (2 · 0.0001) = 7.6009 / 0.0002 = 38,004.5
        assert_eq!(hoeffding_samples(0.01, 0.001), 38_005);
        assert!((hoeffding_bound(38_005, 0.001) - 0.01).abs() < 1e-6);
    }

    #[test]
    fn serfling_needs_fewer_blocks_from_a_finite_population() {
        // n0 = 38,004.5; from N = 98,000: 38,004.5 · (1 + 1/N) / (1 + n0/N) = 27,384.98 → 27,385
        assert_eq!(samples_for(0.01, 0.001, 98_000), 27_385);
        assert!(sample_bound(27_385, 98_000.0, 0.001) <= 0.01);
        assert!(sample_bound(27_384, 98_000.0, 0.001) > 0.01);
        // An unlimited population is Hoeffding's; from 500, 495 suffice:
        // ε(495) = √(7.6009 · (6/500) / 990) = 0.00958, ε(494) = √(7.6009 · (7/500) / 988) = 0.01037.
        assert_eq!(samples_for(0.01, 0.001, u64::MAX), 38_005);
        assert_eq!(samples_for(0.01, 0.001, 500), 495);
        // All 500 of 500: √(ln(2000) · (1/500) / 1000) = 0.003899.
        assert!((sample_bound(500, 500.0, 0.001) - 0.003899).abs() < 1e-6);
    }

    #[test]
    fn birthday_bound_by_hand() {
        // 2^40 blocks (8 PiB of 8 KiB blocks): 2^80 / 2^129 = 2^-49
        assert_eq!(collision_odds(1 << 40), 2f64.powi(-49));
        assert_eq!(collision_odds(0), 0.0);
    }

    #[test]
    fn seed_003_breakdown() {
        // pattern 5 %, dedupe 16 %, compression 47 %: 1/(0.95 · 0.84 · 0.53) = 2.364
        let (s, t) = combine(0.05, exact(1.0 / 0.84), exact(1.0 / 0.53), 1000);
        assert!((s.dedupe - 0.16).abs() < 1e-12);
        assert!((s.compression - 0.47).abs() < 1e-12);
        assert!((t.value - 2.3642).abs() < 1e-3, "{}", t.value);
        // Only zero blocks: one block's worth stored, not an infinite ratio.
        let (_, t) = combine(1.0, exact(1.0), exact(1.0), 64);
        assert_eq!(t.value, 64.0);
    }

    #[test]
    fn buckets_round_up_and_cap_at_the_unit() {
        let b: Vec<u64> = (1..=16).map(|k| k * 1024).collect();
        // reference.md: a 16 KB block compressed to 4,444 bytes takes a 5 KB bucket.
        assert_eq!(bucket_size(4444, &b, 16384), 5120);
        assert_eq!(bucket_size(1024, &b, 16384), 1024);
        assert_eq!(bucket_size(15_000, &b, 16384), 15360);
        assert_eq!(bucket_size(16_000, &b, 16384), 16384);
        assert_eq!(bucket_size(9000, &b, 8192), 8192);
    }

    #[test]
    fn sampled_interval_by_hand() {
        // 1,000 distinct kept at M = 16: unique ≈ 16,000, sd = √(1000 · 15/16) = 30.62,
        // so unique in 16 · (1000 ± 78.87) = [14,738, 17,262]; used 48,000.
        let (u, e) = sampled_dedupe(48_000, 1000, 16);
        assert_eq!(u, 16_000.0);
        assert!((e.value - 3.0).abs() < 1e-12);
        assert!((e.low - 48_000.0 / 17_261.9).abs() < 1e-3, "{}", e.low);
        assert!((e.high - 48_000.0 / 14_738.1).abs() < 1e-3, "{}", e.high);
    }

    #[test]
    fn exact_compression_has_no_bound() {
        let (e, eps) = compression_ratio(8192 * 10, 4096 * 10, 10, None);
        assert_eq!((e.value, e.low, e.high, eps), (2.0, 2.0, 2.0, 0.0));
        let (e, eps) = compression_ratio(8192 * 38_005, 4096 * 38_005, 38_005, Some(f64::INFINITY));
        assert!((eps - 0.01).abs() < 1e-6);
        assert!((e.low - 1.0 / 0.51).abs() < 1e-3 && (e.high - 1.0 / 0.49).abs() < 1e-3);
    }
}
