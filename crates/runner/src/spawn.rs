//! Starting the workers on one timeline: each builds its engine (a ring belongs to the
//! thread that uses it) and prepares its buffers, and only when all are ready does the
//! clock start, so set-up time never counts as measured time.

use crate::data::run_nonce;
use crate::datagen::WriteData;
use crate::pattern::Pattern;
use crate::replay::TraceFeed;
use crate::timeline::{MeasureStart, Timeline};
use crate::verify::{Checker, StreamVerify};
use crate::worker::{
    prepare_buffers, run_worker, run_worker_with, Interval, MonotonicClock, Quota, WorkerPlan,
    WorkerReport,
};
use dbio_engine::AnyEngine;
use dbio_engine::{open_engine, EngineSetup};
use dbio_model::{Arrivals, EngineKind, JobSpec, StopAfter};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Barrier, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Running workers.
pub struct Workers {
    /// The worker threads of each stream (one stream for a single-stream run).
    pub handles: Vec<Vec<JoinHandle<std::io::Result<WorkerReport>>>>,
    pub timeline: Timeline,
    pub intervals: Receiver<Interval>,
}

/// What the workers of one stream run on.
pub struct Setup<'a> {
    pub spec: &'a JobSpec,
    pub engine: EngineKind,
    pub qd: u32,
    pub fds: &'a [i32],
    pub region: (u64, u64),
    /// The user's stop (Ctrl-C, SIGTERM).
    pub stop: Arc<AtomicBool>,
    /// The run's own stop: set when verification fails.
    pub abort: Arc<AtomicBool>,
    /// Write verification of the stream (`--verify`).
    pub verify: Option<Arc<StreamVerify>>,
}

/// Starts one worker per thread of every stream and returns once all are ready and the
/// clock has started; the first stream's ramp and stop set the one timeline of them all.
/// `before_clock` runs when every worker is ready, just before the clock starts: a common
/// start (`--start-at`) is waited for there, with nothing left to set up after it.
pub fn start_workers(setups: &[Setup], before_clock: &mut dyn FnMut()) -> Workers {
    let all: u32 = setups.iter().map(|s| s.spec.threads).sum();
    let ready = Arc::new(Barrier::new(all as usize + 1));
    let timeline: Arc<OnceLock<Timeline>> = Arc::new(OnceLock::new());
    let (tx, rx) = mpsc::channel();
    let handles = setups
        .iter()
        .map(|s| spawn_stream(s, &ready, &timeline, &tx))
        .collect();
    ready.wait();
    before_clock();
    let spec = setups[0].spec;
    let origin = Instant::now();
    let ramp_end = origin + Duration::from_secs_f64(spec.ramp_secs);
    let steady = spec.steady.is_some();
    let t = Timeline {
        origin,
        start: MeasureStart::new(origin, (!steady).then_some(ramp_end)),
        settle_from: steady.then_some(ramp_end),
    };
    let _ = timeline.set(t.clone());
    ready.wait();
    Workers {
        handles,
        timeline: t,
        intervals: rx,
    }
}

/// Spawns the workers of one stream; each waits at `ready` until the timeline is set.
fn spawn_stream(
    s: &Setup,
    ready: &Arc<Barrier>,
    timeline: &Arc<OnceLock<Timeline>>,
    tx: &mpsc::Sender<Interval>,
) -> Vec<JoinHandle<std::io::Result<WorkerReport>>> {
    let spec = s.spec;
    let threads = spec.threads;
    let names = Arc::new(spec.targets.clone());
    // Its own data seed per stream: no two streams ever write the same block.
    let data_seed = run_nonce();
    let mut handles = Vec::new();
    for id in 0..threads {
        let share = |n: u64| n / threads as u64 + u64::from((id as u64) < n % threads as u64);
        let mut plan = WorkerPlan {
            id,
            qd: s.qd,
            pattern: Pattern::new(spec, id, s.fds.len() as u32, s.region.0, s.region.1),
            sync: spec.sync,
            data: WriteData::new(&spec.data, data_seed, id),
            seed: spec.seed,
            targets: names.clone(),
            origin: Instant::now(),
            start: MeasureStart::new(Instant::now(), None),
            settle_from: None,
            measure_secs: match spec.stop {
                StopAfter::Seconds(secs) => Some(secs),
                _ => None,
            },
            burst: spec.burst,
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
            abort: s.abort.clone(),
            intervals: tx.clone(),
            invalidate: (spec.invalidate && !spec.direct).then(|| s.fds.to_vec()),
            replay: None,
        };
        let fds = s.fds.to_vec();
        let (engine_kind, qd) = (s.engine, s.qd);
        let (slot_len, hipri, sqpoll) = (spec.max_bs() as usize, spec.hipri, spec.sqpoll);
        let (ready, timeline) = (ready.clone(), timeline.clone());
        let verify = s.verify.clone();
        let (replay, region) = (spec.replay.clone(), s.region);
        let worker = move || {
            if let Some(r) = replay {
                let feed = TraceFeed::open(&r, region).map_err(std::io::Error::other)?;
                plan.replay = Some((feed, !r.as_fast_as_possible));
            }
            let setup = EngineSetup {
                fds: &fds,
                slots: qd,
                slot_len,
                hipri,
                sqpoll,
            };
            let mut engine = open_engine(engine_kind, &setup);
            match &mut engine {
                Ok(AnyEngine::Uring(e)) => prepare_buffers(&mut **e, qd, &mut plan.data),
                Ok(AnyEngine::Sync(e)) => prepare_buffers(e, qd, &mut plan.data),
                Err(_) => {}
            }
            ready.wait(); // this worker is ready
            ready.wait(); // the timeline is set
            let t = timeline
                .get()
                .cloned()
                .expect("the timeline is set before the second barrier");
            (plan.origin, plan.start, plan.settle_from) = (t.origin, t.start, t.settle_from);
            let checker = verify.map(|v| Checker::new(v, qd));
            let clock = &MonotonicClock;
            match (engine, checker) {
                (Ok(AnyEngine::Uring(e)), None) => Ok(run_worker(*e, plan)),
                (Ok(AnyEngine::Sync(e)), None) => Ok(run_worker(e, plan)),
                (Ok(AnyEngine::Uring(e)), Some(c)) => Ok(run_worker_with(*e, plan, clock, c)),
                (Ok(AnyEngine::Sync(e)), Some(c)) => Ok(run_worker_with(e, plan, clock, c)),
                (Err(e), _) => Err(e),
            }
        };
        handles.push(
            std::thread::Builder::new()
                .name(format!("dbio-worker-{id}"))
                .spawn(worker)
                .expect("spawning a worker thread"),
        );
    }
    handles
}
