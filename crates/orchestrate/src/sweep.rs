//! A sweep driven step by step through an executor: every step (a validated job) in turn,
//! or a bisection for the highest load within an objective; then the knee, the saturation
//! point and where bandwidth levels off.

use crate::executor::{Executor, Plan};
use crate::one::run_one;
use dbio_analyze::knee::{knee, reaches_90_pct, saturation};
use dbio_analyze::slo::{latency, Dir, Slo};
use dbio_model::spill::sweep::{spill_step, SpilledSweep};
use dbio_model::spill::SpilledRun;
use dbio_model::sweep::{SweepPoint, SweepResult, SWEEP_SCHEMA};
use dbio_model::{JobSpec, Outcome, RunResult};
use dbio_runner::{Event, RunError};
use dbio_spec::vary::Varying;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Why a sweep cannot be planned or could not run; Display names the flag or the step.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error(
        "{flag} searches qd, threads or rate for the highest load within the objective, not {key}"
    )]
    SearchKey {
        flag: &'static str,
        key: &'static str,
    },
    #[error("{flag}: give the objective, e.g. p99<1ms")]
    NoObjective { flag: &'static str },
    #[error("{flag} {text}: no step {what}; bound the direction the steps do, or all I/O (e.g. p99<1ms)")]
    NoDirection {
        flag: &'static str,
        text: String,
        what: &'static str,
    },
    /// A step that is not a valid job: which, and why.
    #[error("{0}")]
    Step(dbio_spec::SpecError),
    /// The first step could not run at all.
    #[error("{0}")]
    FirstStep(RunError),
    /// The finished steps could not be read back from the spill file.
    #[error("{0}")]
    Spill(dbio_model::spill::SpillError),
}

/// A sweep whose steps are all validated.
#[derive(Debug)]
pub struct SweepPlan {
    /// The varied setting (qd, threads, sessions, bs, mix, rate).
    pub key: &'static str,
    /// Its values, as written.
    pub values: Vec<String>,
    /// The jobs, one per value.
    pub specs: Vec<JobSpec>,
    /// The latency objective as written, and parsed.
    pub slo_text: Option<String>,
    pub slo: Option<Slo>,
    /// Bisect for the highest value within the objective instead of running every step.
    pub search: bool,
}

impl SweepPlan {
    /// The sweep of `base` over `varying`: every step's job checked before the first runs.
    /// `slo_text`/`slo` is the latency objective (the knee's); `search` bisects for the
    /// highest qd, threads or rate within it. Err says which step or objective is wrong.
    pub fn new(
        base: &JobSpec,
        varying: Varying,
        objective: Option<(String, Slo)>,
        search: bool,
    ) -> Result<SweepPlan, SweepError> {
        let flag = if search { "--target-latency" } else { "--slo" };
        if search && !matches!(varying.key, "qd" | "threads" | "rate") {
            return Err(SweepError::SearchKey {
                flag,
                key: varying.key,
            });
        }
        if search && objective.is_none() {
            return Err(SweepError::NoObjective { flag });
        }
        let specs = varying.jobs(base).map_err(SweepError::Step)?;
        // An objective on a direction that no step does would never be met, whatever the
        // device. (Session mode writes redo whatever its read share; it is left to the run.)
        if let Some((text, s)) = objective
            .as_ref()
            .filter(|_| specs.iter().all(|j| j.session.is_none()))
        {
            let (does, what) = match s.dir {
                Dir::Read => (specs.iter().any(|j| j.read_pct > 0), "reads"),
                Dir::Write => (specs.iter().any(|j| j.read_pct < 100), "writes"),
                Dir::All => (true, ""),
            };
            if !does {
                return Err(SweepError::NoDirection {
                    flag,
                    text: text.clone(),
                    what,
                });
            }
        }
        let (slo_text, slo) = objective.map_or((None, None), |(t, s)| (Some(t), Some(s)));
        Ok(SweepPlan {
            key: varying.key,
            values: varying.values,
            specs,
            slo_text,
            slo,
            search,
        })
    }
}

/// What a sweep tells its caller as it goes.
pub trait SweepObserver {
    /// The sweep starts, before its first step.
    fn start(&mut self, p: &SweepPlan);
    /// Step `i` starts; `later_secs` are planned for the steps after it.
    fn step_start(&mut self, i: usize, later_secs: f64);
    /// An event of the running step.
    fn event(&mut self, ev: Event);
    /// Step `i` ended with this result (judged), or not at all (None).
    fn step_end(&mut self, i: usize, r: Option<&RunResult>);
    /// A step after the first failed; the sweep stops with what it has.
    fn step_failed(&mut self, i: usize, why: &str);
    /// The sweep ended with this result (not called when its first step could not run).
    fn end(&mut self, r: &SweepResult);
}

/// Seconds a step is planned to take (ramp and measuring; 0 for size-based steps).
pub fn planned_secs(s: &JobSpec) -> f64 {
    match s.stop {
        dbio_model::StopAfter::Seconds(x) => x + s.ramp_secs,
        _ => 0.0,
    }
}

/// Runs the steps of `p` through `exec`, each result judged. Err when the first step cannot
/// run at all (or the finished steps cannot be read back from the spill file); a later
/// failure or `stop` ends the sweep early with the steps so far, marked partial.
pub fn run_sweep(
    p: &SweepPlan,
    exec: &mut dyn Executor,
    stop: &Arc<AtomicBool>,
    obs: &mut dyn SweepObserver,
) -> Result<SweepResult, SweepError> {
    let spilled = sweep_steps(p, exec, stop, obs)?;
    let result = spilled.whole().map_err(SweepError::Spill)?;
    obs.end(&result);
    Ok(result)
}

/// As [`run_sweep`], with the steps left in their spill files: the end of a long sweep
/// never holds it whole. The observer's `end` is given the outline (each step without its
/// per-second series, which the conclusions do not read).
pub fn run_sweep_spilled(
    p: &SweepPlan,
    exec: &mut dyn Executor,
    stop: &Arc<AtomicBool>,
    obs: &mut dyn SweepObserver,
) -> Result<SpilledSweep, SweepError> {
    let spilled = sweep_steps(p, exec, stop, obs)?;
    obs.end(&spilled.outline);
    Ok(spilled)
}

/// Runs the steps (every one, or a bisection) and analyses them; each finished step waits
/// in a spill file, its outline in memory.
fn sweep_steps(
    p: &SweepPlan,
    exec: &mut dyn Executor,
    stop: &Arc<AtomicBool>,
    obs: &mut dyn SweepObserver,
) -> Result<SpilledSweep, SweepError> {
    obs.start(p);
    // Finished steps wait in the spill file, so that a long sweep's memory stays flat.
    let mut ran: Vec<(usize, (RunResult, Figures), SpilledRun)> = Vec::new();
    let mut partial = false;
    // One step: None when the sweep must stop (interrupted, or the step failed).
    let mut run_step = |i: usize,
                        ran: &mut Vec<(usize, (RunResult, Figures), SpilledRun)>|
     -> Result<Option<bool>, SweepError> {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        obs.step_start(i, p.specs[i + 1..].iter().map(planned_secs).sum());
        let result = run_one(exec, &Plan::job(&p.specs[i]), stop, &mut |ev| obs.event(ev));
        let r = match result {
            Ok(r) => r,
            Err(RunError::Interrupted) => {
                obs.step_end(i, None);
                return Ok(None);
            }
            Err(e) if ran.is_empty() => {
                obs.step_end(i, None);
                return Err(SweepError::FirstStep(e));
            }
            Err(e) => {
                obs.step_end(i, None);
                obs.step_failed(i, &e.to_string());
                return Ok(None);
            }
        };
        obs.step_end(i, Some(&r));
        let complete = r.outcome == Outcome::Complete && !r.partial;
        let met = p.slo.is_some_and(|s| s.met_by(&r));
        let figures = Figures::of(&r, p.slo);
        let (outline, whole) = spill_step(r);
        ran.push((i, (outline, figures), whole));
        Ok(complete.then_some(met))
    };
    if p.search {
        // Bisection for the highest value that meets the objective, assuming latency grows
        // with load: about log2(steps) runs instead of all of them.
        let (mut lo, mut hi) = (0i64, p.values.len() as i64 - 1);
        while lo <= hi {
            let mid = (lo + hi) / 2;
            match run_step(mid as usize, &mut ran)? {
                None => {
                    partial = true;
                    break;
                }
                Some(true) => lo = mid + 1,
                Some(false) => hi = mid - 1,
            }
        }
    } else {
        for i in 0..p.values.len() {
            if run_step(i, &mut ran)?.is_none() {
                partial = true;
                break;
            }
        }
    }
    ran.sort_by_key(|(i, _, _)| *i);
    let values: Vec<String> = ran.iter().map(|(i, _, _)| p.values[*i].clone()).collect();
    let (kept, steps): (Vec<_>, Vec<SpilledRun>) = ran.into_iter().map(|(_, o, r)| (o, r)).unzip();
    let (outlines, figures): (Vec<RunResult>, Vec<Figures>) = kept.into_iter().unzip();
    let outline = SweepResult {
        steps: outlines,
        ..analysed(p, &values, &figures, partial)
    };
    Ok(SpilledSweep { outline, steps })
}

/// What the analysis reads of a step, taken while it is whole (its outline has no
/// latency histograms).
#[derive(Debug, Clone, Copy)]
struct Figures {
    iops: f64,
    mb_s: f64,
    /// Mean latency of all I/Os, ns.
    mean_ns: f64,
    /// The objective's statistic (None without an objective or without I/Os).
    slo: Option<f64>,
}

impl Figures {
    /// The figures of `r` under the objective `slo`.
    fn of(r: &RunResult, slo: Option<Slo>) -> Self {
        Figures {
            iops: r.total_iops(),
            mb_s: r.total_mb_s(),
            mean_ns: latency(r, Dir::All).mean(),
            slo: slo.and_then(|s| s.value(r)),
        }
    }
}

/// The sweep's result from its steps: knee (within the objective), saturation, and for
/// block sizes where bandwidth reaches 90 % of its best.
pub fn analyse(
    p: &SweepPlan,
    values: &[String],
    steps: Vec<RunResult>,
    partial: bool,
) -> SweepResult {
    let figures: Vec<Figures> = steps.iter().map(|r| Figures::of(r, p.slo)).collect();
    SweepResult {
        steps,
        ..analysed(p, values, &figures, partial)
    }
}

/// [`analyse`] from the steps' figures: the result with no steps.
fn analysed(p: &SweepPlan, values: &[String], f: &[Figures], partial: bool) -> SweepResult {
    let iops_v: Vec<f64> = f.iter().map(|f| f.iops).collect();
    let mb_v: Vec<f64> = f.iter().map(|f| f.mb_s).collect();
    let mean_v: Vec<f64> = f.iter().map(|f| f.mean_ns).collect();
    let point = |i: usize| SweepPoint {
        step: i,
        value: values[i].clone(),
        iops: iops_v[i],
        mb_s: mb_v[i],
    };
    let knee_at = p.slo.and_then(|s| {
        let limit = s.limit_ns as f64;
        if p.search {
            // A latency-target search answers with the highest load that met the objective.
            return f.iter().rposition(|f| f.slo.is_some_and(|v| v <= limit));
        }
        let lat: Vec<Option<f64>> = f.iter().map(|f| f.slo).collect();
        knee(&iops_v, &lat, limit)
    });
    SweepResult {
        schema: SWEEP_SCHEMA.to_string(),
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
        vary: p.key.to_string(),
        values: values.to_vec(),
        slo: p.slo_text.clone(),
        knee: knee_at.map(point),
        saturation: saturation(&iops_v, &mean_v).map(point),
        bandwidth_90: if p.key == "bs" {
            reaches_90_pct(&mb_v).map(point)
        } else {
            None
        },
        partial,
        steps: Vec::new(),
    }
}
