//! Steady state before measuring (`--steady`, as fio's steadystate): the runner watches the
//! per-second IOPS or bandwidth after the ramp and starts measuring once the last window
//! of samples meets the criterion, or at the cap.

use crate::collect::Collector;
use crate::timeline::MeasureStart;
use crate::worker::Interval;
use dbio_model::{Steady, SteadyMetric, SteadyState, SteadyTest};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Largest deviation of a sample from the mean, in % of the mean; None without a positive mean.
pub fn spread_pct(samples: &[f64]) -> Option<f64> {
    let mean = mean(samples)?;
    let dev = samples.iter().map(|x| (x - mean).abs()).fold(0.0, f64::max);
    Some(100.0 * dev / mean)
}

/// Least-squares slope of samples one second apart, in % of their mean per second; None
/// for fewer than two samples or without a positive mean.
pub fn slope_pct(samples: &[f64]) -> Option<f64> {
    let mean_y = mean(samples)?;
    let n = samples.len() as f64;
    if samples.len() < 2 {
        return None;
    }
    let mean_x = (n - 1.0) / 2.0;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, y) in samples.iter().enumerate() {
        let dx = i as f64 - mean_x;
        sxy += dx * (y - mean_y);
        sxx += dx * dx;
    }
    Some(100.0 * (sxy / sxx) / mean_y)
}

fn mean(samples: &[f64]) -> Option<f64> {
    let m = samples.iter().sum::<f64>() / samples.len() as f64;
    (m > 0.0 && m.is_finite()).then_some(m)
}

/// True when a full window meets the criterion: the spread or the slope's magnitude lies
/// strictly below the limit (so a limit of 0 % is never met, as in fio).
pub fn holds(test: SteadyTest, limit_pct: f64, window: &[f64]) -> bool {
    let v = match test {
        SteadyTest::Spread => spread_pct(window),
        SteadyTest::Slope => slope_pct(window),
    };
    v.is_some_and(|v| v.abs() < limit_pct)
}

/// The criterion as written on the command line, e.g. `iops:2%` or `bw_slope:0.5%`.
pub fn criterion_text(s: &Steady) -> String {
    let metric = match s.metric {
        SteadyMetric::Iops => "iops",
        SteadyMetric::Bw => "bw",
    };
    let slope = if s.test == SteadyTest::Slope {
        "_slope"
    } else {
        ""
    };
    format!("{metric}{slope}:{}%", s.limit_pct)
}

/// Watches the settling samples of one run and sets the start of measuring.
pub struct Settler {
    steady: Steady,
    start: MeasureStart,
    settle_from: Instant,
    cap: Instant,
    collector: Collector,
    window: VecDeque<f64>,
    settled: bool,
}

impl Settler {
    /// A settler for `workers` workers whose settling starts at `settle_from`.
    pub fn new(steady: Steady, start: MeasureStart, settle_from: Instant, workers: u32) -> Self {
        Settler {
            steady,
            start,
            settle_from,
            cap: settle_from + Duration::from_secs(steady.max_secs as u64),
            // Settling seconds are judged and dropped: their histograms need no spill file.
            collector: Collector::new(workers, None),
            window: VecDeque::new(),
            settled: false,
        }
    }

    /// Takes one worker's settling second; starts measuring when the window meets the criterion.
    pub fn add(&mut self, iv: Interval) {
        if self.start.get().is_some() {
            return;
        }
        let Some(p) = self.collector.add(iv) else {
            return;
        };
        let v = match self.steady.metric {
            SteadyMetric::Iops => p.read_iops + p.write_iops,
            SteadyMetric::Bw => p.mb_s * 1e6,
        };
        self.window.push_back(v);
        if self.window.len() > self.steady.window_secs as usize {
            self.window.pop_front();
        }
        let full = self.window.len() == self.steady.window_secs as usize;
        if full
            && holds(
                self.steady.test,
                self.steady.limit_pct,
                self.window.make_contiguous(),
            )
        {
            self.settled = true;
            self.start.set(Instant::now());
        }
    }

    /// Starts measuring once the cap is reached; call it often.
    pub fn poll(&mut self, now: Instant) {
        if now >= self.cap && self.start.get().is_none() {
            self.start.set(now);
        }
    }

    /// What settling came to, given when measuring started.
    pub fn outcome(mut self, measure_from: Option<Instant>) -> SteadyState {
        let settle_secs = measure_from
            .map(|m| m.saturating_duration_since(self.settle_from).as_secs_f64())
            .unwrap_or(0.0);
        state(
            &self.steady,
            self.settled,
            settle_secs,
            self.window.make_contiguous(),
        )
    }
}

/// What settling came to: the criterion, whether it held, how long after settling began
/// measuring started, and the figures of the last `window` of samples when it was full.
pub fn state(s: &Steady, settled: bool, settle_secs: f64, window: &[f64]) -> SteadyState {
    let full = window.len() == s.window_secs as usize;
    SteadyState {
        criterion: criterion_text(s),
        window_secs: s.window_secs,
        max_secs: s.max_secs,
        settled,
        settle_secs,
        spread_pct: if full { spread_pct(window) } else { None },
        slope_pct: if full { slope_pct(window) } else { None },
        window_mean: if full { mean(window) } else { None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_the_largest_deviation_from_the_mean() {
        // Mean 100; the farthest sample (95) is 5 away: 5 %.
        let w = [100.0, 102.0, 95.0, 103.0, 100.0];
        assert!((spread_pct(&w).unwrap() - 5.0).abs() < 1e-12);
        assert!(holds(SteadyTest::Spread, 5.1, &w));
        assert!(
            !holds(SteadyTest::Spread, 5.0, &w),
            "strictly below the limit"
        );
        assert_eq!(spread_pct(&[0.0, 0.0]), None, "no I/O is not steady");
    }

    #[test]
    fn slope_is_the_least_squares_line_in_percent_of_the_mean() {
        // y = 100 + 2x over x = 0..4: slope 2 per second, mean 104: 1.923 %/s.
        let w = [100.0, 102.0, 104.0, 106.0, 108.0];
        assert!((slope_pct(&w).unwrap() - 200.0 / 104.0).abs() < 1e-12);
        // 10, 12, 11, 15 (hand-computed): Σ(x−1.5)(y−12) = 7, Σ(x−1.5)² = 5: slope 1.4, mean 12.
        let w = [10.0, 12.0, 11.0, 15.0];
        assert!((slope_pct(&w).unwrap() - 140.0 / 12.0).abs() < 1e-12);
        // A falling series has a negative slope; the test is on its magnitude.
        let w = [108.0, 106.0, 104.0, 102.0, 100.0];
        assert!((slope_pct(&w).unwrap() + 200.0 / 104.0).abs() < 1e-12);
        assert!(holds(SteadyTest::Slope, 2.0, &w));
        assert!(!holds(SteadyTest::Slope, 1.9, &w));
        // Flat: slope 0, which no limit of 0 % admits.
        assert_eq!(slope_pct(&[5.0, 5.0, 5.0]), Some(0.0));
        assert!(!holds(SteadyTest::Slope, 0.0, &[5.0, 5.0, 5.0]));
        assert_eq!(slope_pct(&[5.0]), None);
    }

    #[test]
    fn criterion_reads_as_written() {
        let s = Steady {
            metric: SteadyMetric::Bw,
            test: SteadyTest::Slope,
            limit_pct: 0.3,
            window_secs: 10,
            max_secs: 60,
        };
        assert_eq!(criterion_text(&s), "bw_slope:0.3%");
    }
}
