//! The last phase of a run: the result, assembled from the reports of every worker and the
//! measured window.

use crate::warn;
use crate::window::Window;
use crate::worker::WorkerReport;
use dbio_engine::device::OpenTarget;
use dbio_engine::facts::{host_facts, target_facts};
use dbio_model::*;
use std::time::SystemTime;

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

/// One worker's reads and writes, each with the mean and spread of its histogram, and the
/// histogram itself when `keep` (a run of several threads: fio's entry per clone) and
/// the direction has I/O.
fn thread_stats(r: &WorkerReport, keep: bool) -> ThreadStats {
    let dir = |d: &crate::worker::DirTotals| {
        let moment = |f: fn(&hdrhistogram::Histogram<u64>) -> f64| {
            if d.hist.is_empty() {
                0.0
            } else {
                f(&d.hist)
            }
        };
        ThreadDir {
            ios: d.ios,
            bytes: d.bytes,
            mean_ns: moment(|h| h.mean()),
            stdev_ns: moment(|h| h.stdev()),
            histogram: (keep && d.ios > 0).then(|| histogram::encode_compact(&d.hist)),
        }
    };
    ThreadStats {
        read: dir(&r.read),
        write: dir(&r.write),
        flush: dir(&r.flush),
        targets: r
            .per_target
            .iter()
            .map(|[read, write]| ThreadTarget {
                read: read.dir(),
                write: write.dir(),
            })
            .collect(),
    }
}

/// Each worker's figures, with its histograms when there are several workers.
fn each_thread(reports: &[WorkerReport]) -> Vec<ThreadStats> {
    let several = reports.len() > 1;
    reports.iter().map(|r| thread_stats(r, several)).collect()
}

/// Seconds the workers in `reports` measured: the longest of them.
pub(crate) fn wall_secs<'a>(reports: impl IntoIterator<Item = &'a WorkerReport>) -> f64 {
    reports.into_iter().map(|r| r.wall_s).fold(0.0, f64::max)
}

/// The CPU of the run: each worker's, the process's and the host's over the window.
fn cpu_stats(reports: &[WorkerReport], window: &Window) -> CpuStats {
    let workers: Vec<WorkerCpu> = reports
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
    let total_ios: u64 = workers.iter().map(|w| w.ios).sum();
    CpuStats {
        process_user_s: window.cpu.user_s,
        process_sys_s: window.cpu.sys_s,
        host_busy_pct: window.host_busy,
        ios_per_cpu_s: if window.cpu.total() > 0.0 {
            total_ios as f64 / window.cpu.total()
        } else {
            0.0
        },
        workers,
        cpus_allowed: std::thread::available_parallelism().map_or(0, |n| n.get() as u32),
        per_cpu: window.per_cpu.clone(),
    }
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
    let threads = each_thread(&a.reports);
    let all: Vec<&WorkerReport> = a.reports.iter().collect();
    let [read, write, flush] = dir_totals(&all, a.dirs, secs);
    let cpu = cpu_stats(&a.reports, &a.window);
    let total_ios: u64 = cpu.workers.iter().map(|w| w.ios).sum();
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
    let replay = spec.replay.as_ref().map(|r| {
        let stats: Vec<_> = a.reports.iter().filter_map(|w| w.replay.as_ref()).collect();
        let (report, notes) = crate::fidelity::fidelity(r, &stats, &a.window.timeseries);
        warnings.extend(notes);
        report
    });
    warnings.extend(warn::wake_bound(
        a.window.wake,
        [read.as_ref(), write.as_ref()],
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
        threads,
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
        replay,
        device_latency: None,
    }
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
