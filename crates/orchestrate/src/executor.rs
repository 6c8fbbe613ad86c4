//! Where a validated job runs: on this host (the runner), or on a fleet of hosts at once
//! and merged. Sweeps and suites drive their steps through one of these, so a fleet sweep
//! is a local sweep with another executor.

use crate::fleet::{self, FleetPlan};
use dbio_model::cluster::ClockOffset;
use dbio_model::{JobSpec, RunResult, TimePoint};
use dbio_runner::{Event, RunError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs one validated job to its end and returns its result.
pub trait Executor {
    fn run(
        &mut self,
        job: &JobSpec,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError>;
}

/// This host: the runner itself.
pub struct Local;

impl Executor for Local {
    fn run(
        &mut self,
        job: &JobSpec,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
        dbio_runner::run(job, stop.clone(), on_event)
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

impl Executor for Fleet<'_> {
    fn run(
        &mut self,
        job: &JobSpec,
        stop: &Arc<AtomicBool>,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<RunResult, RunError> {
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
        let merged = fleet::run(&self.plan, job, self.offsets.clone(), stop, &mut lines)
            .map_err(RunError::Target);
        if let Some(n) = &mut self.plan.step {
            *n += 1;
        }
        merged
    }
}
