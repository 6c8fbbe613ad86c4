//! What moving an object to flash is worth: never (a log, no I/O, large sequential I/O),
//! or the stall (or I/Os) it saves.

use dbio_model::advise::{LeaveReason, ObjectFigures, ObjectKind};

/// Average I/O size from which an object counts as large sequential I/O that flash helps little.
pub const LARGE_IO: f64 = 256.0 * 1024.0;

/// Why an object is never moved whatever the budget (a log, no I/O, large sequential
/// I/O); None for a candidate.
pub(super) fn never_moved(f: &ObjectFigures) -> Option<LeaveReason> {
    if f.kind == ObjectKind::Log {
        Some(LeaveReason::Log)
    } else if f.reads + f.writes == 0 {
        Some(LeaveReason::NoIo)
    } else if f.avg_io_bytes.is_some_and(|a| a >= LARGE_IO) {
        Some(LeaveReason::LargeIo)
    } else {
        None
    }
}

/// What the knapsack maximises for one object: stall saved, or I/Os without times.
pub(super) fn value_of(f: &ObjectFigures, timed: bool) -> f64 {
    if timed {
        f.saved_ms.unwrap_or(0.0)
    } else {
        (f.reads + f.writes) as f64
    }
}
