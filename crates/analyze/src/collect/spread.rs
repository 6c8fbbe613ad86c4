//! A figure over a collection's intervals: its mean (weighted by the intervals' lengths), its
//! 95th percentile interval, its maximum, and the window of a given length with the highest
//! mean (the peak hour).

use dbio_model::collect::{Peak, Spread};

/// One interval's value: the interval's end (unix ms), its length (s), the value.
pub type Value = (u64, f64, f64);

/// The spread of `values` (in time order), its peak over windows of `window_ms`; None
/// without values.
pub fn spread(values: &[Value], window_ms: u64) -> Option<Spread> {
    if values.is_empty() {
        return None;
    }
    let secs: f64 = values.iter().map(|v| v.1).sum();
    let mean = if secs > 0.0 {
        values.iter().map(|v| v.2 * v.1).sum::<f64>() / secs
    } else {
        0.0
    };
    let mut sorted: Vec<f64> = values.iter().map(|v| v.2).collect();
    sorted.sort_by(f64::total_cmp);
    Some(Spread {
        mean,
        p95: p95(&sorted),
        max: *sorted.last().expect("not empty"),
        peak_hour: peak(values, window_ms),
    })
}

/// The 95th percentile of sorted values (the value at or above which 5 % of them lie).
pub fn p95(sorted: &[f64]) -> f64 {
    let i = ((sorted.len() as f64 * 0.95).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// The window of `window_ms` whose intervals have the highest mean (a window ends at an
/// interval's end and holds every interval that overlaps it, so it spans at least
/// `window_ms`); the whole collection when it is shorter.
pub fn peak(values: &[Value], window_ms: u64) -> Option<Peak> {
    let start_of = |v: &Value| v.0.saturating_sub((v.1 * 1000.0) as u64);
    let mut best: Option<Peak> = None;
    let (mut first, mut sum, mut secs) = (0, 0.0, 0.0);
    for (i, v) in values.iter().enumerate() {
        sum += v.2 * v.1;
        secs += v.1;
        let from = v.0.saturating_sub(window_ms);
        while first < i && values[first].0 <= from {
            sum -= values[first].2 * values[first].1;
            secs -= values[first].1;
            first += 1;
        }
        let mean = if secs > 0.0 { sum / secs } else { 0.0 };
        // Only whole windows, unless the collection is shorter than one: then it is the
        // whole collection.
        let whole = v.0 >= start_of(&values[first]) + window_ms;
        let last = i + 1 == values.len() && best.is_none();
        if (whole || last) && best.as_ref().is_none_or(|b| mean > b.mean + 1e-12) {
            best = Some(Peak {
                start_ms: start_of(&values[first]),
                end_ms: v.0,
                mean,
            });
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_p95_max_and_peak() {
        // Ten 60 s intervals; two busy ones in the middle.
        let v: Vec<Value> = (1..=10u64)
            .map(|i| {
                (
                    i * 60_000,
                    60.0,
                    if i == 5 || i == 6 { 100.0 } else { 10.0 },
                )
            })
            .collect();
        let s = spread(&v, 120_000).unwrap();
        assert!((s.mean - 28.0).abs() < 1e-9);
        assert_eq!((s.p95, s.max), (100.0, 100.0));
        let p = s.peak_hour.unwrap();
        assert_eq!((p.start_ms, p.end_ms, p.mean), (240_000, 360_000, 100.0));
        // A window longer than the collection is the whole of it.
        let all = peak(&v, 3_600_000).unwrap();
        assert_eq!((all.start_ms, all.end_ms), (0, 600_000));
    }
}
