//! The fleet of a sweep's or a suite's steps: every step started on all hosts at once, each
//! step's results kept in a folder of its own.

use super::flags::{FlagsError, FleetFlags};
use super::FleetPlan;

/// Why a sweep's or a suite's steps cannot run across the hosts asked for; Display names the
/// flag and what to try.
#[derive(Debug, thiserror::Error)]
pub enum StepsError {
    /// `--start-at` starts one run, not every step.
    #[error("--start-at starts one run; with --hosts dbio starts every step on all hosts at once itself")]
    StartAt,
    /// The fleet flags make no fleet.
    #[error("{0}")]
    Flags(#[from] FlagsError),
}

impl FleetFlags {
    /// The fleet that runs every step; `start_at`: `--start-at` was given, which is refused.
    pub fn steps_plan(&self, start_at: bool) -> Result<FleetPlan, StepsError> {
        if start_at {
            return Err(StepsError::StartAt);
        }
        Ok(FleetPlan {
            step: Some(1),
            ..self.plan()?
        })
    }
}
