//! A common start (`--start-at`): waiting for a wall-clock instant before the clock starts.

use crate::error::RunError;
use crate::event::Event;
use crate::warn;
use dbio_model::Warning;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

/// Sleeps until `at` (wall clock), checking `stop`; says so when `at` is already past. The
/// last nap ends at `at` itself, so the wake-up is as close to it as the scheduler allows.
pub(crate) fn wait_until(
    at: Option<SystemTime>,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
) -> Result<(), RunError> {
    let Some(at) = at else { return Ok(()) };
    match at.duration_since(SystemTime::now()) {
        Ok(left) => on_event(Event::Notice(format!(
            "waiting {:.1} s for the common start",
            left.as_secs_f64()
        ))),
        Err(late) => {
            warnings.push(warn::start_missed(late.duration().as_secs_f64()));
            return Ok(());
        }
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(RunError::Interrupted);
        }
        match at.duration_since(SystemTime::now()) {
            Ok(left) if left > Duration::ZERO => {
                std::thread::sleep(left.min(Duration::from_millis(20)))
            }
            _ => return Ok(()),
        }
    }
}
