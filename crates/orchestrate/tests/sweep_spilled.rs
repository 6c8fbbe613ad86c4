//! A sweep on the simulated device whose steps stay in their spill files: its outline is
//! the analysis of the whole steps, and its JSON is the whole sweep's.

mod common;

use dbio_analyze::slo::Slo;
use dbio_model::sim::SimDevice;
use dbio_model::*;
use dbio_orchestrate::executor::Local;
use dbio_orchestrate::sweep::{analyse, run_sweep_spilled, SweepObserver, SweepPlan};
use dbio_runner::Event;
use dbio_spec::vary::{Vary, Varying};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Keeps what the sweep's end was given.
#[derive(Default)]
struct Ended(Option<dbio_model::sweep::SweepResult>);

impl SweepObserver for Ended {
    fn start(&mut self, _: &SweepPlan) {}
    fn step_start(&mut self, _: usize, _: f64) {}
    fn event(&mut self, _: Event) {}
    fn step_end(&mut self, _: usize, _: Option<&RunResult>) {}
    fn step_failed(&mut self, _: usize, _: &str) {}
    fn end(&mut self, r: &dbio_model::sweep::SweepResult) {
        self.0 = Some(r.clone());
    }
}

#[test]
fn a_spilled_sweep_is_the_whole_sweep_analysed_the_same() {
    let mut job = common::job("oltp", "sim", 1);
    job.engine = EngineKind::Sim;
    job.sim = SimDevice::preset("nvme-gen3");
    job.stop = StopAfter::Ops(60_000);
    let varying = Varying::new(vec![Vary::Qd(1), Vary::Qd(4), Vary::Qd(16)]);
    let slo = ("p99<300us".to_string(), Slo::parse("p99<300us").unwrap());
    let plan = SweepPlan::new(&job, varying, Some(slo), false).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut ended = Ended::default();
    let spilled = run_sweep_spilled(&plan, &mut Local, &stop, &mut ended).unwrap();
    let whole = spilled.whole().unwrap();
    assert_eq!(whole.steps.len(), 3);
    assert!(whole.steps.iter().all(|r| !r.timeseries.is_empty()));
    assert!(spilled
        .outline
        .steps
        .iter()
        .all(|r| r.timeseries.is_empty()));
    assert_eq!(ended.0.as_ref(), Some(&spilled.outline));
    let analysed = analyse(&plan, &whole.values, whole.steps.clone(), whole.partial);
    assert_eq!(analysed, whole);
    assert_eq!(
        serde_json::to_string_pretty(&spilled).unwrap(),
        serde_json::to_string_pretty(&whole).unwrap()
    );
}
