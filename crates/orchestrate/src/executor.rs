//! Where a run's plan runs: on this host (the runner: its own targets, the simulated device,
//! session mode), or on a fleet of hosts at once and merged, or against a database. Runs,
//! sweeps and suites drive their steps through one of these, so a fleet sweep is a local
//! sweep with another executor.

use crate::fleet::{self, FleetPlan};
use dbio_model::cluster::ClockOffset;
use dbio_model::{EngineKind, JobSpec, RunResult, StreamSpec, TimePoint};
use dbio_runner::{Event, RunError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::SystemTime;

/// What a run does: one validated job, or several streams on one timeline.
#[derive(Clone, Copy)]
pub enum Work<'a> {
    Job(&'a JobSpec),
    Streams(&'a [StreamSpec]),
}

/// A run's plan: its work and, if given, the instant measuring starts (`--start-at`: several
/// hosts start one workload together).
#[derive(Clone, Copy)]
pub struct Plan<'a> {
    pub work: Work<'a>,
    pub start_at: Option<SystemTime>,
}

impl<'a> Plan<'a> {
    /// One job, started as soon as it is ready.
    pub fn job(job: &'a JobSpec) -> Self {
        Plan {
            work: Work::Job(job),
            start_at: None,
        }
    }

    /// Several streams on one timeline, started as soon as they are ready.
    pub fn streams(streams: &'a [StreamSpec]) -> Self {
        Plan {
            work: Work::Streams(streams),
            start_at: None,
        }
    }

    /// This plan started at `start_at` (None: as soon as it is ready).
    pub fn at(self, start_at: Option<SystemTime>) -> Self {
        Plan { start_at, ..self }
    }
}

/// Runs one plan to its end and returns its result (not yet judged: see [`crate::run_one`]).
pub trait Executor {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError>;
}

/// The refusal of an executor that runs one job only, given several streams.
fn one_job_only<'a>(plan: &Plan<'a>, msg: &str) -> Result<&'a JobSpec, RunError> {
    match plan.work {
        Work::Job(j) => Ok(j),
        Work::Streams(_) => Err(RunError::Invalid(msg.to_string())),
    }
}

/// This host, whatever the job: the simulated device for `--engine sim`, session mode for a
/// job with sessions, else the job's own targets ([`Device`]).
pub struct Local;

impl Executor for Local {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        match plan.work {
            Work::Job(j) if j.engine == EngineKind::Sim => Sim.run(plan, stop, on_event),
            Work::Job(j) if j.session.is_some() => Session.run(plan, stop, on_event),
            _ => Device.run(plan, stop, on_event),
        }
    }
}

/// This host's own targets: one job, or several streams together (which start as soon as
/// they are ready: a common start is for one job).
pub struct Device;

impl Executor for Device {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        match plan.work {
            Work::Job(j) => dbio_runner::run_local(j, stop.clone(), on_event, plan.start_at),
            Work::Streams(s) => dbio_runner::run_streams(s, stop.clone(), on_event),
        }
    }
}

/// The simulated device (`--engine sim`): no file is touched.
pub struct Sim;

impl Executor for Sim {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        let job = one_job_only(plan, "the simulated device runs one job at a time")?;
        dbio_runner::run_sim(job, stop.clone(), on_event, plan.start_at)
    }
}

/// Session mode (`--sessions`): sessions of a database's shape with their own log writer.
pub struct Session;

impl Executor for Session {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        let job = one_job_only(plan, "session mode runs one workload at a time")?;
        dbio_runner::run_session(job, stop.clone(), on_event, plan.start_at)
    }
}

/// Where the lines a host writes that are not progress go: (host, line).
pub type LineSink<'a> = Box<dyn FnMut(&str, &str) + 'a>;

/// Every host of a fleet, checked once; each job runs on all of them at one instant and
/// comes back merged. Lines the hosts write that are not progress go to `on_line`.
pub struct Fleet<'a> {
    pub plan: FleetPlan,
    pub offsets: Vec<ClockOffset>,
    pub on_line: LineSink<'a>,
}

impl<'a> Fleet<'a> {
    /// The fleet of `plan` with every host checked first (reachable, a dbio of the same
    /// result schema, a readable clock; see [`fleet::check_hosts`]): Err names each host that
    /// cannot take part, and then no host has started.
    pub fn checked(plan: FleetPlan, on_line: LineSink<'a>) -> Result<Self, fleet::FleetError> {
        let offsets = fleet::check_hosts(&plan)?;
        Ok(Fleet {
            plan,
            offsets,
            on_line,
        })
    }
}

/// The last second each host reported, summed into the cluster's for the display.
fn cluster_tick(latest: &[(String, TimePoint)]) -> TimePoint {
    TimePoint {
        t: latest.iter().map(|(_, p)| p.t).fold(0.0, f64::max),
        read_iops: latest.iter().map(|(_, p)| p.read_iops).sum(),
        write_iops: latest.iter().map(|(_, p)| p.write_iops).sum(),
        mb_s: latest.iter().map(|(_, p)| p.mb_s).sum(),
        // The display shows the worst host's p99; the result has the exact cluster p99.
        p99_us: latest.iter().map(|(_, p)| p.p99_us).fold(0.0, f64::max),
        hist: None,
    }
}

/// What `--hosts` says to a multi-stream plan.
pub const FLEET_STREAMS: &str = "--hosts runs single-stream workloads; run a multi-stream profile with --start-at on each host and `dbio merge` the results";

impl Executor for Fleet<'_> {
    fn run(
        &mut self,
        plan: &Plan,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        let job = one_job_only(plan, FLEET_STREAMS)?;
        let mut latest: Vec<(String, TimePoint)> = Vec::new();
        let mut measuring = false;
        let on_line = &mut self.on_line;
        let mut lines = |host: &str, line: &str| match crate::progress::parse(line) {
            Some(crate::progress::Line::Measuring(planned_secs)) => {
                if !measuring {
                    measuring = true;
                    on_event(Event::Measuring { planned_secs });
                }
            }
            Some(crate::progress::Line::Tick(elapsed, p)) => {
                match latest.iter_mut().find(|(h, _)| h == host) {
                    Some(slot) => slot.1 = p,
                    None => latest.push((host.to_string(), p)),
                }
                let point = cluster_tick(&latest);
                on_event(Event::Tick {
                    point: &point,
                    elapsed,
                });
            }
            // The host finishing after its window: for the launcher's watch, not the display.
            Some(crate::progress::Line::Finishing) => {}
            None => on_line(host, line),
        };
        let start = plan.start_at;
        let merged = fleet::run(
            &self.plan,
            job,
            start,
            self.offsets.clone(),
            stop,
            &mut lines,
        )
        .map_err(|e| RunError::Target(e.to_string()));
        if let Some(n) = &mut self.plan.step {
            *n += 1;
        }
        merged
    }
}
