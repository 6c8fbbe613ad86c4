//! What the flags of `dbio run` ask to run: one job, or several streams of a profile
//! (decided by `dbio_orchestrate::workload`).

use crate::args::RunArgs;
use crate::error::CliError;
use crate::raw::raw_job;
pub use dbio_orchestrate::workload::Workload;
use dbio_orchestrate::workload::WorkloadError;

/// What the flags of `dbio run` ask to run; the message says what is wrong.
pub fn plan(a: &RunArgs) -> Result<Workload, CliError> {
    Workload::of(&raw_job(a), a.fleet.job_json.as_deref()).map_err(|e| match e {
        WorkloadError::Spec(e) => CliError::Spec(e),
        e => CliError::Message(e.to_string()),
    })
}

/// `--start-at`: the instant measuring starts; refused when it is malformed or more than a
/// day away.
pub fn start_at(a: &RunArgs) -> Result<Option<std::time::SystemTime>, CliError> {
    Ok(dbio_orchestrate::start_at::parse_start_at(
        a.fleet.start_at.as_deref(),
    )?)
}
