//! Session mode, the SLOB method on files and devices: N synchronous sessions read work units
//! of scattered pages; some operations modify their pages, which a data writer writes back in
//! batches, and commit redo through a log writer with group commit. The result carries an
//! AWR-like report of wait events.

mod batch;
mod foreground;
mod meter;
mod redo;
mod report;
mod scatter;
mod writers;

use crate::assemble::{assemble, directions, Assembly};
use crate::data::run_nonce;
use crate::datagen::WriteData;
use crate::error::RunError;
use crate::event::Event;
use crate::pattern::PageSpread;
use crate::prepare::{check_fit, drop_caches, open_targets, pick_engine, prefill_targets};
use crate::timeline::{MeasureStart, Timeline};
use crate::warn;
use crate::window::{gather, hold_cpus, wake_cost, Window};
use crate::worker::{prepare_buffers, Interval, WorkerReport};
use dbio_engine::device::{discard_created, open_target, OpenTarget, TargetKind, TargetOptions};
use dbio_engine::AnyEngine;
use dbio_engine::{open_engine, EngineSetup};
use dbio_model::session::SessionSpec;
use dbio_model::*;
use foreground::{run_session, SessionPlan};
use meter::Meter;
use redo::Redo;
use scatter::Scatter;
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Barrier, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use writers::{data_writer, log_writer, LogFile};

/// Size of a redo file dbio creates; the log writer wraps around in it.
const LOG_SIZE: u64 = 256 << 20;
/// The largest single log write (a group of commits bigger than this takes several).
const MAX_LOG_WRITE: u64 = 1 << 20;
/// Dirty pages waiting for the data writer before sessions must wait for it
/// (free buffer waits).
const DIRTY_LIST: usize = 16_384;

/// Where pages live: logical page → scattered physical page → target and offset.
pub struct Layout {
    /// Target names, for error messages.
    pub names: Vec<String>,
    pub page: u64,
    start: u64,
    pages_per_target: u64,
    scatter: Scatter,
}

impl Layout {
    fn new(names: Vec<String>, page: u64, region: (u64, u64), seed: u64) -> Self {
        let pages_per_target = (region.1 - region.0) / page;
        let total = pages_per_target * names.len() as u64;
        Layout {
            scatter: Scatter::new(total, seed),
            names,
            page,
            start: region.0,
            pages_per_target,
        }
    }

    /// Pages in the region over all targets.
    pub fn pages(&self) -> u64 {
        self.pages_per_target * self.names.len() as u64
    }

    /// Target and offset of logical page `logical`.
    #[inline]
    pub fn place(&self, logical: u64) -> (u32, u64) {
        let g = self.scatter.physical(logical);
        let t = self.names.len() as u64;
        ((g % t) as u32, self.start + (g / t) * self.page)
    }
}

/// When the threads measure, the same for all.
#[derive(Clone, Copy)]
struct Clock {
    measure_from: Instant,
    until: Option<Instant>,
}

/// What one thread of the run gives back.
type Finished = std::io::Result<(WorkerReport, Meter)>;

/// Starts a thread that builds its engine (a ring belongs to its thread), waits until every
/// thread is ready and the clock is set, then runs `body`.
fn start_thread<F>(
    name: String,
    kind: EngineKind,
    fds: Vec<i32>,
    slots: u32,
    slot_len: usize,
    sync: (Arc<Barrier>, Arc<OnceLock<Clock>>),
    body: F,
) -> JoinHandle<Finished>
where
    F: FnOnce(AnyEngine, Clock) -> (WorkerReport, Meter) + Send + 'static,
{
    std::thread::Builder::new()
        .name(name)
        .spawn(move || {
            let setup = EngineSetup {
                fds: &fds,
                slots,
                slot_len,
                hipri: false,
                sqpoll: false,
            };
            let engine = open_engine(kind, &setup);
            let (ready, clock) = sync;
            ready.wait(); // this thread is ready
            ready.wait(); // the clock is set
            let clock = *clock
                .get()
                .expect("the clock is set before the second barrier");
            Ok(body(engine?, clock))
        })
        .expect("spawning a session thread")
}

/// Runs the monomorphised `$body` with whichever engine `$engine` holds.
macro_rules! with_engine {
    ($engine:expr, |$e:ident| $body:expr) => {
        match $engine {
            AnyEngine::Uring(b) => {
                let $e = *b;
                $body
            }
            AnyEngine::Sync(s) => {
                let $e = s;
                $body
            }
        }
    };
}

/// Runs a session-mode job (`spec.session` is set) to its end and returns the result.
pub fn run_sessions(
    spec: &JobSpec,
    stop: Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
) -> Result<RunResult, RunError> {
    let ss: SessionSpec = spec.session.clone().expect("a session job");
    let mut warnings = Vec::new();
    let prepared = prepare_sessions(spec, &ss, &stop, on_event, &mut warnings)?;
    let threads = ss.sessions as usize + 2;
    let ready = Arc::new(Barrier::new(threads + 1));
    let clock: Arc<OnceLock<Clock>> = Arc::new(OnceLock::new());
    let (tx, rx) = mpsc::channel();
    let redo = Arc::new(Redo::default());
    let started = start_threads(
        spec,
        &ss,
        &prepared,
        &stop,
        &|| (ready.clone(), clock.clone()),
        tx,
        &redo,
    );
    // As in any run, the CPUs are held awake while the sessions measure: their single-block
    // reads and the log writer's commits are low-depth I/O, where a CPU's wake-up would count.
    let (awake, cpu_idle) = hold_cpus(spec, &mut warnings);
    let timeline = start_clock(spec, &ready, &clock);
    on_event(Event::Measuring {
        planned_secs: match spec.stop {
            StopAfter::Seconds(s) => Some(s + spec.ramp_secs),
            _ => None,
        },
    });
    // When every session has gone, nothing more will commit: the log writer may end.
    let mut poll = || {
        if started.sessions.iter().all(|h| h.is_finished()) {
            redo.close();
        }
    };
    let mut window = gather(rx, threads as u32, &timeline, None, on_event, &mut poll);
    window.cpu_idle = cpu_idle;
    redo.close();
    let parts = join_threads(started, prepared.kind)?;
    window.wake = wake_cost(awake);
    let interrupted = stop.load(Ordering::Relaxed);
    if interrupted && !window.took_start {
        return Err(RunError::Interrupted);
    }
    Ok(assemble_sessions(
        spec,
        &ss,
        prepared,
        parts,
        window,
        interrupted,
        warnings,
    ))
}

/// The targets of a session run, open, checked and prefilled, with its redo log and the
/// engine its threads use.
struct SessionTargets {
    targets: Vec<OpenTarget>,
    log: OpenTarget,
    log_file: LogFile,
    layout: Arc<Layout>,
    prefilled: Vec<String>,
    sampled: Vec<ContentSample>,
    kind: EngineKind,
    features: Vec<String>,
}

/// Opens and checks the data targets and the redo log, prefills the data targets, and picks
/// the engine (a refusal leaves no file it created behind).
fn prepare_sessions(
    spec: &JobSpec,
    ss: &SessionSpec,
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
) -> Result<SessionTargets, RunError> {
    let (targets, region, log) = open_session_targets(spec, ss, warnings)?;
    let prefilled = match prefill_targets(spec, &targets, &[], stop, on_event) {
        Ok(p) => p,
        Err(e) => {
            // The redo file is not prefilled: one created just now goes again.
            discard_created(log);
            return Err(e);
        }
    };
    let sampled = crate::sample::check_targets(spec, &targets, warnings);
    drop_caches(spec, &targets)?;
    let (kind, features) = pick_engine(spec, &targets, warnings);
    let layout = Arc::new(Layout::new(
        spec.targets.clone(),
        ss.page,
        region,
        spec.seed,
    ));
    let log_file = LogFile {
        name: log.path.clone(),
        size: log.size / 4096 * 4096,
        block: dbio_engine::facts::logical_block_size(&log).max(512),
    };
    if log_file.size < MAX_LOG_WRITE {
        return Err(RunError::Invalid(format!(
            "redo log {}: {} is too small; it needs at least 1 MiB",
            log.path,
            units::format_size(log.size)
        )));
    }
    Ok(SessionTargets {
        targets,
        log,
        log_file,
        layout,
        prefilled,
        sampled,
        kind,
        features,
    })
}

/// The data targets, their region, and the redo log, open.
type Opened = (Vec<OpenTarget>, (u64, u64), OpenTarget);

/// Opens the data targets (checked against the job: returns the region) and the redo log.
fn open_session_targets(
    spec: &JobSpec,
    ss: &SessionSpec,
    warnings: &mut Vec<Warning>,
) -> Result<Opened, RunError> {
    let targets = open_targets(spec, warnings)?;
    let region = match check_fit(spec, &targets) {
        Ok(r) => r,
        Err(e) => {
            targets.into_iter().for_each(discard_created);
            return Err(e);
        }
    };
    // A redo file dbio creates gets LOG_SIZE; a device (or an existing file) keeps its size.
    let existing = std::path::Path::new(&ss.log_target).exists();
    let log_opts = TargetOptions {
        write: true,
        direct: spec.direct,
        dsync: true,
        size: (!existing).then_some(LOG_SIZE),
        destroy_data: spec.destroy_data,
    };
    let log = match open_target(&ss.log_target, &log_opts) {
        Ok(l) => l,
        Err(e) => {
            targets.into_iter().for_each(discard_created);
            return Err(RunError::Target(format!("redo log: {e}")));
        }
    };
    if log.kind == TargetKind::Block || !log.owned {
        warnings.push(warn::destroying(&log));
    }
    Ok((targets, region, log))
}

/// The threads of a session run: the sessions, the data writer and the log writer.
struct Threads {
    sessions: Vec<JoinHandle<Finished>>,
    writer: JoinHandle<Finished>,
    lgwr: JoinHandle<Finished>,
}

/// What one thread needs to wait for the others and the clock.
type ThreadSync = (Arc<Barrier>, Arc<OnceLock<Clock>>);

/// Starts every thread of the run; each waits for the clock (see [`start_clock`]).
fn start_threads(
    spec: &JobSpec,
    ss: &SessionSpec,
    p: &SessionTargets,
    stop: &Arc<AtomicBool>,
    sync: &dyn Fn() -> ThreadSync,
    tx: mpsc::Sender<Interval>,
    redo: &Arc<Redo>,
) -> Threads {
    let fds: Vec<i32> = p.targets.iter().map(|t| t.file.as_raw_fd()).collect();
    let (dirty_tx, dirty_rx) = mpsc::sync_channel(DIRTY_LIST);
    let data_seed = run_nonce();
    let page = ss.page as usize;
    let kind = p.kind;
    let mut sessions = Vec::new();
    for id in 0..ss.sessions {
        let plan = SessionPlan {
            id,
            spec: ss.clone(),
            layout: p.layout.clone(),
            spread: PageSpread::new(spec.skew, p.layout.pages(), spec.seed, id),
            seed: spec.seed,
            until: None,
            quota: match spec.stop {
                StopAfter::Ops(n) => {
                    Some(n / ss.sessions as u64 + u64::from((id as u64) < n % ss.sessions as u64))
                }
                _ => None,
            },
            stop: stop.clone(),
            dirty: dirty_tx.clone(),
            redo: redo.clone(),
        };
        let tx = tx.clone();
        let slots = if ss.batch_reads { ss.work_unit } else { 1 };
        sessions.push(start_thread(
            format!("dbio-session-{id}"),
            kind,
            fds.clone(),
            slots,
            page,
            sync(),
            move |engine, clock| {
                let mut meter = Meter::new(id, clock.measure_from, tx);
                let plan = SessionPlan {
                    until: clock.until,
                    ..plan
                };
                with_engine!(engine, |e| run_session(e, plan, &mut meter));
                meter.finish()
            },
        ));
    }
    drop(dirty_tx);
    let writer = {
        let (tx, layout, batch) = (tx.clone(), p.layout.clone(), ss.write_batch);
        let (data, id) = (spec.data.clone(), ss.sessions);
        start_thread(
            "dbio-dbwr".into(),
            kind,
            fds.clone(),
            batch,
            page,
            sync(),
            move |engine, clock| {
                let mut meter = Meter::new(id, clock.measure_from, tx);
                let mut data = WriteData::new(&data, data_seed, id);
                with_engine!(engine, |e| {
                    let mut e = e;
                    prepare_buffers(&mut e, batch, &mut data);
                    data_writer(e, dirty_rx, layout, batch, data, &mut meter)
                });
                meter.finish()
            },
        )
    };
    let lgwr = start_log_writer(spec, ss, p, sync(), tx, redo, data_seed);
    Threads {
        sessions,
        writer,
        lgwr,
    }
}

/// Starts the log writer on the redo log.
fn start_log_writer(
    spec: &JobSpec,
    ss: &SessionSpec,
    p: &SessionTargets,
    sync: ThreadSync,
    tx: mpsc::Sender<Interval>,
    redo: &Arc<Redo>,
    data_seed: u64,
) -> JoinHandle<Finished> {
    let (redo, id) = (redo.clone(), ss.sessions + 1);
    let data = crate::datagen::log_data(&spec.data);
    let log_file = p.log_file.clone();
    start_thread(
        "dbio-lgwr".into(),
        p.kind,
        vec![p.log.file.as_raw_fd()],
        1,
        MAX_LOG_WRITE as usize,
        sync,
        move |engine, clock| {
            let mut meter = Meter::new(id, clock.measure_from, tx);
            let mut data = WriteData::new(&data, data_seed, id);
            with_engine!(engine, |e| {
                let mut e = e;
                prepare_buffers(&mut e, 1, &mut data);
                log_writer(e, &redo, log_file, MAX_LOG_WRITE, data, &mut meter)
            });
            meter.finish()
        },
    )
}

/// Starts the clock once every thread is ready: the ramp, then the measured time.
fn start_clock(spec: &JobSpec, ready: &Barrier, clock: &OnceLock<Clock>) -> Timeline {
    ready.wait();
    let origin = Instant::now();
    let measure_from = origin + Duration::from_secs_f64(spec.ramp_secs);
    let until = match spec.stop {
        StopAfter::Seconds(s) => Some(measure_from + Duration::from_secs_f64(s)),
        _ => None,
    };
    let _ = clock.set(Clock {
        measure_from,
        until,
    });
    ready.wait();
    Timeline {
        origin,
        start: MeasureStart::new(origin, Some(measure_from)),
        settle_from: None,
    }
}

/// What the threads gave back: each session's, the data writer's and the log writer's.
type Parts = (
    Vec<(WorkerReport, Meter)>,
    (WorkerReport, Meter),
    (WorkerReport, Meter),
);

/// Joins every thread: their reports, or the error of one that could not set up its engine.
fn join_threads(t: Threads, kind: EngineKind) -> Result<Parts, RunError> {
    let mut setup_error = None;
    let mut join = |h: JoinHandle<Finished>| match h.join() {
        Ok(Ok(r)) => Some(r),
        Ok(Err(e)) => {
            setup_error = Some(e);
            None
        }
        Err(_) => {
            setup_error = Some(std::io::Error::other("a session thread panicked"));
            None
        }
    };
    let session_parts: Vec<(WorkerReport, Meter)> =
        t.sessions.into_iter().filter_map(&mut join).collect();
    let writer = join(t.writer);
    let lgwr = join(t.lgwr);
    let (Some(writer), Some(lgwr), None) = (writer, lgwr, setup_error.take()) else {
        return Err(RunError::Target(
            format!(
                "cannot set up the {kind:?} engine for the sessions: {}",
                setup_error.map_or("a thread failed".into(), |e| e.to_string())
            )
            .to_lowercase(),
        ));
    };
    Ok((session_parts, writer, lgwr))
}

/// The result of a session run, with its AWR-like report.
fn assemble_sessions(
    spec: &JobSpec,
    ss: &SessionSpec,
    p: SessionTargets,
    (session_parts, writer, lgwr): Parts,
    window: Window,
    interrupted: bool,
    warnings: Vec<Warning>,
) -> RunResult {
    let (mut reports, mut meters): (Vec<WorkerReport>, Vec<Meter>) =
        session_parts.into_iter().unzip();
    let (writer_report, writer_meter) = writer;
    let (lgwr_report, lgwr_meter) = lgwr;
    let session_reports: Vec<(f64, f64)> =
        reports.iter().map(|r| (r.wall_s, r.cpu.total())).collect();
    reports.push(writer_report);
    reports.push(lgwr_report);
    let redo_note = if ss.log_target == format!("{}.redo", spec.targets[0]) {
        format!("{}, beside the data target", ss.log_target)
    } else {
        ss.log_target.clone()
    };
    let (mut prefilled, mut targets) = (p.prefilled, p.targets);
    prefilled.push("redo log: written by the log writer only".into());
    targets.push(p.log);
    let mut result = assemble(Assembly {
        spec,
        dirs: directions(spec),
        engine_kind: p.kind,
        features: p.features,
        targets: &targets,
        prefilled,
        sampled: p.sampled,
        reports,
        window,
        interrupted,
        warnings,
        steady: None,
    });
    meters.push(writer_meter);
    meters.push(lgwr_meter);
    result.session = Some(report::build(
        ss,
        &result,
        &meters,
        &session_reports,
        redo_note,
    ));
    result
}
