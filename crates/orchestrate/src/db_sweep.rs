//! A database sweep's plan from what a user wrote: `--vary sessions=…` and the run's flags.

use crate::db::{sweep_plan, varies_sessions, DbSweepError};
use crate::sweep::SweepPlan;
use dbio_db::slob::flags::{FlagError, RunFlags};
use dbio_db::slob::run::RunOpts;
use dbio_db::url::redact;
use dbio_spec::vary_flag::parse_vary;
use dbio_spec::SpecError;

/// Why the words make no database sweep; Display names the flag, the value and what to try.
#[derive(Debug, thiserror::Error)]
pub enum DbPlanError {
    /// `--vary` that does not parse.
    #[error("{0}")]
    Vary(SpecError),
    /// `--vary` of anything but sessions, or sessions out of range.
    #[error("{0}")]
    Sweep(DbSweepError),
    /// A run flag that is not valid.
    #[error("{0}")]
    Flags(FlagError),
}

/// The steps of a database sweep over `vary`, each a job of its own number of sessions, all
/// checked before the first runs; and the run's settings every step shares.
pub fn plan(vary: &str, flags: &RunFlags) -> Result<(SweepPlan, RunOpts), DbPlanError> {
    let vary = parse_vary(vary).map_err(DbPlanError::Vary)?;
    varies_sessions(vary.key).map_err(DbPlanError::Sweep)?;
    let o = flags.check().map_err(DbPlanError::Flags)?;
    let steps = sweep_plan(&o, &redact(&flags.url), vary.values).map_err(DbPlanError::Sweep)?;
    Ok((steps, o))
}
