//! Bursts (`--burst ON/PERIOD`): workers issue I/O during the first ON of every PERIOD and
//! stay idle for the rest, as a database checkpoint writes its dirty pages.

use dbio_model::Burst;
use std::time::{Duration, Instant};

/// When `now` falls in an idle part of a period counted from `anchor`, the start of the
/// next burst; None while a burst is on.
pub fn off_until(b: &Burst, anchor: Instant, now: Instant) -> Option<Instant> {
    let t = now.saturating_duration_since(anchor).as_secs_f64();
    let phase = t % b.period_secs;
    (phase >= b.on_secs).then(|| now + Duration::from_secs_f64(b.period_secs - phase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_after_the_on_part_until_the_next_period() {
        let b = Burst {
            on_secs: 2.0,
            period_secs: 10.0,
        };
        let a = Instant::now();
        let at = |s: f64| a + Duration::from_secs_f64(s);
        assert_eq!(off_until(&b, a, at(0.0)), None);
        assert_eq!(off_until(&b, a, at(1.9)), None);
        assert_eq!(off_until(&b, a, at(10.5)), None);
        // 2.0 s into the period the burst ends; the next begins at 10 s.
        let next = off_until(&b, a, at(2.0)).unwrap();
        assert!((next.duration_since(a).as_secs_f64() - 10.0).abs() < 1e-6);
        let next = off_until(&b, a, at(17.5)).unwrap();
        assert!((next.duration_since(a).as_secs_f64() - 20.0).abs() < 1e-6);
    }

    #[test]
    fn on_time_counts_whole_and_partial_bursts() {
        let b = Burst {
            on_secs: 1.0,
            period_secs: 3.0,
        };
        assert_eq!(b.on_time(6.0), 2.0);
        assert_eq!(b.on_time(0.5), 0.5);
        assert_eq!(b.on_time(2.5), 1.0);
        assert_eq!(b.on_time(3.25), 1.25);
    }
}
