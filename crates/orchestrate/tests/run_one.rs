//! One way to run a job: a plan through an executor, judged by `run_one`. The simulated
//! device answers at once, so this host's executors are checked without touching a file.

mod common;

use dbio_model::sim::SimDevice;
use dbio_model::*;
use dbio_orchestrate::executor::{Executor, Local, Plan, Session, Sim};
use dbio_orchestrate::run_one;
use dbio_runner::RunError;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// A job on the simulated device: 10 000 I/Os, no file.
fn sim_job() -> JobSpec {
    let mut j = common::job("oltp", "sim", 8);
    j.targets = Vec::new();
    j.file_size = None;
    j.engine = EngineKind::Sim;
    j.direct = false;
    j.cpu_idle = CpuIdle::Allow;
    j.stop = StopAfter::Ops(10_000);
    j.sim = Some(SimDevice::default());
    j
}

fn stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn this_host_runs_a_simulated_job_as_the_sim_executor_does_and_run_one_judges_it() {
    let job = sim_job();
    let here = run_one(&mut Local, &Plan::job(&job), &stop(), &mut |_| {}).unwrap();
    let sim = run_one(&mut Sim, &Plan::job(&job), &stop(), &mut |_| {}).unwrap();
    assert_eq!(here.job.engine, EngineKind::Sim);
    assert_eq!(here.total_ios(), sim.total_ios());
    assert!(here.verdict.is_some(), "run_one judges the result");
    // The executor alone hands the result back as the runner gave it.
    let raw = Sim.run(&Plan::job(&job), &stop(), &mut |_| {}).unwrap();
    assert_eq!(raw.total_ios(), here.total_ios());
}

#[test]
fn a_start_already_past_runs_at_once_with_a_warning() {
    let job = sim_job();
    let past = SystemTime::now() - Duration::from_secs(5);
    let r = run_one(
        &mut Local,
        &Plan::job(&job).at(Some(past)),
        &stop(),
        &mut |_| {},
    )
    .unwrap();
    assert!(
        r.warnings.iter().any(|w| w.message.contains("--start-at")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn executors_of_one_job_refuse_several_streams() {
    let streams = vec![StreamSpec {
        name: "a".into(),
        role: "data".into(),
        job: sim_job(),
    }];
    for exec in [&mut Sim as &mut dyn Executor, &mut Session] {
        match exec.run(&Plan::streams(&streams), &stop(), &mut |_| {}) {
            Err(RunError::Invalid(m)) => assert!(m.contains("one"), "{m}"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("ran several streams"),
        }
    }
}
