//! A whole run, in phases: prepare (open and check the targets, prefill, pick the engine),
//! measure (start the workers on one timeline, gather their per-second intervals), and
//! assemble the result. A multi-stream run (`streams.rs`) reuses every phase.

use crate::collect::Collector;
use crate::data::run_nonce;
use crate::hostcpu::{busy_pct, host_ticks};
use crate::spawn::{start_workers, Setup, Timeline, Workers};
use crate::steady::Settler;
use crate::warn;
use crate::worker::{Interval, WorkerReport};
use dbio_engine::engine::AnyEngine;
use dbio_engine::facts::{host_facts, target_facts};
use dbio_engine::sys::process_cpu;
use dbio_engine::target::{
    discard_created, mark_prefilled, open_target, prefill, OpenTarget, TargetKind, TargetOptions,
};
use dbio_engine::{open_engine, EngineSetup};
use dbio_model::*;
use fastrand::Rng;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant, SystemTime};

/// What the runner tells its caller while it works.
pub enum Event<'a> {
    /// Prefill progress of one target.
    Prefill {
        target: &'a str,
        done: u64,
        total: u64,
    },
    /// Measuring started; `planned_secs` is known for time-based runs.
    Measuring { planned_secs: Option<f64> },
    /// One more second measured.
    Tick { point: &'a TimePoint, elapsed: f64 },
    /// A notice for the user (not part of the result's warnings).
    Notice(String),
    /// The measured window is over; the run is finishing: its workers ending, its `--verify`
    /// pass (which reads the whole region back), its result.
    Finishing,
}

/// Why a run could not start or had to be abandoned before measuring.
#[derive(Debug)]
pub enum RunError {
    /// A target could not be used; the message says why and what to do.
    Target(String),
    /// The job does not fit the targets (block size, region).
    Invalid(String),
    /// Stopped (Ctrl-C) before measuring began.
    Interrupted,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Target(m) | RunError::Invalid(m) => f.write_str(m),
            RunError::Interrupted => {
                f.write_str("interrupted before measuring began; nothing was measured")
            }
        }
    }
}

impl std::error::Error for RunError {}

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
    let mut warnings = Vec::new();
    wait_until(start_at, &stop, on_event, &mut warnings)?;
    let mut r = crate::sim::run(spec, &stop);
    r.warnings.extend(warnings);
    Ok(r)
}

/// A session-mode job (`--sessions`), started at `start_at` if given.
pub fn run_session(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    start_at: Option<SystemTime>,
) -> Result<RunResult, RunError> {
    let mut warnings = Vec::new();
    wait_until(start_at, &stop, on_event, &mut warnings)?;
    let mut r = crate::session::run_sessions(spec, stop, on_event)?;
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
    let mut prepared = prepare(&[spec], &stop, on_event, &mut warnings)?;
    let m = measure(&[spec], &prepared, stop, on_event, &mut warnings, start_at)?;
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
    fail_verify(&mut r, m.verify_failure, m.aborted);
    Ok(r)
}

/// Sleeps until `at` (wall clock), checking `stop`; says so when `at` is already past. The
/// last nap ends at `at` itself, so the wake-up is as close to it as the scheduler allows.
fn wait_until(
    at: Option<SystemTime>,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
) -> Result<(), RunError> {
    let Some(at) = at else { return Ok(()) };
    match at.duration_since(SystemTime::now()) {
        Ok(left) => on_event(Event::Notice(format!(
            "waiting {:.1} s for the common start",
            left.as_secs_f64()
        ))),
        Err(late) => {
            warnings.push(warn::start_missed(late.duration().as_secs_f64()));
            return Ok(());
        }
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(RunError::Interrupted);
        }
        match at.duration_since(SystemTime::now()) {
            Ok(left) if left > Duration::ZERO => {
                std::thread::sleep(left.min(Duration::from_millis(20)))
            }
            _ => return Ok(()),
        }
    }
}

/// The targets of one stream, open, checked, prefilled, with the engine it will use.
pub(crate) struct Prepared {
    pub targets: Vec<OpenTarget>,
    pub region: (u64, u64),
    pub prefilled: Vec<String>,
    pub engine: EngineKind,
    pub features: Vec<String>,
    pub qd: u32,
    /// Existing content sampled before the run (see `sample.rs`).
    pub sampled: Vec<ContentSample>,
}

/// First phase: opens and checks the targets of every stream (a refusal leaves no file it
/// created behind), prefills them, then picks each stream's engine.
pub(crate) fn prepare(
    specs: &[&JobSpec],
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Prepared>, RunError> {
    let mut opened: Vec<Vec<OpenTarget>> = Vec::new();
    let mut regions = Vec::new();
    let discard_all = |opened: Vec<Vec<OpenTarget>>| {
        opened.into_iter().flatten().for_each(discard_created);
    };
    for spec in specs {
        match open_targets(spec, warnings) {
            Ok(t) => opened.push(t),
            Err(e) => {
                discard_all(opened);
                return Err(e);
            }
        }
    }
    for (spec, targets) in specs.iter().zip(&opened) {
        match check_fit(spec, targets) {
            Ok(r) => regions.push(r),
            Err(e) => {
                discard_all(opened);
                return Err(e);
            }
        }
    }
    let mut out = Vec::new();
    for ((spec, targets), region) in specs.iter().zip(opened).zip(regions) {
        let prefilled = prefill_targets(spec, &targets, stop, on_event)?;
        let sampled = crate::sample::check_targets(spec, &targets, warnings);
        let (engine, features) = pick_engine(spec, &targets, warnings);
        let qd = if engine == EngineKind::Psync && spec.qd > 1 {
            warnings.push(warn::psync_qd(spec.qd));
            1
        } else {
            spec.qd
        };
        out.push(Prepared {
            targets,
            region,
            prefilled,
            engine,
            features,
            qd,
            sampled,
        });
    }
    Ok(out)
}

/// The engine a stream runs on: io_uring is probed once here, so an unavailable io_uring
/// becomes one clear fallback to psync.
pub(crate) fn pick_engine(
    spec: &JobSpec,
    targets: &[OpenTarget],
    warnings: &mut Vec<Warning>,
) -> (EngineKind, Vec<String>) {
    if spec.engine != EngineKind::Uring {
        return (spec.engine, Vec::new());
    }
    let fds: Vec<i32> = targets.iter().map(|t| t.file.as_raw_fd()).collect();
    let probe = EngineSetup {
        fds: &fds,
        slots: 1,
        slot_len: 4096,
        hipri: spec.hipri,
        sqpoll: spec.sqpoll,
    };
    match open_engine(EngineKind::Uring, &probe) {
        Ok(AnyEngine::Uring(e)) => (EngineKind::Uring, dbio_engine::Engine::features(&*e)),
        Ok(_) => (EngineKind::Uring, Vec::new()),
        Err(e) => {
            warnings.push(warn::uring_unavailable(&e));
            (EngineKind::Psync, Vec::new())
        }
    }
}

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
    /// What write verification found (`--verify`).
    pub verify: Option<dbio_model::verify::VerifyReport>,
    /// Why verification failed the run (its journal, or a pass that could not read).
    pub verify_failure: Option<String>,
}

/// Puts a verification failure into the result: the run failed, with the message (after an
/// I/O error the run already had, if any). `aborted`: the failure is what stopped the run
/// early (else an early end was the user's stop, and the failure came after it).
pub(crate) fn fail_verify(r: &mut RunResult, failure: Option<String>, aborted: bool) {
    let Some(f) = failure else { return };
    if r.outcome == Outcome::Interrupted {
        let why = if aborted {
            "the run was stopped by a verification failure: the figures cover only the part that ran"
        } else {
            "interrupted (Ctrl-C or SIGTERM), and verification failed after that: the figures cover only the part that ran"
        };
        for w in r.warnings.iter_mut().filter(|w| w.code == "partial") {
            w.message = why.into();
        }
    }
    r.outcome = match std::mem::replace(&mut r.outcome, Outcome::Complete) {
        Outcome::IoError(e) => Outcome::IoError(format!("{e}; {f}")),
        _ => Outcome::IoError(f),
    };
    r.partial = true;
}

/// Second phase: starts every stream's workers on one timeline (the first stream's ramp,
/// settling and stop), gathers their per-second intervals until all have ended, and joins them.
pub(crate) fn measure(
    specs: &[&JobSpec],
    prepared: &[Prepared],
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
    start_at: Option<SystemTime>,
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
    let (_awake, cpu_idle) = hold_cpus(spec, warnings);
    let mut waited = Ok(());
    let Workers {
        handles,
        timeline,
        intervals: rx,
    } = start_workers(&setups, &mut || {
        waited = wait_until(start_at, &stop, on_event, warnings);
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
    on_event(Event::Finishing);
    let reports = match join_workers(handles, prepared) {
        Ok(r) => r,
        Err(e) => {
            abandon(verification);
            return Err(e);
        }
    };
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

/// What the measured window showed besides the workers' totals.
pub(crate) struct Window {
    pub timeseries: Vec<TimePoint>,
    pub cpu: dbio_engine::sys::CpuTimes,
    pub host_busy: f64,
    pub started_at: SystemTime,
    /// Measuring began (the ramp ended) before everything stopped.
    pub took_start: bool,
    /// How the CPUs' idle states were handled while measuring (see [`hold_cpus`]).
    pub cpu_idle: Option<String>,
}

/// Gathers the per-second intervals of `workers` senders until all are gone, telling the
/// caller about each second (settling seconds go to `settler`); measures process and host CPU
/// over the measured window. `poll` runs at least every 50 ms.
pub(crate) fn gather(
    rx: mpsc::Receiver<Interval>,
    workers: u32,
    timeline: &Timeline,
    mut settler: Option<&mut Settler>,
    on_event: &mut dyn FnMut(Event),
    poll: &mut dyn FnMut(),
) -> Window {
    let mut collector = Collector::new(workers);
    let mut cpu0 = process_cpu();
    let mut ticks0 = host_ticks();
    let mut started_at = SystemTime::now();
    let mut took_start = false;
    loop {
        let now = Instant::now();
        if let Some(s) = settler.as_mut() {
            s.poll(now);
        }
        if let Some(from) = timeline.start.get().filter(|m| !took_start && now >= *m) {
            (cpu0, ticks0, took_start) = (process_cpu(), host_ticks(), true);
            started_at = SystemTime::now() - now.saturating_duration_since(from);
        }
        poll();
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(iv) if iv.settling => {
                if let Some(s) = settler.as_mut() {
                    s.add(iv);
                }
            }
            Ok(iv) => {
                if let Some(point) = collector.add(iv) {
                    let before = timeline.start.get().map_or(0.0, |m| {
                        m.saturating_duration_since(timeline.origin).as_secs_f64()
                    });
                    on_event(Event::Tick {
                        point: &point,
                        elapsed: point.t + before,
                    });
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    Window {
        cpu: process_cpu().since(cpu0),
        host_busy: busy_pct(ticks0, host_ticks()),
        timeseries: collector.finish(),
        started_at,
        took_start,
        cpu_idle: None,
    }
}

/// Keeps the CPUs out of idle states while the workers run, when the job asks for it (the
/// default); says in the result what was done, and warns when it could not be done.
pub(crate) fn hold_cpus(
    spec: &JobSpec,
    warnings: &mut Vec<Warning>,
) -> (Option<dbio_engine::sys::CpusAwake>, Option<String>) {
    if spec.cpu_idle == CpuIdle::Allow {
        return (None, Some("allowed (--cpu-idle allow)".into()));
    }
    match dbio_engine::sys::hold_cpus_awake() {
        Ok(h) => (
            Some(h),
            Some("held awake (/dev/cpu_dma_latency 0 µs)".into()),
        ),
        Err(e) => {
            if spec.qd <= 4 && spec.rate.is_none() {
                warnings.push(warn::cpu_idle_allowed(&e));
            }
            (None, Some(format!("allowed: /dev/cpu_dma_latency: {e}")))
        }
    }
}

/// Opens every target with the safety rules applied.
pub(crate) fn open_targets(
    spec: &JobSpec,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<OpenTarget>, RunError> {
    let opts = TargetOptions {
        write: spec.rw.writes(),
        direct: spec.direct,
        dsync: spec.sync == SyncMode::Dsync,
        size: spec.file_size,
        destroy_data: spec.destroy_data,
    };
    let mut out = Vec::new();
    for path in &spec.targets {
        let t = match open_target(path, &opts) {
            Ok(t) => t,
            Err(e) => {
                out.into_iter().for_each(discard_created);
                return Err(RunError::Target(e.to_string()));
            }
        };
        if spec.rw.writes() && (t.kind == TargetKind::Block || !t.owned) {
            warnings.push(warn::destroying(&t));
        }
        out.push(t);
    }
    Ok(out)
}

/// Checks the job against the targets: block sizes and alignment against the logical block
/// size (with O_DIRECT), and the region against the smallest target. Returns the region.
pub(crate) fn check_fit(spec: &JobSpec, targets: &[OpenTarget]) -> Result<(u64, u64), RunError> {
    for t in targets {
        let lbs = dbio_engine::facts::logical_block_size(t);
        if spec.direct {
            if let Some(b) = spec.bs.iter().find(|b| b.size % lbs != 0) {
                return Err(RunError::Invalid(format!(
                    "--bs {}: not a multiple of the logical block size {lbs} of {}; use a multiple of {lbs}, or --buffered",
                    b.size, t.path
                )));
            }
            if !spec.align.is_multiple_of(lbs) || !spec.region.offset.is_multiple_of(lbs) {
                return Err(RunError::Invalid(format!(
                    "--align and --offset must be multiples of the logical block size {lbs} of {}",
                    t.path
                )));
            }
        }
    }
    let smallest = targets.iter().map(|t| t.size).min().unwrap_or(0);
    let start = spec.region.offset;
    if start >= smallest {
        return Err(RunError::Invalid(format!(
            "--offset {}: at or beyond the end of the target ({}); use a smaller --offset or a larger --size",
            units::format_size(start),
            units::format_size(smallest)
        )));
    }
    let end = match spec.region.range {
        Some(r) => start.saturating_add(r),
        None => smallest,
    };
    if end > smallest {
        return Err(RunError::Invalid(format!(
            "--offset {} --range {}: the region ends at {}, beyond the end of the target ({}); lower --offset or --range, or use a larger --size",
            units::format_size(start),
            units::format_size(end - start),
            units::format_size(end),
            units::format_size(smallest)
        )));
    }
    let (start, end) = match spec.region.split {
        Some(s) => s.of(start, end, spec.align),
        None => (start, end),
    };
    if end - start < spec.max_bs() {
        let split = spec.region.split.map_or(String::new(), |s| {
            format!(
                " (this host's part {} of {}, --split-region)",
                s.part, s.parts
            )
        });
        return Err(RunError::Invalid(format!(
            "the region{split} ({}) is smaller than the largest block size ({}); use a larger --size or --range, or a smaller --bs",
            units::format_size(end - start),
            units::format_size(spec.max_bs())
        )));
    }
    // Random I/O picks aligned offsets: one position would make every I/O the same block.
    if spec.rw.is_random() && (end - start - spec.max_bs()) / spec.align == 0 {
        return Err(RunError::Invalid(format!(
            "--align {}: the region ({}) holds only one aligned position for {} blocks, so every random I/O would hit the same offset; use a smaller --align (by default the smallest block size) or a larger --size or --range",
            units::format_size(spec.align),
            units::format_size(end - start),
            units::format_size(spec.max_bs())
        )));
    }
    Ok((start, end))
}

/// Prefills the files that need it; returns what each target's content is.
pub(crate) fn prefill_targets(
    spec: &JobSpec,
    targets: &[OpenTarget],
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<String>, RunError> {
    let mut out = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if !t.needs_prefill {
            out.push(
                if t.owned {
                    "prefilled by dbio earlier"
                } else {
                    "existing content"
                }
                .to_string(),
            );
            continue;
        }
        // New content in every run: two files prefilled by dbio never share a block.
        let mut rng =
            Rng::with_seed(run_nonce() ^ (i as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407));
        let mut fill = crate::datagen::prefill_data(&spec.data, &mut rng);
        let mut progress = |done, total| {
            on_event(Event::Prefill {
                target: &t.path,
                done,
                total,
            })
        };
        let finished = prefill(t, &mut fill, &mut progress, stop)
            .map_err(|e| RunError::Target(format!("prefill failed: {e}")))?;
        if !finished {
            return Err(RunError::Interrupted);
        }
        if let Err(e) = mark_prefilled(t) {
            on_event(Event::Notice(format!(
                "could not record that {} is prefilled: {e}",
                t.path
            )));
        }
        out.push(format!("prefilled by dbio with {} data", spec.data.name()));
    }
    Ok(out)
}

/// The pieces a result is assembled from.
pub(crate) struct Assembly<'a> {
    pub spec: &'a JobSpec,
    /// Which of read, write and flush the result reports.
    pub dirs: [bool; 3],
    pub engine_kind: EngineKind,
    pub features: Vec<String>,
    pub targets: &'a [OpenTarget],
    pub prefilled: Vec<String>,
    /// Existing content sampled before the run.
    pub sampled: Vec<ContentSample>,
    pub reports: Vec<WorkerReport>,
    pub window: Window,
    pub interrupted: bool,
    pub warnings: Vec<Warning>,
    pub steady: Option<SteadyState>,
}

/// Which of read, write and flush a job reports.
pub(crate) fn directions(spec: &JobSpec) -> [bool; 3] {
    [
        spec.rw != Rw::Write && spec.rw != Rw::RandWrite,
        spec.rw.writes(),
        matches!(spec.sync, SyncMode::Fdatasync(_) | SyncMode::Fsync(_)),
    ]
}

/// Read, write and flush totals of `reports` over `secs`, for the directions in `dirs`;
/// histograms are merged exactly.
pub(crate) fn dir_totals(
    reports: &[&WorkerReport],
    dirs: [bool; 3],
    secs: f64,
) -> [Option<DirStats>; 3] {
    fn pick(r: &WorkerReport, i: usize) -> &crate::worker::DirTotals {
        [&r.read, &r.write, &r.flush][i]
    }
    std::array::from_fn(|i| dirs[i].then(|| dir_stats(reports.iter().map(|r| pick(r, i)), secs)))
}

fn dir_stats<'a>(parts: impl Iterator<Item = &'a crate::worker::DirTotals>, secs: f64) -> DirStats {
    let mut hist = histogram::new_histogram();
    let (mut ios, mut bytes) = (0, 0);
    for d in parts {
        ios += d.ios;
        bytes += d.bytes;
        hist.add(&d.hist).expect("histograms of equal bounds merge");
    }
    let per_s = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    DirStats {
        ios,
        bytes,
        iops: per_s(ios),
        mb_s: per_s(bytes) / 1e6,
        mib_s: per_s(bytes) / (1u64 << 20) as f64,
        latency_ns: LatencySummary::of(&hist),
        histogram: LatencyHistogram::from_hdr(&hist),
    }
}

/// Seconds the workers in `reports` measured: the longest of them.
pub(crate) fn wall_secs<'a>(reports: impl IntoIterator<Item = &'a WorkerReport>) -> f64 {
    reports.into_iter().map(|r| r.wall_s).fold(0.0, f64::max)
}

/// Last phase: the result from the reports of every worker.
pub(crate) fn assemble(a: Assembly) -> RunResult {
    let spec = a.spec;
    let secs = wall_secs(&a.reports);
    let error = a
        .reports
        .iter()
        .find_map(|r| r.error.as_ref())
        .map(|e| {
            let hint = if spec.hipri && e.source.kind() == std::io::ErrorKind::Unsupported {
                "; --hipri needs a device with polled queues (e.g. NVMe with poll_queues set): leave it out here"
            } else {
                ""
            };
            format!("{e}{hint}")
        });
    let behind = a.reports.iter().any(|r| r.behind);
    let workers: Vec<WorkerCpu> = a
        .reports
        .iter()
        .map(|r| WorkerCpu {
            user_s: r.cpu.user_s,
            sys_s: r.cpu.sys_s,
            busy_pct: if r.wall_s > 0.0 {
                r.cpu.total() / r.wall_s * 100.0
            } else {
                0.0
            },
            ios: r.read.ios + r.write.ios,
        })
        .collect();
    let all: Vec<&WorkerReport> = a.reports.iter().collect();
    let [read, write, flush] = dir_totals(&all, a.dirs, secs);
    let total_ios: u64 = workers.iter().map(|w| w.ios).sum();
    let cpu = CpuStats {
        process_user_s: a.window.cpu.user_s,
        process_sys_s: a.window.cpu.sys_s,
        host_busy_pct: a.window.host_busy,
        ios_per_cpu_s: if a.window.cpu.total() > 0.0 {
            total_ios as f64 / a.window.cpu.total()
        } else {
            0.0
        },
        workers,
        cpus_allowed: std::thread::available_parallelism().map_or(0, |n| n.get() as u32),
    };
    let outcome = match (error, a.interrupted) {
        (Some(e), _) => Outcome::IoError(e),
        (None, true) => Outcome::Interrupted,
        (None, false) => Outcome::Complete,
    };
    let targets: Vec<TargetFacts> = a.targets.iter().map(target_facts).collect();
    let mut warnings = a.warnings;
    warnings.extend(targets.iter().filter_map(warn::memory_target));
    warnings.extend(warn::after_run(
        spec, &cpu, &outcome, behind, secs, total_ios,
    ));
    RunResult {
        schema: RUN_SCHEMA.to_string(),
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: humantime::format_rfc3339_seconds(a.window.started_at).to_string(),
        measured_secs: secs,
        partial: outcome != Outcome::Complete,
        outcome,
        job: spec.clone(),
        engine: EngineInfo {
            name: format!("{:?}", a.engine_kind).to_lowercase(),
            features: a.features,
            direct: spec.direct,
            cpu_idle: a.window.cpu_idle.clone(),
        },
        data: crate::datagen::data_info(&spec.data, a.prefilled, a.sampled),
        host: host_facts(),
        targets,
        read,
        write,
        flush,
        timeseries: a.window.timeseries,
        cpu,
        warnings,
        session: None,
        steady: a.steady,
        streams: Vec::new(),
        verdict: None,
        started_unix_ns: a
            .window
            .started_at
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
        label: None,
        cluster: None,
        verify: None,
        db: None,
    }
}
