//! The suite's settings from what a user wrote: the thresholds, each role's targets and the
//! run settings every part shares, checked before any part runs.

use crate::suite::{largest_io, step_secs};
use dbio_model::suite::{Thresholds, ThresholdsError};
use dbio_model::units::{format_size, parse_size};
use dbio_model::JobSpec;
use dbio_spec::targets::role_targets;
use dbio_spec::{RawJob, SpecError};

/// What a user wrote for a suite, unchecked.
#[derive(Debug, Clone)]
pub struct SuiteWords {
    /// `--engine`: uring, psync or sim.
    pub engine: String,
    /// `--target` values as given (paths, or `ROLE=PATH`).
    pub targets: Vec<String>,
    /// `--size` of every part's files.
    pub size: Option<String>,
    /// `--quick`: shorter steps, fewer of them.
    pub quick: bool,
    /// `--sim`: the simulated device.
    pub sim: Option<String>,
    /// `--destroy-data`.
    pub destroy_data: bool,
    /// `--device-latency`: every step traces its disks in the block layer.
    pub device_latency: bool,
    /// `--profile FILE`: a captured workload's profile, run as a sixth part.
    pub profile: Option<String>,
    /// `--thresholds FILE`.
    pub thresholds: Option<String>,
}

/// Why the words make no suite; Display names the flag, the value and what to try.
#[derive(Debug, thiserror::Error)]
pub enum SuiteWordsError {
    #[error("--thresholds {file}: {why}")]
    ThresholdsFile { file: String, why: std::io::Error },
    #[error("{0}")]
    Thresholds(ThresholdsError),
    #[error("--engine sim models a device and touches no file; leave out --target")]
    SimTarget,
    /// `--target` values that do not fit the roles.
    #[error("{0}")]
    Targets(SpecError),
    #[error("--size {size}: smaller than the suite's largest I/O ({largest}, in the DSS part); use at least that")]
    SizeSmall { size: String, largest: String },
    #[error("--size {size}: {why}")]
    Size { size: String, why: String },
    #[error("--profile {0}: {1}")]
    Profile(String, SpecError),
}

/// Everything the parts share: the settings of every part's job and each role's targets.
pub struct Setup {
    /// The settings of every part (engine, duration, ramp, size, ...), before its profile.
    base: RawJob,
    /// Per role, its paths (none for the simulated device).
    pub targets: Vec<(String, Vec<String>)>,
}

impl Setup {
    /// The validated job of the profile file `path` on the data role's targets.
    pub fn file_job(&self, path: &str) -> Result<JobSpec, SpecError> {
        let mut a = self.base.clone();
        a.profile_file = Some(path.to_string());
        a.targets = self
            .targets
            .iter()
            .find(|(r, _)| r == "data")
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        a.check()
    }

    /// The validated job of `profile` on the targets of `role`.
    pub fn job(&self, profile: &str, role: &str) -> Result<JobSpec, SpecError> {
        let mut a = self.base.clone();
        a.profile = Some(profile.to_string());
        a.targets = self
            .targets
            .iter()
            .find(|(r, _)| r == role)
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        a.check()
    }
}

/// The suite's settings checked: the parts' setup and the thresholds.
pub struct Checked {
    pub setup: Setup,
    pub thresholds: Thresholds,
    /// The captured workload's job (`--profile`), checked with the rest.
    pub captured: Option<JobSpec>,
}

impl SuiteWords {
    /// Checks the words before any part runs: the thresholds, the targets (`notice` hears
    /// of targets dbio chose itself), then `--size`.
    pub fn check(&self, notice: &mut dyn FnMut(&str)) -> Result<Checked, SuiteWordsError> {
        let thresholds = match &self.thresholds {
            None => Thresholds::default(),
            Some(f) => {
                let text = dbio_spec::input::read_text(f).map_err(|why| {
                    SuiteWordsError::ThresholdsFile {
                        file: f.clone(),
                        why,
                    }
                })?;
                Thresholds::from_toml(&text, f).map_err(SuiteWordsError::Thresholds)?
            }
        };
        let targets = self.role_paths(notice)?;
        let (secs, ramp) = step_secs(self.quick);
        let mut base = RawJob {
            engine: self.engine.clone(),
            duration: Some(format!("{secs}s")),
            ramp: Some(format!("{ramp}s")),
            sim: self.sim.clone(),
            destroy_data: self.destroy_data,
            device_latency: self.device_latency,
            ..RawJob::default()
        };
        if self.engine != "sim" {
            let quick_size = if self.quick { "256MiB" } else { "1GiB" };
            base.size = Some(self.size.clone().unwrap_or_else(|| quick_size.into()));
        }
        // Every part's files take the DSS part's largest I/O: say so now, not after four parts.
        if let Some(size) = &self.size {
            let largest = largest_io(self.quick);
            match parse_size(size) {
                Ok(n) if n < largest => {
                    return Err(SuiteWordsError::SizeSmall {
                        size: size.clone(),
                        largest: format_size(largest),
                    })
                }
                Ok(_) => {}
                Err(e) => {
                    return Err(SuiteWordsError::Size {
                        size: size.clone(),
                        why: e.to_string(),
                    })
                }
            }
        }
        let setup = Setup { base, targets };
        let captured = (self.profile.as_deref())
            .map(|p| {
                setup
                    .file_job(p)
                    .map_err(|e| SuiteWordsError::Profile(p.to_string(), e))
            })
            .transpose()?;
        Ok(Checked {
            setup,
            thresholds,
            captured,
        })
    }

    /// Each role's paths (none for the simulated device, which takes no --target).
    fn role_paths(
        &self,
        notice: &mut dyn FnMut(&str),
    ) -> Result<Vec<(String, Vec<String>)>, SuiteWordsError> {
        if self.engine == "sim" {
            if !self.targets.is_empty() {
                return Err(SuiteWordsError::SimTarget);
            }
            return Ok(Vec::new());
        }
        let values = if self.targets.is_empty() {
            vec!["./dbio-testfile".to_string()]
        } else {
            self.targets.clone()
        };
        let rt =
            role_targets(&values, &["data", "log", "tempdb"]).map_err(SuiteWordsError::Targets)?;
        rt.notices.iter().for_each(|n| notice(n));
        Ok(rt.paths)
    }
}
