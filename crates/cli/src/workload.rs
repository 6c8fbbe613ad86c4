//! What the flags of `dbio run` ask to run: one job, or several streams of a profile.

use crate::args::RunArgs;
use crate::error::CliError;
use crate::raw::{job_spec, raw_job};
use dbio_model::{JobSpec, StreamSpec};
use dbio_orchestrate::executor;

/// What `dbio run` runs: one job, or several streams with notices about their targets.
pub enum Workload {
    Single(Box<JobSpec>),
    Streams(Vec<StreamSpec>, Vec<String>),
}

impl Workload {
    /// The plan an executor runs, started as soon as it is ready.
    pub fn plan(&self) -> executor::Plan<'_> {
        match self {
            Workload::Single(j) => executor::Plan::job(j),
            Workload::Streams(s, _) => executor::Plan::streams(s),
        }
    }
}

/// What the flags of `dbio run` ask to run; the message says what is wrong.
pub fn plan(a: &RunArgs) -> Result<Workload, CliError> {
    if let Some(j) = &a.fleet.job_json {
        // Sent by a launching dbio that validated it; the targets' safety rules apply here.
        return serde_json::from_str::<JobSpec>(j)
            .map(|s| Workload::Single(Box::new(s)))
            .map_err(|e| CliError::from(format!("--job-json: not a job of this dbio: {e}")));
    }
    let (name, p) = raw_job(a).profile()?;
    if p.stream.is_empty() {
        return Ok(Workload::Single(Box::new(job_spec(a)?)));
    }
    if a.sessions.is_some() {
        return Err(format!(
            "--sessions: profile {name} runs several streams; session mode runs one workload with its own log writer, so use a single-stream profile such as slob or oltp-read"
        ).into());
    }
    let (streams, notices) = raw_job(a).streams(&name, &p)?;
    Ok(Workload::Streams(streams, notices))
}

/// `--start-at`: the instant measuring starts; refused when it is malformed or more than a
/// day away.
pub fn start_at(a: &RunArgs) -> Result<Option<std::time::SystemTime>, CliError> {
    Ok(dbio_orchestrate::start_at::parse_start_at(
        a.fleet.start_at.as_deref(),
    )?)
}
