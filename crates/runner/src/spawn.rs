//! Starting the workers on one timeline: each builds its engine (a ring belongs to the
//! thread that uses it) and prepares its buffers, and only when all are ready does the
//! clock start, so set-up time never counts as measured time.

use crate::data::run_nonce;
use crate::pattern::Pattern;
use crate::worker::{prepare_buffers, run_worker, Interval, Quota, WorkerPlan, WorkerReport};
use dbio_engine::engine::AnyEngine;
use dbio_engine::{open_engine, EngineSetup};
use dbio_model::{Arrivals, EngineKind, JobSpec, StopAfter};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Barrier, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When the workers measure; the same for all of them.
#[derive(Debug, Clone, Copy)]
pub struct Timeline {
    /// End of the ramp, start of the measured window and of the per-second intervals.
    pub measure_from: Instant,
    /// End of issuing for time-based runs.
    pub measure_until: Option<Instant>,
}

/// Running workers.
pub struct Workers {
    pub handles: Vec<JoinHandle<std::io::Result<WorkerReport>>>,
    pub timeline: Timeline,
    pub intervals: Receiver<Interval>,
}

/// What the workers run on.
pub struct Setup<'a> {
    pub spec: &'a JobSpec,
    pub engine: EngineKind,
    pub qd: u32,
    pub fds: &'a [i32],
    pub region: (u64, u64),
    pub stop: Arc<AtomicBool>,
}

/// Starts one worker per thread and returns once all are ready and the clock has started.
pub fn start_workers(s: Setup) -> Workers {
    let spec = s.spec;
    let threads = spec.threads;
    let ready = Arc::new(Barrier::new(threads as usize + 1));
    let timeline: Arc<OnceLock<Timeline>> = Arc::new(OnceLock::new());
    let names = Arc::new(spec.targets.clone());
    let data_seed = run_nonce();
    let (tx, rx) = mpsc::channel();
    let mut handles = Vec::new();
    for id in 0..threads {
        let share = |n: u64| n / threads as u64 + u64::from((id as u64) < n % threads as u64);
        let mut plan = WorkerPlan {
            id,
            qd: s.qd,
            pattern: Pattern::new(spec, id, s.fds.len() as u32, s.region.0, s.region.1),
            sync: spec.sync,
            data: spec.data,
            seed: spec.seed,
            data_seed,
            targets: names.clone(),
            measure_from: Instant::now(),
            measure_until: None,
            quota: match spec.stop {
                StopAfter::Seconds(_) => Quota::None,
                StopAfter::Ops(n) => Quota::Ops(share(n)),
                StopAfter::Bytes(n) => Quota::Bytes(share(n)),
            },
            pace: spec
                .rate
                .map(|r| Duration::from_secs_f64(threads as f64 / r as f64)),
            poisson: spec.arrivals == Arrivals::Poisson,
            stop: s.stop.clone(),
            intervals: tx.clone(),
        };
        let fds = s.fds.to_vec();
        let (engine_kind, qd) = (s.engine, s.qd);
        let (slot_len, hipri, sqpoll) = (spec.max_bs() as usize, spec.hipri, spec.sqpoll);
        let (ready, timeline) = (ready.clone(), timeline.clone());
        let worker = move || {
            let setup = EngineSetup {
                fds: &fds,
                slots: qd,
                slot_len,
                hipri,
                sqpoll,
            };
            let mut engine = open_engine(engine_kind, &setup);
            match &mut engine {
                Ok(AnyEngine::Uring(e)) => prepare_buffers(&mut **e, qd, plan.data, data_seed, id),
                Ok(AnyEngine::Sync(e)) => prepare_buffers(e, qd, plan.data, data_seed, id),
                Err(_) => {}
            }
            ready.wait(); // this worker is ready
            ready.wait(); // the timeline is set
            let t = timeline
                .get()
                .copied()
                .expect("the timeline is set before the second barrier");
            (plan.measure_from, plan.measure_until) = (t.measure_from, t.measure_until);
            match engine {
                Ok(AnyEngine::Uring(e)) => Ok(run_worker(*e, plan)),
                Ok(AnyEngine::Sync(e)) => Ok(run_worker(e, plan)),
                Err(e) => Err(e),
            }
        };
        handles.push(
            std::thread::Builder::new()
                .name(format!("dbio-worker-{id}"))
                .spawn(worker)
                .expect("spawning a worker thread"),
        );
    }
    ready.wait();
    let measure_from = Instant::now() + Duration::from_secs_f64(spec.ramp_secs);
    let t = Timeline {
        measure_from,
        measure_until: match spec.stop {
            StopAfter::Seconds(secs) => Some(measure_from + Duration::from_secs_f64(secs)),
            _ => None,
        },
    };
    let _ = timeline.set(t);
    ready.wait();
    Workers {
        handles,
        timeline: t,
        intervals: rx,
    }
}
