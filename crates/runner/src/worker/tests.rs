//! The completion-time bookkeeping against a stub engine that completes I/Os at known
//! instants of a stub clock: each I/O's recorded latency must be its completion instant
//! minus its submission instant, whatever the queue depth and however completions bunch.

use super::*;
use crate::datagen::WriteData;
use crate::pattern::tests::spec;
use crate::pattern::Pattern;
use crate::timeline::MeasureStart;
use dbio_engine::{IoError, Op};
use dbio_model::histogram::new_histogram;
use dbio_model::SyncMode;
use dbio_model::{DataKind, Rw};
use hdrhistogram::Histogram;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Virtual time: `base` plus the nanoseconds the stub engine has advanced it by.
struct StubClock {
    base: Instant,
    nanos: Arc<AtomicU64>,
}

impl Clock for StubClock {
    fn now(&self) -> Instant {
        self.base + Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

/// Completes the k-th I/O it is given `service[k % len]` nanoseconds after its submission,
/// and honours `wait` as io_uring does: time only moves on until `wait` completions are ready.
struct StubEngine {
    nanos: Arc<AtomicU64>,
    service: Vec<u64>,
    submitted: usize,
    /// (completion instant, slot) of the I/Os in flight.
    pending: Vec<(u64, u32)>,
    ready: Vec<u32>,
    /// The latency each submitted I/O must be recorded with.
    expected: Arc<std::sync::Mutex<Vec<u64>>>,
    buf: Vec<u8>,
    len: u32,
}

impl Engine for StubEngine {
    fn submit(&mut self, ops: &[Op], wait: u32, _: Option<Duration>) -> Result<(), IoError> {
        let now = self.nanos.load(Ordering::Relaxed);
        for op in ops {
            let svc = self.service[self.submitted % self.service.len()];
            self.submitted += 1;
            self.pending.push((now + svc, op.slot));
            self.expected.lock().unwrap().push(svc);
        }
        self.pending
            .sort_unstable_by_key(|p| std::cmp::Reverse(p.0));
        let mut t = now;
        let due = |p: &[(u64, u32)], t: u64| p.last().is_some_and(|&(at, _)| at <= t);
        // Move the clock to the instant the `wait`-th completion is ready.
        while self.ready.len() + self.pending.iter().filter(|p| p.0 <= t).count() < wait as usize {
            match self.pending.iter().map(|p| p.0).filter(|&at| at > t).min() {
                Some(at) => t = at,
                None => break,
            }
        }
        while due(&self.pending, t) {
            self.ready.push(self.pending.pop().unwrap().1);
        }
        self.nanos.store(t, Ordering::Relaxed);
        Ok(())
    }

    fn reap<F: FnMut(u32, i32)>(&mut self, mut f: F) {
        for slot in self.ready.drain(..) {
            f(slot, self.len as i32);
        }
    }

    fn buf(&mut self, _: u32) -> &mut [u8] {
        &mut self.buf
    }

    fn features(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Runs `ops` 4 KiB reads at depth `qd` against the stub; returns the worker's report and the
/// latencies the stub says each I/O had.
fn run_stub(qd: u32, ops: u64, service: &[u64]) -> (WorkerReport, Vec<u64>) {
    let nanos = Arc::new(AtomicU64::new(0));
    let expected = Arc::new(std::sync::Mutex::new(Vec::new()));
    let engine = StubEngine {
        nanos: nanos.clone(),
        service: service.to_vec(),
        submitted: 0,
        pending: Vec::new(),
        ready: Vec::new(),
        expected: expected.clone(),
        buf: vec![0; 4096],
        len: 4096,
    };
    let clock = StubClock {
        base: Instant::now(),
        nanos,
    };
    let job = spec(Rw::RandRead, 100, &[(4096, 1)]);
    let (tx, _rx) = mpsc::channel();
    let plan = WorkerPlan {
        id: 0,
        qd,
        pattern: Pattern::new(&job, 0, 1, 0, 1 << 30),
        sync: SyncMode::None,
        data: WriteData::new(&DataKind::Random, 1, 0),
        seed: 1,
        targets: Arc::new(vec!["stub".into()]),
        origin: clock.base,
        start: MeasureStart::new(clock.base, Some(clock.base)),
        settle_from: None,
        measure_secs: None,
        burst: None,
        quota: Quota::Ops(ops),
        pace: None,
        poisson: false,
        stop: Arc::new(AtomicBool::new(false)),
        abort: Arc::new(AtomicBool::new(false)),
        intervals: tx,
        invalidate: None,
        replay: None,
    };
    let report = run_worker_on(engine, plan, &clock);
    let expected = expected.lock().unwrap().clone();
    (report, expected)
}

/// (value, count) of every recorded bucket: two histograms agree when these do.
fn buckets(h: &Histogram<u64>) -> Vec<(u64, u64)> {
    h.iter_recorded()
        .map(|v| (v.value_iterated_to(), v.count_at_value()))
        .collect()
}

fn expected_hist(lats: &[u64]) -> Histogram<u64> {
    let mut h = new_histogram();
    for &l in lats {
        h.record(l).unwrap();
    }
    h
}

/// Service times that make completions bunch (equal times) and spread (a slow one behind).
const SERVICE: [u64; 9] = [
    10_000, 10_000, 3_000, 50_000, 7_000, 7_000, 120_000, 1_000, 10_000,
];

#[test]
fn each_latency_is_completion_minus_submission_at_every_depth() {
    for qd in [1, 2, 4, 8, 32, 64] {
        let (report, lats) = run_stub(qd, 2_000, &SERVICE);
        assert!(report.error.is_none(), "qd {qd}: {:?}", report.error);
        assert_eq!(report.read.ios, 2_000, "qd {qd}: measured reads");
        assert_eq!(lats.len(), 2_000, "qd {qd}: submitted reads");
        assert_eq!(
            buckets(&report.read.hist),
            buckets(&expected_hist(&lats)),
            "qd {qd}: recorded latencies differ from completion − submission"
        );
        let h = &report.read.hist;
        assert_eq!(
            h.max(),
            h.highest_equivalent(120_000),
            "qd {qd}: the slowest I/O"
        );
        assert_eq!(
            h.min(),
            h.lowest_equivalent(1_000),
            "qd {qd}: the fastest I/O"
        );
    }
}

#[test]
fn an_early_completion_is_not_charged_with_a_slow_neighbour() {
    // Depth 32, every 32nd I/O takes 1 ms and the rest 5 µs: a worker that waited for a batch
    // would stop fast I/Os' clocks at a slow one's completion.
    let mut service = vec![5_000; 32];
    service[0] = 1_000_000;
    let (report, _) = run_stub(32, 3_200, &service);
    let h = &report.read.hist;
    assert_eq!(h.count_between(5_000, 5_000), 3_100, "fast I/Os at 5 µs");
    assert_eq!(
        h.count_between(999_000, 1_001_000),
        100,
        "slow I/Os at 1 ms"
    );
}
