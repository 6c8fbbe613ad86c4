//! The second phase of a run: start every stream's workers on one timeline, gather their
//! per-second intervals, join them, and end verification.

use crate::error::RunError;
use crate::event::Event;
use crate::prepare::Prepared;
use crate::spawn::{start_workers, Setup, Workers};
use crate::start_at::wait_until;
use crate::steady::Settler;
use crate::timeline::Timeline;
use crate::warn;
use crate::window::{gather, hold_cpus, wake_cost, Window};
use crate::worker::WorkerReport;
use dbio_model::*;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

/// What the measuring phase gathered: each stream's worker reports and the run's series.
pub(crate) struct Measured {
    pub reports: Vec<Vec<WorkerReport>>,
    pub window: Window,
    /// Measuring ended before its end: by the user's stop, or by the run's own (`aborted`).
    pub interrupted: bool,
    /// The run's own stop ended measuring: verification failed (its journal could not be
    /// kept). Never set by the user's Ctrl-C.
    pub aborted: bool,
    /// How settling went, with `--steady`.
    pub steady: Option<SteadyState>,
    /// The block layer's queue and device times (`--device-latency`).
    pub device_latency: Option<dbio_model::device_latency::DeviceLatencyReport>,
    /// What write verification found (`--verify`).
    pub verify: Option<dbio_model::verify::VerifyReport>,
    /// Why verification failed the run (its journal, or a pass that could not read).
    pub verify_failure: Option<String>,
}

/// Second phase: starts every stream's workers on one timeline (the first stream's ramp,
/// settling and stop), gathers their per-second intervals until all have ended, and joins them.
/// A device-latency `probe` counts from the end of the ramp to the end of the window.
pub(crate) fn measure(
    specs: &[&JobSpec],
    prepared: &[Prepared],
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
    (start_at, probe): (Option<SystemTime>, Option<dbio_trace::probe::Probe>),
) -> Result<Measured, RunError> {
    let spec = specs[0];
    // The run's own stop: a failed journal ends the run through it, never through the user's
    // `stop` (whose Ctrl-C handling would then end dbio at the next Ctrl-C).
    let abort = Arc::new(AtomicBool::new(false));
    let verification = crate::verify::setup::start(specs, prepared, &abort)?;
    let fds: Vec<Vec<i32>> = prepared
        .iter()
        .map(|p| p.targets.iter().map(|t| t.file.as_raw_fd()).collect())
        .collect();
    let setups = worker_setups(
        specs,
        prepared,
        &fds,
        [&stop, &abort],
        verification.as_ref(),
    );
    // The CPUs are held awake, and every worker is set up, before a common start: at the
    // instant itself only the clock starts (the hosts' start skew is their wake-up alone).
    let (awake, cpu_idle) = hold_cpus(spec, warnings);
    let mut waited = Ok(());
    let Workers {
        handles,
        timeline,
        intervals: rx,
    } = start_workers(&setups, &mut || {
        waited = wait_until(start_at, &stop, on_event, warnings);
        let ramp = (spec.ramp_secs * 1e9) as u64;
        (probe.iter()).for_each(|p| p.count_from(dbio_engine::sys::monotonic_ns() + ramp));
    });
    if let Err(e) = waited {
        // Stopped while waiting: the workers see `stop` at once; nothing was measured.
        drop(rx);
        handles.into_iter().flatten().for_each(|h| {
            let _ = h.join();
        });
        abandon(verification);
        return Err(e);
    }
    let threads: u32 = specs.iter().map(|s| s.threads).sum();
    let mut settler = spec
        .steady
        .zip(timeline.settle_from)
        .map(|(s, from)| Settler::new(s, timeline.start.clone(), from, threads));
    on_event(Event::Measuring {
        planned_secs: match spec.stop {
            StopAfter::Seconds(s) if settler.is_none() => Some(s + spec.ramp_secs),
            _ => None,
        },
    });
    let mut window = gather(
        rx,
        threads,
        &timeline,
        settler.as_mut(),
        on_event,
        &mut || {},
    );
    window.cpu_idle = cpu_idle;
    let device_latency = crate::device_latency::finish(probe, warnings);
    on_event(Event::Finishing);
    let reports = match join_workers(handles, prepared) {
        Ok(r) => r,
        Err(e) => {
            abandon(verification);
            return Err(e);
        }
    };
    window.wake = wake_cost(awake);
    // Read before the pass: a stop during the (long) pass ends the pass, not the window.
    let by_user = stop.load(Ordering::Relaxed);
    let aborted = abort.load(Ordering::Acquire);
    let interrupted = by_user || aborted;
    let (verify, verify_failure) =
        finish_verification(verification, prepared, (!by_user).then_some(&*stop));
    if interrupted && !window.took_start {
        // Stopped before measuring began: by the user, or by a journal that failed.
        return Err(verify_failure.map_or(RunError::Interrupted, RunError::Target));
    }
    let steady = settled(settler, &timeline, window.took_start, warnings);
    Ok(Measured {
        reports,
        window,
        interrupted,
        aborted,
        steady,
        device_latency,
        verify,
        verify_failure,
    })
}

/// How settling went, with `--steady`; a warning when it never settled in a run that
/// measured.
fn settled(
    settler: Option<Settler>,
    timeline: &Timeline,
    took_start: bool,
    warnings: &mut Vec<Warning>,
) -> Option<SteadyState> {
    let steady = settler.map(|s| s.outcome(timeline.start.get()));
    if let Some(st) = steady.as_ref().filter(|st| !st.settled && took_start) {
        warnings.push(warn::not_settled(st));
    }
    steady
}

/// What the workers of each stream run on.
fn worker_setups<'a>(
    specs: &[&'a JobSpec],
    prepared: &[Prepared],
    fds: &'a [Vec<i32>],
    [stop, abort]: [&Arc<AtomicBool>; 2],
    verification: Option<&crate::verify::Verification>,
) -> Vec<Setup<'a>> {
    specs
        .iter()
        .zip(prepared)
        .zip(fds)
        .enumerate()
        .map(|(i, ((spec, p), fds))| Setup {
            spec,
            engine: p.engine,
            qd: p.qd,
            fds,
            region: p.region,
            stop: stop.clone(),
            abort: abort.clone(),
            verify: verification.and_then(|v| v.of_stream(i)),
        })
        .collect()
}

/// Ends the verification of a run that measured nothing: no pass.
fn abandon(verification: Option<crate::verify::Verification>) {
    if let Some(v) = verification {
        v.finish(&[], Some("not run".into()), None);
    }
}

/// Joins the workers of every stream: their reports, or the error of one that could not set
/// up its engine.
fn join_workers(
    handles: Vec<Vec<std::thread::JoinHandle<std::io::Result<WorkerReport>>>>,
    prepared: &[Prepared],
) -> Result<Vec<Vec<WorkerReport>>, RunError> {
    let mut reports = Vec::new();
    let mut setup_error = None;
    for (stream, p) in handles.into_iter().zip(prepared) {
        let mut these = Vec::new();
        for h in stream {
            match h.join() {
                Ok(Ok(r)) => these.push(r),
                Ok(Err(e)) => setup_error = Some((p.engine, e)),
                Err(_) => {
                    setup_error =
                        Some((p.engine, std::io::Error::other("a worker thread panicked")))
                }
            }
        }
        reports.push(these);
    }
    match setup_error {
        None => Ok(reports),
        Some((engine_kind, e)) => Err(RunError::Target(
            format!("cannot set up the {engine_kind:?} engine: {e}").to_lowercase(),
        )),
    }
}

/// Ends verification after the workers: the pass over every target, the journal's last
/// sync; `stop` ends the pass early (None after the user's stop: the pass then runs whole,
/// and a second Ctrl-C ends dbio). Returns the report and why verification failed the run,
/// if it did.
fn finish_verification(
    verification: Option<crate::verify::Verification>,
    prepared: &[Prepared],
    stop: Option<&AtomicBool>,
) -> (Option<dbio_model::verify::VerifyReport>, Option<String>) {
    let verified = verification.map(|v| v.finish(&target_files(prepared), None, stop));
    let verify_failure = verified.as_ref().and_then(|f| f.failure.clone());
    (verified.map(|f| f.report), verify_failure)
}

/// Every stream's target files, for the verify pass that reads them back.
fn target_files(prepared: &[Prepared]) -> Vec<Vec<&std::fs::File>> {
    prepared
        .iter()
        .map(|p| p.targets.iter().map(|t| &t.file).collect())
        .collect()
}
