//! What `dbio advise` does between a live source's two snapshots: Ctrl-C ends the interval
//! (not dbio), a progress display counts it down, and a `--snapshot` file is written atomically.

use crate::output::write_file_atomic;
use dbio_db::gather::Interval;
use dbio_db::interval::wait_interval;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The terminal's side of the interval.
pub struct Waiter {
    pub quiet: bool,
    stop: Option<Arc<AtomicBool>>,
}

impl Waiter {
    /// A waiter with a progress display unless `quiet`.
    pub fn new(quiet: bool) -> Waiter {
        Waiter { quiet, stop: None }
    }
}

impl Interval for Waiter {
    fn arm(&mut self) {
        self.stop = Some(crate::signals::stop_flag());
    }

    fn wait(&mut self, interval: Duration) -> Option<f64> {
        let stop = self.stop.get_or_insert_with(crate::signals::stop_flag);
        wait(interval, self.quiet, stop)
    }

    fn save(&mut self, path: &str, bytes: &[u8]) -> std::io::Result<()> {
        write_file_atomic(path, bytes)
    }
}

/// Waits `interval` with a progress display; Ctrl-C (`stop`) ends the wait early (the
/// seconds waited are returned) and the second snapshot is taken then.
fn wait(interval: Duration, quiet: bool, stop: &AtomicBool) -> Option<f64> {
    let left = |e: Duration| {
        format!(
            "between snapshots, {} s left (Ctrl-C takes the second one now)",
            (interval - e).as_secs()
        )
    };
    let bar = (!quiet).then(|| {
        let b = crate::progress::bar(
            Some(interval.as_millis() as u64),
            "{elapsed} [{bar:30}] {msg}",
        );
        b.set_message(left(Duration::ZERO));
        b
    });
    let cut = wait_interval(interval, stop, &mut |e| {
        if let Some(b) = &bar {
            b.set_position(e.as_millis() as u64);
            b.set_message(left(e));
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    cut
}
