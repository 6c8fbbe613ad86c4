//! One run, start to end: its plan through an executor, then judged. Runs, every step of a
//! sweep, every part of a suite, a fleet's merged run and a database run all end here.

use crate::executor::{Executor, Plan};
use crate::judge::judged;
use dbio_model::RunResult;
use dbio_runner::{Event, RunError};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Runs `plan` through `exec` and judges the result: its verdict on what limited it (a
/// merged result is judged as a cluster, from the hosts and devices it names) and its
/// warnings as the executor gathered them.
pub fn run_one(
    exec: &mut dyn Executor,
    plan: &Plan,
    stop: &Arc<AtomicBool>,
    on_event: &mut dyn FnMut(Event),
) -> Result<RunResult, RunError> {
    exec.run(plan, stop, on_event).map(judged)
}
