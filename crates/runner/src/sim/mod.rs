//! `--engine sim`: the job run against a modelled device in virtual time. No target is
//! opened or created; the result has the same form as a real run's, says it is simulated,
//! and is the same for the same `--seed`. Ramp, bursts and settling to a steady state run
//! in virtual time too.

mod model;

use crate::assemble::{assemble, directions, Assembly};
use crate::warn;
use crate::window::Window;
use crate::worker::{DirTotals, WorkerReport};
use dbio_engine::sys::CpuTimes;
use dbio_model::*;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

/// Region offsets are drawn from when neither --range nor --size says otherwise (1 GiB).
const DEFAULT_REGION: u64 = 1 << 30;

/// Runs `spec` on its simulated device (the default preset when it names none).
pub fn run(spec: &JobSpec, stop: &AtomicBool) -> RunResult {
    let dev = spec.sim.clone().unwrap_or_default();
    let start = spec.region.offset;
    let len = spec
        .region
        .range
        .or(spec.file_size)
        .unwrap_or(DEFAULT_REGION)
        .max(spec.max_bs());
    // The virtual window starts now, however long the model takes to compute it.
    let started_at = SystemTime::now();
    let (mut out, timeseries) = model::simulate(spec, &dev, (start, start + len), stop);
    let mut warnings = vec![warn::simulated(&dev)];
    if let Some(st) = out.steady.as_ref().filter(|st| !st.settled) {
        warnings.push(warn::not_settled(st));
    }
    let threads = std::mem::take(&mut out.threads);
    let report = WorkerReport {
        read: out.read,
        write: out.write,
        flush: DirTotals::new(),
        per_target: Vec::new(),
        cpu: CpuTimes::default(),
        wall_s: out.wall_s,
        issued: out.issued,
        behind: out.behind,
        error: None,
        replay: None,
    };
    let mut r = assemble(Assembly {
        spec,
        dirs: directions(spec),
        engine_kind: EngineKind::Sim,
        features: vec!["virtual-time".into()],
        targets: &[],
        prefilled: Vec::new(),
        sampled: Vec::new(),
        reports: vec![report],
        window: Window {
            timeseries,
            cpu: CpuTimes::default(),
            host_busy: 0.0,
            per_cpu: Vec::new(),
            started_at,
            took_start: true,
            cpu_idle: None,
            wake: None,
        },
        interrupted: out.interrupted,
        warnings,
        steady: out.steady,
    });
    // The model keeps each worker's figures; its one report holds them all.
    r.threads = threads;
    r.data = DataInfo {
        kind: "none".into(),
        description: "no data: the simulated device stores nothing".into(),
        prefill: Vec::new(),
        dedupe_ratio: None,
        compress_ratio: None,
        unit_bytes: None,
        pattern: None,
        sampled: Vec::new(),
    };
    r
}

#[cfg(test)]
mod tests;
