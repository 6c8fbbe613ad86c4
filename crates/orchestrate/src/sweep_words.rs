//! A sweep's plan from what a user wrote: the run's raw description, `--vary` and the
//! objective (`--slo`, or `--target-latency` to search for the highest load within it).

use crate::sweep::{SweepError, SweepPlan};
use dbio_analyze::slo::Slo;
use dbio_spec::sweep_base::base_job;
use dbio_spec::vary_flag::parse_vary;
use dbio_spec::{RawJob, SpecError};

/// What a user wrote for a sweep, unchecked.
#[derive(Debug, Clone)]
pub struct SweepWords {
    /// The run every step varies.
    pub run: RawJob,
    /// `--vary KEY=VALUES`.
    pub vary: String,
    /// `--slo`: the objective the knee is found within.
    pub slo: Option<String>,
    /// `--target-latency`: the objective to bisect for the highest load within.
    pub target_latency: Option<String>,
}

/// Why the words make no sweep; Display names the flag, the value and what to try.
#[derive(Debug, thiserror::Error)]
pub enum SweepWordsError {
    /// `--vary` that does not parse.
    #[error("{0}")]
    Vary(SpecError),
    /// An objective that does not parse, named by the flag it came from.
    #[error("{0}")]
    Objective(String),
    /// The flags' own job is not valid.
    #[error("{0}")]
    Base(SpecError),
    /// A step or the objective does not fit the sweep.
    #[error("{0}")]
    Plan(SweepError),
}

impl SweepWords {
    /// Checks `--vary`, the objective and every step's job, in that order; the steps are the
    /// job of the flags with the varied setting changed, each checked again as a job.
    pub fn plan(&self) -> Result<SweepPlan, SweepWordsError> {
        let vary = parse_vary(&self.vary).map_err(SweepWordsError::Vary)?;
        let search = self.target_latency.is_some();
        let slo_text = self.slo.clone().or(self.target_latency.clone());
        let slo = match slo_text.as_deref().map(Slo::parse).transpose() {
            Ok(s) => s,
            Err(m) if search => {
                let m = m.to_string().replace("--slo", "--target-latency");
                return Err(SweepWordsError::Objective(m));
            }
            Err(m) => return Err(SweepWordsError::Objective(m.to_string())),
        };
        let base = base_job(&self.run, &vary).map_err(SweepWordsError::Base)?;
        SweepPlan::new(&base, vary, slo_text.zip(slo), search).map_err(SweepWordsError::Plan)
    }
}
