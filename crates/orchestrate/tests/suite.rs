//! The suite driven through a fake executor: a device of 4 channels serving every I/O in
//! 100 µs, so that by hand, with n = qd × threads outstanding I/Os, IOPS = min(n, 4) / 100 µs
//! and every latency is max(1, n / 4) × 100 µs. The parts, their order, the knee feeding
//! the oltp part and the stop at the first failed part are checked against that.

mod common;

use dbio_model::suite::Thresholds;
use dbio_model::*;
use dbio_orchestrate::executor::{Executor, Plan, Work};
use dbio_orchestrate::suite::{conclude, empty_result, Suite, SuiteObserver};
use dbio_orchestrate::sweep::{SweepObserver, SweepPlan};
use dbio_runner::{Event, RunError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A valid job of `profile` on `target`: 8 KiB random I/O (70 % reads), qd 32, 2 s.
fn job(profile: &str, target: &str) -> JobSpec {
    common::job(profile, target, 32)
}

/// Each part's job, on its role's file.
fn jobs(profile: &str, role: &str) -> Result<JobSpec, dbio_spec::SpecError> {
    Ok(job(profile, &format!("{role}.dat")))
}

/// 2 s of `ios` I/Os all at `lat_ns`.
fn dir(ios: u64, bs: u64, lat_ns: u64) -> DirStats {
    let histogram = LatencyHistogram {
        sigfig: 3,
        unit: "ns".into(),
        buckets: vec![[lat_ns, ios]],
    };
    DirStats {
        ios,
        bytes: ios * bs,
        iops: ios as f64 / 2.0,
        mb_s: (ios * bs) as f64 / 2.0 / 1e6,
        mib_s: (ios * bs) as f64 / 2.0 / 1048576.0,
        latency_ns: LatencySummary::of(&histogram.to_hdr()),
        histogram,
    }
}

/// The 4-channel device's result for `j`: reads for a job that reads, writes otherwise.
fn device(j: &JobSpec) -> RunResult {
    let n = (j.qd * j.threads) as u64;
    let ios = 2 * n.min(4) * 10_000;
    let lat_ns = n.max(4) * 100_000 / 4;
    let d = dir(ios, j.bs[0].size, lat_ns);
    let (read, write) = if j.read_pct > 0 {
        (Some(d), None)
    } else {
        (None, Some(d))
    };
    RunResult {
        schema: RUN_SCHEMA.into(),
        dbio_version: "test".into(),
        started_at: "2026-01-01T00:00:00Z".into(),
        measured_secs: 2.0,
        outcome: Outcome::Complete,
        partial: false,
        job: j.clone(),
        engine: EngineInfo {
            name: "fake".into(),
            features: Vec::new(),
            direct: true,
            cpu_idle: None,
        },
        data: DataInfo {
            kind: "random".into(),
            description: String::new(),
            prefill: Vec::new(),
            dedupe_ratio: None,
            compress_ratio: None,
            unit_bytes: None,
            pattern: None,
            sampled: Vec::new(),
        },
        host: HostFacts::default(),
        targets: Vec::new(),
        read,
        write,
        flush: None,
        timeseries: Vec::new(),
        cpu: CpuStats {
            process_user_s: 0.0,
            process_sys_s: 0.0,
            host_busy_pct: 0.0,
            ios_per_cpu_s: 0.0,
            workers: Vec::new(),
            cpus_allowed: 0,
            per_cpu: Vec::new(),
        },
        threads: Vec::new(),
        warnings: Vec::new(),
        session: None,
        steady: None,
        streams: Vec::new(),
        verdict: None,
        started_unix_ns: 0,
        label: None,
        cluster: None,
        verify: None,
        db: None,
        replay: None,
        device_latency: None,
    }
}

/// The fake executor: the device's result for every job, except that the job of
/// `fail_profile` fails with `fail_with`. Keeps every job it was given.
struct Fake {
    ran: Vec<JobSpec>,
    fail_profile: &'static str,
    fail_with: fn() -> RunError,
    /// How many jobs of `fail_profile` run before they fail.
    fail_after: usize,
}

impl Fake {
    fn new(fail_profile: &'static str, fail_with: fn() -> RunError) -> Self {
        Fake {
            ran: Vec::new(),
            fail_profile,
            fail_with,
            fail_after: 0,
        }
    }

    /// What ran, as (profile, target, qd, threads, block size).
    fn ran(&self) -> Vec<(String, String, u32, u32, u64)> {
        self.ran
            .iter()
            .map(|j| {
                let t = j.targets[0].clone();
                (j.profile.clone(), t, j.qd, j.threads, j.bs[0].size)
            })
            .collect()
    }
}

impl Executor for Fake {
    fn run(
        &mut self,
        plan: &Plan,
        _: &Arc<AtomicBool>,
        _: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        let Work::Job(job) = plan.work else {
            panic!("the suite runs one job at a time")
        };
        self.ran.push(job.clone());
        if job.profile == self.fail_profile {
            if self.fail_after == 0 {
                return Err((self.fail_with)());
            }
            self.fail_after -= 1;
        }
        Ok(device(job))
    }
}

/// What the suite said: each part's start with the seconds left, each run part's end.
#[derive(Default)]
struct Heard {
    parts: Vec<(usize, f64)>,
    run_ends: Vec<bool>,
    sweeps: usize,
}

struct Steps;

impl SweepObserver for Steps {
    fn start(&mut self, _: &SweepPlan) {}
    fn step_start(&mut self, _: usize, _: f64) {}
    fn event(&mut self, _: Event) {}
    fn step_end(&mut self, _: usize, _: Option<&RunResult>) {}
    fn step_failed(&mut self, _: usize, _: &str) {}
    fn end(&mut self, _: &dbio_model::sweep::SweepResult) {}
}

impl SuiteObserver for Heard {
    fn part_start(&mut self, i: usize, _: usize, _: &str, left_secs: f64) {
        self.parts.push((i, left_secs));
    }
    fn sweep(&mut self, _: f64) -> Box<dyn SweepObserver + '_> {
        self.sweeps += 1;
        Box::new(Steps)
    }
    fn run_start(&mut self, _: f64) {}
    fn event(&mut self, _: Event) {}
    fn run_end(&mut self, r: Option<&RunResult>) {
        self.run_ends.push(r.is_some());
    }
}

/// Runs a quick suite with a data-read objective of `read_p99_us` through `exec`.
fn quick_suite(
    read_p99_us: f64,
    exec: &mut Fake,
    heard: &mut Heard,
) -> (Result<(), String>, dbio_model::suite::SuiteResult) {
    let thresholds = Thresholds {
        data_read_p99_us: read_p99_us,
        ..Thresholds::default()
    };
    let mut s = empty_result(true, &[], thresholds);
    let stop = Arc::new(AtomicBool::new(false));
    let suite = Suite {
        quick: true,
        jobs: &jobs,
        captured: None,
        stop: &stop,
    };
    let r = suite.run(exec, heard, &mut s).map_err(|e| e.to_string());
    (r, s)
}

fn step(
    profile: &str,
    role: &str,
    qd: u32,
    threads: u32,
    bs: u64,
) -> (String, String, u32, u32, u64) {
    (profile.into(), format!("{role}.dat"), qd, threads, bs)
}

#[test]
fn every_part_runs_in_order_and_oltp_runs_at_the_knee() {
    let mut exec = Fake::new("none", || RunError::Interrupted);
    let mut heard = Heard::default();
    let (r, mut s) = quick_suite(150.0, &mut exec, &mut heard);
    assert_eq!(r, Ok(()));
    // Ramp qd 1, 4, 16, 64: 100, 100, 400, 1600 µs; within 150 µs qd 1 (10,000 IOPS) and
    // qd 4 (40,000): the knee is qd 4, and the oltp part runs there (not at its own 32).
    let knee = s.oltp_read.as_ref().unwrap().knee.as_ref().unwrap();
    assert_eq!((knee.value.as_str(), knee.iops), ("4", 40_000.0));
    assert_eq!(s.oltp_at_knee.as_ref().unwrap().job.qd, 4);
    let k = 1024;
    let want = vec![
        step("oltp-read", "data", 1, 1, 8 * k),
        step("oltp-read", "data", 4, 1, 8 * k),
        step("oltp-read", "data", 16, 1, 8 * k),
        step("oltp-read", "data", 64, 1, 8 * k),
        step("oltp", "data", 4, 1, 8 * k),
        step("log", "log", 32, 1, 8 * k),
        step("log", "log", 32, 2, 8 * k),
        step("log", "log", 32, 4, 8 * k),
        step("log", "log", 32, 8, 8 * k),
        step("tempdb", "tempdb", 32, 1, 8 * k),
        step("dss", "data", 32, 1, 64 * k),
        step("dss", "data", 32, 1, 256 * k),
        step("dss", "data", 32, 1, 1024 * k),
    ];
    assert_eq!(exec.ran(), want);
    // Quick steps are 2 s each; 4 + 1 + 4 + 1 + 3 = 13 steps, so 26 s left at the start,
    // then 18 (9 steps), 16 (8), 8 (4) and 6 (3).
    let left = vec![(0, 26.0), (1, 18.0), (2, 16.0), (3, 8.0), (4, 6.0)];
    assert_eq!(heard.parts, left);
    assert_eq!(
        (heard.sweeps, heard.run_ends.clone()),
        (3, vec![true, true])
    );
    assert_eq!(s.dss.as_ref().unwrap().values, ["64k", "256k", "1m"]);
    conclude(&mut s, false);
    assert!(!s.partial);
    assert!(!s.scorecard.is_empty());
}

#[test]
fn without_a_knee_oltp_runs_at_the_ramps_first_queue_depth() {
    let mut exec = Fake::new("none", || RunError::Interrupted);
    let (r, s) = quick_suite(50.0, &mut exec, &mut Heard::default());
    assert_eq!(r, Ok(()));
    // Nothing is within 50 µs (the least is 100 µs): no knee, and oltp at qd 1.
    assert!(s.oltp_read.as_ref().unwrap().knee.is_none());
    assert_eq!(s.oltp_at_knee.as_ref().unwrap().job.qd, 1);
}

#[test]
fn a_failed_part_ends_the_suite_with_the_parts_before_it() {
    let mut exec = Fake::new("tempdb", || RunError::Target("tempdb.dat: no space".into()));
    let mut heard = Heard::default();
    let (r, mut s) = quick_suite(150.0, &mut exec, &mut heard);
    assert_eq!(r, Err("tempdb.dat: no space".to_string()));
    assert!(s.oltp_read.is_some() && s.oltp_at_knee.is_some() && s.log.is_some());
    assert!(s.tempdb.is_none() && s.dss.is_none());
    // 4 ramp steps, oltp, 4 log steps, the failed tempdb run; no DSS step.
    assert_eq!(exec.ran.len(), 10);
    assert_eq!(
        heard.parts.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    assert_eq!(heard.run_ends, [true, false]);
    conclude(&mut s, true);
    assert!(s.partial);
}

#[test]
fn an_interrupted_sweep_part_ends_the_suite_with_the_steps_it_ran() {
    let mut exec = Fake::new("log", || RunError::Interrupted);
    exec.fail_after = 2;
    let (r, mut s) = quick_suite(150.0, &mut exec, &mut Heard::default());
    assert_eq!(
        r,
        Err("the threads sweep stopped before its last step".to_string())
    );
    let log = s.log.as_ref().expect("the log part's steps are kept");
    assert!(log.partial);
    assert_eq!(log.values, ["1", "2"]);
    assert_eq!(
        log.steps.iter().map(|r| r.job.threads).collect::<Vec<_>>(),
        [1, 2]
    );
    assert!(s.tempdb.is_none() && s.dss.is_none());
    // 4 ramp steps, oltp, and the log sweep's three steps, the last interrupted.
    assert_eq!(exec.ran.len(), 8);
    conclude(&mut s, true);
    assert!(s.partial);
}

#[test]
fn a_sweep_part_interrupted_at_its_first_step_ends_the_suite_without_it() {
    let mut exec = Fake::new("log", || RunError::Interrupted);
    let (r, s) = quick_suite(150.0, &mut exec, &mut Heard::default());
    assert_eq!(
        r,
        Err("the threads sweep stopped before its last step".to_string())
    );
    assert!(s.oltp_read.is_some() && s.oltp_at_knee.is_some());
    assert!(s.log.is_none() && s.tempdb.is_none() && s.dss.is_none());
    // 4 ramp steps, oltp, and the log sweep's first step, interrupted.
    assert_eq!(exec.ran.len(), 6);
}
