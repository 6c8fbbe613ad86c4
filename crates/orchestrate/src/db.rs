//! A database run as one more executor: sweeps, history and reports drive it as any run.
//! The job's `threads` is the number of sessions; the URL (with its password) stays here and
//! never enters the job or the result.

use crate::executor::{Executor, Plan, Work};
use crate::sweep::SweepPlan;
use dbio_db::slob::report::{build, verdict};
use dbio_db::slob::run::{run, Measured, NoResult, Progress, RunOpts};
use dbio_model::*;
use dbio_runner::{Event, RunError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Why a database sweep cannot run as given; Display names the flag and the value.
#[derive(Debug, thiserror::Error)]
pub enum DbSweepError {
    #[error("--vary {0}: a database sweep varies sessions (sessions=1,4,8,16)")]
    NotSessions(String),
    #[error("--vary sessions={0}: use 1 to 4096")]
    Sessions(String),
}

/// Refuses a database sweep that varies anything but sessions.
pub fn varies_sessions(key: &str) -> Result<(), DbSweepError> {
    match key {
        "sessions" => Ok(()),
        k => Err(DbSweepError::NotSessions(k.to_string())),
    }
}

/// The steps of a database sweep over `sessions` (as written), each a job of its own number
/// of sessions, all checked before the first runs.
pub fn sweep_plan(
    o: &RunOpts,
    shown_url: &str,
    sessions: Vec<String>,
) -> Result<SweepPlan, DbSweepError> {
    let mut specs = Vec::new();
    for v in &sessions {
        let mut step = *o;
        step.sessions = match v.parse() {
            Ok(n) if n > 0 && n <= 4096 => n,
            _ => return Err(DbSweepError::Sessions(v.clone())),
        };
        specs.push(job(&step, shown_url));
    }
    Ok(SweepPlan {
        key: "sessions",
        values: sessions,
        specs,
        slo_text: None,
        slo: None,
        search: false,
    })
}

/// Runs database jobs against `url`.
pub struct DbExec {
    pub url: String,
    pub opts: RunOpts,
}

/// The job a database run records: sessions as threads, the reads as random block reads.
pub fn job(o: &RunOpts, shown_url: &str) -> JobSpec {
    JobSpec {
        profile: "db".into(),
        targets: vec![shown_url.to_string()],
        file_size: None,
        rw: if o.update_pct > 0 {
            Rw::RandRw
        } else {
            Rw::RandRead
        },
        read_pct: 100 - o.update_pct.min(100),
        bs: vec![BsWeight {
            size: 8192,
            weight: 1,
        }],
        align: 8192,
        qd: 1,
        threads: o.sessions,
        ramp_secs: o.ramp.as_secs_f64(),
        stop: StopAfter::Seconds(o.duration.as_secs_f64()),
        region: Region {
            offset: 0,
            range: None,
            split: None,
        },
        skew: Skew::Uniform,
        sync: SyncMode::None,
        rate: None,
        engine: EngineKind::Psync,
        direct: false,
        invalidate: false,
        hipri: false,
        sqpoll: false,
        device_latency: false,
        cpu_idle: CpuIdle::Allow,
        data: DataKind::Random,
        destroy_data: false,
        seed: o.seed,
        session: None,
        steady: None,
        burst: None,
        arrivals: Arrivals::Uniform,
        sim: None,
        verify: None,
        replay: None,
    }
}

impl Executor for DbExec {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        let Work::Job(job) = plan.work else {
            return Err(RunError::Invalid(
                "a database run is one job: sessions against one database".into(),
            ));
        };
        let mut o = self.opts;
        o.sessions = job.threads;
        // Held from before the ramp to the end of the window, released on return.
        let _held = match o.lock_bytes {
            0 => None,
            b => Some(
                dbio_engine::memlock::LockedMemory::lock(b)
                    .map_err(|e| RunError::Target(format!("--lock-memory: {e}")))?,
            ),
        };
        let mut on = |p: Progress| match p {
            Progress::Measuring(s) => on_event(Event::Measuring {
                planned_secs: Some(s),
            }),
            Progress::Second(point) => on_event(Event::Tick {
                point,
                elapsed: point.t,
            }),
        };
        let m = run(&self.url, &o, stop, &mut on).map_err(|e| match e {
            NoResult::Interrupted => RunError::Interrupted,
            NoResult::Failed(m) => RunError::Target(m),
        })?;
        Ok(result(job, &m, &self.url))
    }
}

/// Totals and latency of one direction: the database's count, the client's latency.
fn dir(ios: u64, bytes: u64, secs: f64, h: &hdrhistogram::Histogram<u64>) -> DirStats {
    let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
    DirStats {
        ios,
        bytes,
        iops: per_s(ios as f64),
        mb_s: per_s(bytes as f64) / 1e6,
        mib_s: per_s(bytes as f64) / 1048576.0,
        latency_ns: LatencySummary::of(h),
        histogram: LatencyHistogram::from_hdr(h),
    }
}

/// The run result of a measured database run.
pub fn result(job: &JobSpec, m: &Measured, url: &str) -> RunResult {
    let db = build(m, url);
    let (limit, message) = verdict(m, &db);
    let mut job = job.clone();
    job.bs[0].size = db.block_size;
    job.align = db.block_size;
    let c = &db.database;
    let read = dir(
        c.physical_reads,
        c.physical_reads * db.block_size,
        m.secs,
        &m.read,
    );
    let write = (db.client.updates > 0).then(|| dir(c.log_writes, c.log_bytes, m.secs, &m.commit));
    let outcome = match (&m.error, m.interrupted) {
        (Some(e), _) => Outcome::IoError(e.clone()),
        (None, true) => Outcome::Interrupted,
        _ => Outcome::Complete,
    };
    let (busy, total) = (
        m.after.host.0.saturating_sub(m.before.host.0),
        m.after.host.1.saturating_sub(m.before.host.1),
    );
    let since = m
        .started_at
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
    RunResult {
        schema: RUN_SCHEMA.into(),
        dbio_version: env!("CARGO_PKG_VERSION").into(),
        started_at: humantime::format_rfc3339_seconds(m.started_at).to_string(),
        measured_secs: m.secs,
        partial: outcome != Outcome::Complete,
        outcome,
        job,
        engine: EngineInfo {
            name: db.spec.system.clone(),
            features: vec![db.io_method.clone()],
            direct: db.io_method.to_ascii_uppercase().contains("O_DIRECT"),
            cpu_idle: None,
        },
        data: DataInfo {
            kind: "random".into(),
            description: "dbio's rows: a key, a counter and random text, one row per block".into(),
            prefill: vec!["loaded by dbio db setup".into()],
            dedupe_ratio: None,
            compress_ratio: None,
            unit_bytes: None,
            pattern: None,
            sampled: Vec::new(),
        },
        host: dbio_engine::facts::host_facts(),
        targets: vec![TargetFacts {
            path: db.spec.url.clone(),
            kind: "database".into(),
            size_bytes: db.data_set_bytes,
            device: db.device.as_ref().map(|d| d.name.clone()),
            ..TargetFacts::default()
        }],
        read: Some(read),
        write,
        flush: None,
        timeseries: m.timeseries.clone(),
        cpu: CpuStats {
            process_user_s: db.dbio_cpu_s,
            process_sys_s: 0.0,
            host_busy_pct: if total > 0 {
                busy as f64 * 100.0 / total as f64
            } else {
                0.0
            },
            ios_per_cpu_s: if db.dbio_cpu_s > 0.0 {
                c.physical_reads as f64 / db.dbio_cpu_s
            } else {
                0.0
            },
            workers: Vec::new(),
            cpus_allowed: cpus,
            per_cpu: Vec::new(),
        },
        threads: Vec::new(),
        warnings: Vec::new(),
        session: None,
        steady: None,
        streams: Vec::new(),
        verdict: Some(Verdict { limit, message }),
        started_unix_ns: since.as_nanos() as u64,
        label: None,
        cluster: None,
        verify: None,
        db: Some(db),
        replay: None,
        device_latency: None,
    }
}
