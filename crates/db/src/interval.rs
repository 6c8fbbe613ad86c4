//! Waiting out the interval between a live source's two snapshots: a stop flag (Ctrl-C)
//! ends it early, and the second snapshot is taken then.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Waits `interval`, calling `tick` with the time waited about ten times a second; `stop`
/// ends the wait early and the seconds waited are returned (None when it ran its course).
pub fn wait_interval(
    interval: Duration,
    stop: &AtomicBool,
    tick: &mut dyn FnMut(Duration),
) -> Option<f64> {
    let start = Instant::now();
    loop {
        let e = start.elapsed();
        if stop.load(Ordering::Relaxed) {
            return Some(e.as_secs_f64());
        }
        if e >= interval {
            return None;
        }
        tick(e);
        std::thread::sleep(Duration::from_millis(100).min(interval - e));
    }
}
