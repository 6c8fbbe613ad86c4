//! A whole run: open and check the targets, prefill, start the workers on one timeline,
//! gather their per-second intervals, and assemble the result.

use crate::collect::Collector;
use crate::data::{fill_random, run_nonce};
use crate::hostcpu::{busy_pct, host_ticks};
use crate::spawn::{start_workers, Setup, Workers};
use crate::warn;
use crate::worker::WorkerReport;
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
    if spec.engine == EngineKind::Sim {
        return Ok(crate::sim::run(spec, &stop));
    }
    let mut warnings = Vec::new();
    let targets = open_targets(spec, &mut warnings)?;
    let region = match check_fit(spec, &targets) {
        Ok(r) => r,
        Err(e) => {
            // A refused run leaves nothing behind: files it just created go again.
            targets.into_iter().for_each(discard_created);
            return Err(e);
        }
    };
    let prefilled = prefill_targets(spec, &targets, &stop, on_event)?;

    let mut engine_kind = spec.engine;
    let mut features = Vec::new();
    let fds: Vec<i32> = targets.iter().map(|t| t.file.as_raw_fd()).collect();
    if engine_kind == EngineKind::Uring {
        // Probe once here, so an unavailable io_uring becomes one clear fallback.
        let probe = EngineSetup {
            fds: &fds,
            slots: 1,
            slot_len: 4096,
            hipri: spec.hipri,
            sqpoll: spec.sqpoll,
        };
        match open_engine(EngineKind::Uring, &probe) {
            Ok(AnyEngine::Uring(e)) => features = dbio_engine::Engine::features(&*e),
            Ok(_) => {}
            Err(e) => {
                engine_kind = EngineKind::Psync;
                warnings.push(warn::uring_unavailable(&e));
            }
        }
    }
    let qd = if engine_kind == EngineKind::Psync && spec.qd > 1 {
        warnings.push(warn::psync_qd(spec.qd));
        1
    } else {
        spec.qd
    };

    let Workers {
        handles,
        timeline,
        intervals: rx,
    } = start_workers(Setup {
        spec,
        engine: engine_kind,
        qd,
        fds: &fds,
        region,
        stop: stop.clone(),
    });
    let measure_from = timeline.measure_from;

    on_event(Event::Measuring {
        planned_secs: match spec.stop {
            StopAfter::Seconds(s) => Some(s + spec.ramp_secs),
            _ => None,
        },
    });
    let mut collector = Collector::new(spec.threads);
    let mut cpu0 = process_cpu();
    let mut ticks0 = host_ticks();
    let started_at = SystemTime::now() + measure_from.saturating_duration_since(Instant::now());
    let mut took_start = false;
    loop {
        if !took_start && Instant::now() >= measure_from {
            (cpu0, ticks0, took_start) = (process_cpu(), host_ticks(), true);
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(iv) => {
                if let Some(point) = collector.add(iv) {
                    on_event(Event::Tick {
                        point: &point,
                        elapsed: point.t + spec.ramp_secs,
                    });
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let cpu = process_cpu().since(cpu0);
    let host_busy = busy_pct(ticks0, host_ticks());
    let mut reports = Vec::new();
    let mut setup_error = None;
    for h in handles {
        match h.join() {
            Ok(Ok(r)) => reports.push(r),
            Ok(Err(e)) => setup_error = Some(e),
            Err(_) => setup_error = Some(std::io::Error::other("a worker thread panicked")),
        }
    }
    if let Some(e) = setup_error {
        return Err(RunError::Target(
            format!("cannot set up the {engine_kind:?} engine: {e}").to_lowercase(),
        ));
    }
    let timeseries = collector.finish();
    let interrupted = stop.load(Ordering::Relaxed);
    if interrupted && !took_start {
        return Err(RunError::Interrupted);
    }
    Ok(assemble(Assembly {
        spec,
        engine_kind,
        features,
        targets: &targets,
        prefilled,
        reports,
        timeseries,
        cpu,
        host_busy,
        interrupted,
        started_at,
        warnings,
    }))
}

/// Opens every target with the safety rules applied.
fn open_targets(spec: &JobSpec, warnings: &mut Vec<Warning>) -> Result<Vec<OpenTarget>, RunError> {
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
fn check_fit(spec: &JobSpec, targets: &[OpenTarget]) -> Result<(u64, u64), RunError> {
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
    if end - start < spec.max_bs() {
        return Err(RunError::Invalid(format!(
            "the region ({}) is smaller than the largest block size ({}); use a larger --size or --range, or a smaller --bs",
            units::format_size(end - start),
            units::format_size(spec.max_bs())
        )));
    }
    Ok((start, end))
}

/// Prefills the files that need it; returns what each target's content is.
fn prefill_targets(
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
        let zeros = spec.data == DataKind::Zeros;
        let mut fill = |buf: &mut [u8], _off: u64| {
            if zeros {
                buf.fill(0)
            } else {
                fill_random(buf, &mut rng)
            }
        };
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
        out.push(format!(
            "prefilled by dbio with {} data",
            if zeros { "zero" } else { "random" }
        ));
    }
    Ok(out)
}

/// The pieces a result is assembled from.
pub(crate) struct Assembly<'a> {
    pub(crate) spec: &'a JobSpec,
    pub(crate) engine_kind: EngineKind,
    pub(crate) features: Vec<String>,
    pub(crate) targets: &'a [OpenTarget],
    pub(crate) prefilled: Vec<String>,
    pub(crate) reports: Vec<WorkerReport>,
    pub(crate) timeseries: Vec<TimePoint>,
    pub(crate) cpu: dbio_engine::sys::CpuTimes,
    pub(crate) host_busy: f64,
    pub(crate) interrupted: bool,
    pub(crate) started_at: SystemTime,
    pub(crate) warnings: Vec<Warning>,
}

fn dir_stats(
    parts: impl Iterator<Item = (u64, u64, hdrhistogram::Histogram<u64>)>,
    secs: f64,
) -> DirStats {
    let mut hist = histogram::new_histogram();
    let (mut ios, mut bytes) = (0, 0);
    for (i, b, h) in parts {
        ios += i;
        bytes += b;
        hist.add(h).expect("histograms of equal bounds merge");
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

pub(crate) fn assemble(a: Assembly) -> RunResult {
    let spec = a.spec;
    let secs = a.reports.iter().map(|r| r.wall_s).fold(0.0, f64::max);
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
    let mut reports = a.reports;
    let reads = spec.rw != Rw::Write && spec.rw != Rw::RandWrite;
    let writes = spec.rw.writes();
    let read = reads.then(|| dir_stats(reports.iter_mut().map(|r| take(&mut r.read)), secs));
    let write = writes.then(|| dir_stats(reports.iter_mut().map(|r| take(&mut r.write)), secs));
    let flush = matches!(spec.sync, SyncMode::Fdatasync(_) | SyncMode::Fsync(_))
        .then(|| dir_stats(reports.iter_mut().map(|r| take(&mut r.flush)), secs));
    let total_ios: u64 = workers.iter().map(|w| w.ios).sum();
    let cpu = CpuStats {
        process_user_s: a.cpu.user_s,
        process_sys_s: a.cpu.sys_s,
        host_busy_pct: a.host_busy,
        ios_per_cpu_s: if a.cpu.total() > 0.0 {
            total_ios as f64 / a.cpu.total()
        } else {
            0.0
        },
        workers,
    };
    let outcome = match (error, a.interrupted) {
        (Some(e), _) => Outcome::IoError(e),
        (None, true) => Outcome::Interrupted,
        (None, false) => Outcome::Complete,
    };
    let mut warnings = a.warnings;
    warnings.extend(warn::after_run(
        spec, &cpu, &outcome, behind, secs, total_ios,
    ));
    RunResult {
        schema: RUN_SCHEMA.to_string(),
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: humantime::format_rfc3339_seconds(a.started_at).to_string(),
        measured_secs: secs,
        partial: outcome != Outcome::Complete,
        outcome,
        job: spec.clone(),
        engine: EngineInfo {
            name: format!("{:?}", a.engine_kind).to_lowercase(),
            features: a.features,
            direct: spec.direct,
        },
        data: DataInfo {
            kind: format!("{:?}", spec.data).to_lowercase(),
            description: match spec.data {
                DataKind::Random => {
                    "incompressible pseudo-random bytes; every 4 KiB block written is unique".into()
                }
                DataKind::Zeros => {
                    "zero bytes: a reducing array dedupes and compresses them away".into()
                }
            },
            prefill: a.prefilled,
        },
        host: host_facts(),
        targets: a.targets.iter().map(target_facts).collect(),
        read,
        write,
        flush,
        timeseries: a.timeseries,
        cpu,
        warnings,
    }
}

fn take(d: &mut crate::worker::DirTotals) -> (u64, u64, hdrhistogram::Histogram<u64>) {
    (
        d.ios,
        d.bytes,
        std::mem::replace(&mut d.hist, histogram::new_histogram()),
    )
}
