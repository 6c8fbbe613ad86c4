//! A whole run, in phases: prepare (open and check the targets, prefill, pick the engine),
//! measure (start the workers on one timeline, gather their per-second intervals), and
//! assemble the result. A multi-stream run (`streams.rs`) reuses every phase.

use crate::assemble::{assemble, directions, fail_verify, Assembly};
use crate::error::RunError;
use crate::event::Event;
use crate::measure::measure;
use crate::prepare::prepare;
use crate::start_at::wait_until;
use dbio_model::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::SystemTime;

/// Runs `spec` to its end (or until `stop` is set) and returns the result.
pub fn run(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
) -> Result<RunResult, RunError> {
    run_at(spec, stop, on_event, None)
}

/// [`run`], with the workers started at the wall-clock instant `start_at` once the targets
/// are ready (`--start-at`: several hosts start one workload together). A start already
/// past starts at once, with a warning saying by how much it was missed. The simulated
/// device and session mode run through their own entry points, [`run_sim`] and
/// [`run_session`]; every other job through [`run_local`].
pub fn run_at(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    start_at: Option<SystemTime>,
) -> Result<RunResult, RunError> {
    if spec.engine == EngineKind::Sim {
        return run_sim(spec, stop, on_event, start_at);
    }
    if spec.session.is_some() {
        return run_session(spec, stop, on_event, start_at);
    }
    run_local(spec, stop, on_event, start_at)
}

/// A job on the simulated device (`--engine sim`), started at `start_at` if given.
pub fn run_sim(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    start_at: Option<SystemTime>,
) -> Result<RunResult, RunError> {
    after_start(start_at, &stop, on_event, |_| {
        Ok(crate::sim::run(spec, &stop))
    })
}

/// A session-mode job (`--sessions`), started at `start_at` if given.
pub fn run_session(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    start_at: Option<SystemTime>,
) -> Result<RunResult, RunError> {
    after_start(start_at, &stop.clone(), on_event, |on_event| {
        crate::session::run_sessions(spec, stop, on_event)
    })
}

/// Runs `job` once `start_at` has come (at once without one); a start already past adds its
/// warning to the job's result.
fn after_start(
    start_at: Option<SystemTime>,
    stop: &Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    job: impl FnOnce(&mut dyn FnMut(Event)) -> Result<RunResult, RunError>,
) -> Result<RunResult, RunError> {
    let mut warnings = Vec::new();
    wait_until(start_at, stop, on_event, &mut warnings)?;
    let mut r = job(on_event)?;
    r.warnings.extend(warnings);
    Ok(r)
}

/// A job on this host's own targets (neither simulated nor in session mode): prepare,
/// measure from `start_at` (if given), assemble.
pub fn run_local(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    start_at: Option<SystemTime>,
) -> Result<RunResult, RunError> {
    let mut warnings = Vec::new();
    let disks = crate::device_latency::disks(&[spec])?;
    let mut prepared = prepare(&[spec], &stop, on_event, &mut warnings)?;
    let probe = crate::device_latency::start(disks)?;
    let m = measure(
        &[spec],
        &prepared,
        stop,
        on_event,
        &mut warnings,
        (start_at, probe),
    )?;
    let p = prepared.remove(0);
    let mut r = assemble(Assembly {
        spec,
        dirs: directions(spec),
        engine_kind: p.engine,
        features: p.features,
        targets: &p.targets,
        prefilled: p.prefilled,
        sampled: p.sampled,
        reports: m.reports.into_iter().flatten().collect(),
        window: m.window,
        interrupted: m.interrupted,
        warnings,
        steady: m.steady,
    });
    r.verify = m.verify;
    r.device_latency = m.device_latency;
    fail_verify(&mut r, m.verify_failure, m.aborted);
    Ok(r)
}
