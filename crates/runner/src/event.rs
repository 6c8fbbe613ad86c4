//! What the runner tells its caller while it works: progress, ticks, notices.

use dbio_model::TimePoint;

/// What the runner tells its caller while it works.
pub enum Event<'a> {
    /// Prefill progress of one target.
    Prefill {
        target: &'a str,
        done: u64,
        total: u64,
    },
    /// Measuring started; `planned_secs` is known for time-based runs.
    Measuring { planned_secs: Option<f64> },
    /// One more second measured.
    Tick { point: &'a TimePoint, elapsed: f64 },
    /// A notice for the user (not part of the result's warnings).
    Notice(String),
    /// The measured window is over; the run is finishing: its workers ending, its `--verify`
    /// pass (which reads the whole region back), its result.
    Finishing,
}
