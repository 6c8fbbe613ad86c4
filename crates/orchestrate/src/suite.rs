//! The database storage assessment driven part by part through an executor: an oltp-read
//! concurrency ramp with its knee, oltp at the knee's queue depth, log commit latency with
//! 1–8 writers, TempDB, and a DSS I/O-size sweep. Each part is a validated job (a profile on
//! its role's targets, built by the caller), and a sweep part is that job varied as values.

use crate::executor::{Executor, Plan};
use crate::one::run_one;
use crate::sweep::{run_sweep, SweepError, SweepObserver, SweepPlan};
use dbio_analyze::slo::Slo;
use dbio_model::suite::{RoleTarget, SuiteResult, Thresholds, SUITE_SCHEMA};
use dbio_model::sweep::SweepResult;
use dbio_model::{JobSpec, Outcome, RunResult};
use dbio_runner::{Event, RunError};
use dbio_spec::vary::{Vary, Varying};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The steps of each part: (quick, full).
const RAMP_QD: (&[u32], &[u32]) = (&[1, 4, 16, 64], &[1, 2, 4, 8, 16, 32, 64, 128]);
const LOG_WRITERS: &[u32] = &[1, 2, 4, 8];
const DSS_SIZES: (&[u64], &[u64]) = (
    &[64 << 10, 256 << 10, 1 << 20],
    &[8 << 10, 64 << 10, 256 << 10, 1 << 20],
);
/// Seconds measured per step, and ramp before each: (quick, full).
const STEP: ((f64, f64), (f64, f64)) = ((2.0, 0.0), (30.0, 5.0));

/// Seconds measured per step, and ramp before each, of a quick or a full suite.
pub fn step_secs(quick: bool) -> (f64, f64) {
    if quick {
        STEP.0
    } else {
        STEP.1
    }
}

/// The largest I/O of the suite (the DSS part's): every part's files must hold it.
pub fn largest_io(quick: bool) -> u64 {
    dss_bs(quick).iter().copied().max().unwrap_or(0)
}

fn dss_bs(quick: bool) -> &'static [u64] {
    if quick {
        DSS_SIZES.0
    } else {
        DSS_SIZES.1
    }
}

/// The captured workload's rates, in hundredths of its own.
const RATE_TIMES: [u64; 3] = [100, 200, 400];

/// The qd steps of the ramp.
fn ramp_qd(quick: bool) -> Varying {
    let qd = if quick { RAMP_QD.0 } else { RAMP_QD.1 };
    Varying::new(qd.iter().map(|q| Vary::Qd(*q)).collect())
}

/// The block sizes of the DSS part.
fn dss_sizes(quick: bool) -> Varying {
    Varying::new(dss_bs(quick).iter().map(|b| Vary::Bs(*b)).collect())
}

/// The writers of the log part.
fn log_writers() -> Varying {
    Varying::new(LOG_WRITERS.iter().map(|t| Vary::Threads(*t)).collect())
}

/// The validated job of `profile` on the targets of `role` ("data", "log", "tempdb"), as
/// the caller builds it from its own settings; Err says what is wrong.
pub type Jobs<'a> = dyn Fn(&str, &str) -> Result<JobSpec, dbio_spec::SpecError> + 'a;

/// Why a suite ended before its last part; Display says which part and why.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The data-read objective built from the thresholds does not parse.
    #[error("{0}")]
    Objective(dbio_analyze::error::AnalyzeError),
    /// A part's job could not be built.
    #[error("{0}")]
    Job(dbio_spec::SpecError),
    #[error("knee qd {0}")]
    Knee(String),
    /// The knee's queue depth does not apply to the oltp part's job.
    #[error("{0}")]
    Vary(dbio_spec::SpecError),
    #[error("{0}")]
    Sweep(#[from] SweepError),
    /// A run part could not run.
    #[error("{0}")]
    Run(RunError),
    #[error("{0} did not complete")]
    Incomplete(String),
    #[error("the {0} sweep stopped before its last step")]
    Stopped(String),
}

/// What a suite tells its caller as it goes.
pub trait SuiteObserver {
    /// Part `i` (from 0, of `parts`) starts, measuring `name`; `left_secs` of measuring are left
    /// in the suite, this part's included.
    fn part_start(&mut self, i: usize, parts: usize, name: &str, left_secs: f64);
    /// The observer of a sweep part's steps; `after_secs` are planned after the part.
    fn sweep(&mut self, after_secs: f64) -> Box<dyn SweepObserver + '_>;
    /// A run part starts; `after_secs` are planned after it.
    fn run_start(&mut self, after_secs: f64);
    /// An event of the running run part.
    fn event(&mut self, ev: Event);
    /// The run part ended with this result (judged), or not at all (None).
    fn run_end(&mut self, r: Option<&RunResult>);
}

/// A suite ready to run: quick or full, the job of each part, and the flag that stops it.
pub struct Suite<'a> {
    pub quick: bool,
    pub jobs: &'a Jobs<'a>,
    /// A captured workload's job (`--profile`): a sixth part runs it at 1x, 2x and 4x its rate.
    pub captured: Option<&'a JobSpec>,
    pub stop: &'a Arc<AtomicBool>,
}

/// A result with what the suite runs on and is held against, and no part yet. `targets` are
/// the paths of each role (none for a simulated device).
pub fn empty_result(
    quick: bool,
    targets: &[(String, Vec<String>)],
    thresholds: Thresholds,
) -> SuiteResult {
    SuiteResult {
        schema: SUITE_SCHEMA.into(),
        dbio_version: env!("CARGO_PKG_VERSION").into(),
        quick,
        targets: targets
            .iter()
            .flat_map(|(role, paths)| {
                paths.iter().map(|p| RoleTarget {
                    role: role.clone(),
                    path: p.clone(),
                })
            })
            .collect(),
        thresholds,
        oltp_read: None,
        oltp_at_knee: None,
        log: None,
        tempdb: None,
        dss: None,
        captured: None,
        scorecard: Vec::new(),
        partial: false,
    }
}

/// Marks `s` partial when the suite ended early (a part failed, or Ctrl-C) or a sweep part
/// is partial, and fills its scorecard.
pub fn conclude(s: &mut SuiteResult, ended_early: bool) {
    s.partial = ended_early
        || [&s.oltp_read, &s.log, &s.dss, &s.captured]
            .iter()
            .any(|x| x.as_ref().is_some_and(|w| w.partial));
    s.scorecard = dbio_analyze::scorecard::scorecard(s);
}

impl Suite<'_> {
    /// Steps of every part, for the time left.
    fn steps(&self) -> Vec<usize> {
        let mut v = vec![
            ramp_qd(self.quick).steps.len(),
            1,
            LOG_WRITERS.len(),
            1,
            dss_sizes(self.quick).steps.len(),
        ];
        v.extend(self.captured.map(|_| RATE_TIMES.len()));
        v
    }

    /// Tells `obs` part `i` starts, with the measuring time left; the seconds planned after it.
    fn start(&self, i: usize, name: &str, obs: &mut dyn SuiteObserver) -> f64 {
        let (secs, ramp) = step_secs(self.quick);
        let per_step = secs + ramp;
        let steps = self.steps();
        let left: usize = steps[i..].iter().sum();
        obs.part_start(i, steps.len(), name, left as f64 * per_step);
        steps[i + 1..].iter().sum::<usize>() as f64 * per_step
    }

    /// Runs every part in turn through `exec` into `s`. Err at the first part that fails or
    /// is interrupted; the parts before it stay in `s`.
    pub fn run(
        &self,
        exec: &mut dyn Executor,
        obs: &mut dyn SuiteObserver,
        s: &mut SuiteResult,
    ) -> Result<(), SuiteError> {
        let jobs = |profile: &str, role: &str| (self.jobs)(profile, role).map_err(SuiteError::Job);
        let name = "oltp-read concurrency ramp, knee under the data-read objective";
        let after = self.start(0, name, obs);
        let slo_text = format!("read:p99<{}us", s.thresholds.data_read_p99_us);
        let slo = Slo::parse(&slo_text).map_err(SuiteError::Objective)?;
        let ramp_job = jobs("oltp-read", "data")?;
        let objective = Some((slo_text, slo));
        let ramp = self.sweep(&ramp_job, ramp_qd(self.quick), objective, after, exec, obs)?;
        let knee_qd = ramp.knee.as_ref().map_or_else(
            || ramp.values.first().cloned().unwrap_or("1".into()),
            |k| k.value.clone(),
        );
        kept(&mut s.oltp_read, ramp)?;
        let name = format!("oltp, 70 % reads, at the knee's queue depth {knee_qd}");
        let after = self.start(1, &name, obs);
        let qd = knee_qd
            .parse::<u64>()
            .map_err(|_| SuiteError::Knee(knee_qd.clone()))?;
        let vary = Vary::of("qd", qd).map_err(SuiteError::Vary)?;
        let at_knee = vary
            .apply(&jobs("oltp", "data")?)
            .map_err(SuiteError::Vary)?;
        s.oltp_at_knee = Some(self.one(&at_knee, after, exec, obs)?);
        let after = self.start(2, "log commit latency with 1, 2, 4 and 8 writers", obs);
        let log = jobs("log", "log")?;
        kept(
            &mut s.log,
            self.sweep(&log, log_writers(), None, after, exec, obs)?,
        )?;
        let after = self.start(3, "TempDB", obs);
        s.tempdb = Some(self.one(&jobs("tempdb", "tempdb")?, after, exec, obs)?);
        let after = self.start(4, "DSS bandwidth against I/O size", obs);
        let dss = jobs("dss", "data")?;
        kept(
            &mut s.dss,
            self.sweep(&dss, dss_sizes(self.quick), None, after, exec, obs)?,
        )?;
        if let Some(job) = self.captured {
            let name = "the captured workload at 1x, 2x and 4x its rate";
            let after = self.start(5, name, obs);
            let rates = Varying::new(RATE_TIMES.iter().map(|&h| Vary::RateTimes(h)).collect());
            kept(
                &mut s.captured,
                self.sweep(job, rates, None, after, exec, obs)?,
            )?;
        }
        Ok(())
    }

    /// One sweep part, complete or not (see [`kept`]).
    fn sweep(
        &self,
        job: &JobSpec,
        varying: Varying,
        objective: Option<(String, Slo)>,
        after_secs: f64,
        exec: &mut dyn Executor,
        obs: &mut dyn SuiteObserver,
    ) -> Result<SweepResult, SuiteError> {
        let plan = SweepPlan::new(job, varying, objective, false)?;
        Ok(run_sweep(
            &plan,
            exec,
            self.stop,
            &mut *obs.sweep(after_secs),
        )?)
    }

    /// One run part; one that fails or does not complete ends the suite.
    fn one(
        &self,
        job: &JobSpec,
        after_secs: f64,
        exec: &mut dyn Executor,
        obs: &mut dyn SuiteObserver,
    ) -> Result<RunResult, SuiteError> {
        obs.run_start(after_secs);
        let r = match run_one(exec, &Plan::job(job), self.stop, &mut |ev| obs.event(ev)) {
            Ok(r) => r,
            Err(e) => {
                obs.run_end(None);
                return Err(SuiteError::Run(e));
            }
        };
        obs.run_end(Some(&r));
        if r.outcome != Outcome::Complete {
            return Err(SuiteError::Incomplete(job.profile.clone()));
        }
        Ok(r)
    }
}

/// Puts sweep part `r` in `part`, also when it stopped early with steps done (they ran and
/// were printed: an interrupted suite keeps them, marked partial); one that stopped early
/// then ends the suite.
fn kept(part: &mut Option<SweepResult>, r: SweepResult) -> Result<(), SuiteError> {
    let stopped = r.partial.then(|| SuiteError::Stopped(r.vary.clone()));
    if !r.steps.is_empty() {
        *part = Some(r);
    }
    stopped.map_or(Ok(()), Err)
}
