//! The verdict a finished run carries: what limited it, judged from the run alone.

use dbio_model::RunResult;

/// The result with the verdict on what limited it.
pub fn judged(mut r: RunResult) -> RunResult {
    // A database run's verdict comes with it (the server's CPU and the device's count).
    if r.db.is_none() {
        r.verdict = dbio_analyze::verdict::verdict(&r);
    }
    r
}
