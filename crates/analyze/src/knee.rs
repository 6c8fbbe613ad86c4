//! Reading a sweep: the knee (the most IOPS within a latency objective), the saturation
//! point (more load stops adding IOPS while latency grows: Little's law), and the first
//! step whose bandwidth reaches 90 % of the best.

/// Share of extra IOPS below which a step is said to add nothing.
pub const SATURATION_GAIN: f64 = 0.05;

/// The step with the most IOPS among those whose latency figure is at most `limit`; of
/// steps that tie, the first (the same work for the least load).
pub fn knee(iops: &[f64], latency: &[Option<f64>], limit: f64) -> Option<usize> {
    (0..iops.len())
        .filter(|&i| latency[i].is_some_and(|l| l <= limit))
        .max_by(|&a, &b| iops[a].total_cmp(&iops[b]).then(b.cmp(&a)))
}

/// The first step after which more load adds at most 5 % IOPS while latency keeps growing
/// (so the next step is queueing, not work); None while every step still adds.
pub fn saturation(iops: &[f64], mean_latency: &[f64]) -> Option<usize> {
    (1..iops.len())
        .find(|&i| {
            iops[i] <= iops[i - 1] * (1.0 + SATURATION_GAIN)
                && mean_latency[i] > mean_latency[i - 1]
        })
        .map(|i| i - 1)
}

/// The first step whose bandwidth is at least 90 % of the sweep's best.
pub fn reaches_90_pct(mb_s: &[f64]) -> Option<usize> {
    let best = mb_s.iter().copied().fold(0.0, f64::max);
    if best <= 0.0 {
        return None;
    }
    mb_s.iter().position(|&m| m >= 0.9 * best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device that serves 4 I/Os at once, each in S = 100 µs, driven closed-loop at queue
    /// depth q; by hand: IOPS = min(q, 4) / S, latency = max(1, q/4)·S.
    fn four_channel(qds: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let s = 100e-6;
        let iops = qds.iter().map(|&q| q.min(4.0) / s).collect();
        let lat = qds.iter().map(|&q| (q / 4.0).max(1.0) * s * 1e9).collect();
        (iops, lat)
    }

    #[test]
    fn knee_and_saturation_of_a_four_channel_device() {
        let qds = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
        let (iops, lat) = four_channel(&qds);
        let some: Vec<Option<f64>> = lat.iter().map(|&l| Some(l)).collect();
        // Under 150 µs only q ≤ 4 qualify; q = 4 gives the most IOPS (40,000).
        assert_eq!(knee(&iops, &some, 150_000.0), Some(2));
        // Under 1 ms every step qualifies, and q = 4..32 tie at 40,000: the first of them.
        assert_eq!(knee(&iops, &some, 1e6), Some(2));
        // From q = 4 to 8 IOPS stay at 40,000 while latency doubles: saturated at q = 4.
        assert_eq!(saturation(&iops, &lat), Some(2));
        assert_eq!(knee(&iops, &some, 50_000.0), None, "nothing meets 50 µs");
    }

    #[test]
    fn no_saturation_while_every_step_adds() {
        assert_eq!(saturation(&[100.0, 200.0, 400.0], &[1.0, 1.1, 1.2]), None);
        // Flat IOPS with flat latency is not saturation either (no queueing growth).
        assert_eq!(saturation(&[100.0, 101.0], &[1.0, 1.0]), None);
    }

    #[test]
    fn bandwidth_levels_off() {
        assert_eq!(
            reaches_90_pct(&[100.0, 400.0, 900.0, 1000.0, 990.0]),
            Some(2)
        );
        assert_eq!(reaches_90_pct(&[]), None);
    }
}
