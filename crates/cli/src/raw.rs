//! The flags of `dbio run` as the raw description `dbio-spec` checks into a job: the one
//! place the command line's clap structs meet the library; and what those flags ask to run
//! (one job, or several streams of a profile, as `dbio_orchestrate::workload` decides).

use crate::args::RunArgs;
use crate::error::CliError;
use dbio_model::JobSpec;
pub use dbio_orchestrate::workload::Workload;
use dbio_spec::{RawJob, SpecError};

/// The run flags as plain data, nothing checked yet: the workload's own, with what the
/// fleet and verify flags say about it.
pub fn raw_job(a: &RunArgs) -> RawJob {
    RawJob {
        split_region: a.fleet.split_region.clone(),
        on_hosts: !a.fleet.hosts.is_empty() || a.fleet.hosts_file.is_some(),
        verify: a.verify.verify,
        verify_journal: a.verify.verify_journal.clone(),
        ..a.job.clone()
    }
}

/// The validated job of a single-stream `dbio run`.
pub fn job_spec(a: &RunArgs) -> Result<JobSpec, SpecError> {
    raw_job(a).check()
}

/// What the flags of `dbio run` ask to run; the message says what is wrong.
pub fn plan(a: &RunArgs) -> Result<Workload, CliError> {
    Ok(Workload::of(&raw_job(a), a.fleet.job_json.as_deref())?)
}

/// `--start-at`: the instant measuring starts; refused when it is malformed or more than a
/// day away.
pub fn start_at(a: &RunArgs) -> Result<Option<std::time::SystemTime>, CliError> {
    Ok(dbio_orchestrate::start_at::parse_start_at(
        a.fleet.start_at.as_deref(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::raw_job;
    use crate::args::RunArgs;
    use clap::{Args, FromArgMatches};
    use dbio_spec::RawJob;

    /// The library's plain run (a suite's parts start from it) is `dbio run` with no flags.
    #[test]
    fn default_is_no_flags() {
        let cmd = RunArgs::augment_args(clap::Command::new("run").no_binary_name(true));
        let m = cmd.get_matches_from(std::iter::empty::<String>());
        let a = RunArgs::from_arg_matches(&m).expect("the flags' defaults parse");
        assert_eq!(raw_job(&a), RawJob::default());
    }
}
