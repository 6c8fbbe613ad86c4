//! The CLI's one error: why a command cannot start or go on, in the words the user reads.
//! Each command decides the status of its own (crate::exit).

/// Why a command cannot start: a flag the CLI checks itself, or a library's refusal. Its
/// Display is the message as printed (after `dbio CMD: ` where the command adds it); the
/// status is the caller's (2 before anything ran, 1 for a result that could not be written).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// What the CLI checks or writes itself: the message names the flag or file, the value
    /// and what to do.
    #[error("{0}")]
    Message(String),
    /// Words that make no job.
    #[error(transparent)]
    Spec(#[from] dbio_spec::SpecError),
    /// The database side's refusal (a URL, an export, a snapshot).
    #[error(transparent)]
    Db(#[from] dbio_db::DbError),
    /// An objective or results that cannot be judged or merged.
    #[error(transparent)]
    Analyze(#[from] dbio_analyze::error::AnalyzeError),
    /// A thresholds file that cannot be read.
    #[error(transparent)]
    Thresholds(#[from] dbio_model::suite::ThresholdsError),
    /// A history that cannot be opened, or a `--label` it could not find again.
    #[error(transparent)]
    Store(#[from] dbio_store::lookup::LookupError),
    /// A sweep that stopped before it could give a result.
    #[error(transparent)]
    Sweep(#[from] dbio_orchestrate::sweep::SweepError),
    /// A suite that ended before its last part.
    #[error(transparent)]
    Suite(#[from] dbio_orchestrate::suite::SuiteError),
    /// Words that make no sweep.
    #[error(transparent)]
    SweepWords(#[from] dbio_orchestrate::sweep_words::SweepWordsError),
    /// Words that make no suite.
    #[error(transparent)]
    SuiteWords(#[from] dbio_orchestrate::suite_setup::SuiteWordsError),
    /// Words that make no database sweep.
    #[error(transparent)]
    DbPlan(#[from] dbio_orchestrate::db_sweep::DbPlanError),
    /// Hosts of `--hosts`/`--hosts-file` that cannot be used.
    #[error(transparent)]
    Hosts(#[from] dbio_orchestrate::fleet::hosts::HostsError),
    /// A fleet that cannot run as given.
    #[error(transparent)]
    Fleet(#[from] dbio_orchestrate::fleet::FleetError),
    /// Flags that make no database setup or run.
    #[error(transparent)]
    DbFlags(#[from] dbio_db::slob::flags::FlagError),
    /// A `--start-at` that is malformed or too far away.
    #[error(transparent)]
    StartAt(#[from] dbio_orchestrate::start_at::StartAtError),
    /// Fleet flags that make no fleet.
    #[error(transparent)]
    FleetFlags(#[from] dbio_orchestrate::fleet::flags::FlagsError),
    /// Fleet flags that make no fleet for a sweep's or a suite's steps.
    #[error(transparent)]
    FleetSteps(#[from] dbio_orchestrate::fleet::steps::StepsError),
    /// Fleet flags the suite refuses.
    #[error(transparent)]
    SuiteFleet(#[from] dbio_orchestrate::suite_fleet::SuiteFleetError),
    /// An output file (`--json`, `--html`) that cannot be written or would overwrite an input.
    #[error(transparent)]
    Output(#[from] dbio_store::files::OutputError),
}

/// A message of the CLI's own checks.
impl From<String> for CliError {
    fn from(m: String) -> CliError {
        CliError::Message(m)
    }
}

/// A fixed message of the CLI's own checks.
impl From<&str> for CliError {
    fn from(m: &str) -> CliError {
        CliError::Message(m.to_string())
    }
}
