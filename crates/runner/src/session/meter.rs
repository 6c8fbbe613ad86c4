//! What one thread of a session run records: its physical reads and writes (as a worker's
//! totals), the wait events it saw, and its share of the per-second time series.

use crate::worker::{DirTotals, Interval, WorkerReport};
use dbio_engine::sys::{thread_cpu, CpuTimes};
use dbio_engine::IoError;
use dbio_model::histogram::new_histogram;
use hdrhistogram::Histogram;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// The wait events of a session run, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    SequentialRead,
    ParallelRead,
    LogFileSync,
    FreeBufferWait,
    ParallelWrite,
    LogParallelWrite,
}

impl Ev {
    pub const ALL: [Ev; 6] = [
        Ev::SequentialRead,
        Ev::ParallelRead,
        Ev::LogFileSync,
        Ev::FreeBufferWait,
        Ev::ParallelWrite,
        Ev::LogParallelWrite,
    ];

    /// Oracle's name, the generic name, and whether a session (not a writer) waits.
    pub fn names(self) -> (&'static str, &'static str, bool) {
        match self {
            Ev::SequentialRead => ("db file sequential read", "single-page read", true),
            Ev::ParallelRead => ("db file parallel read", "multi-page read", true),
            Ev::LogFileSync => ("log file sync", "commit", true),
            Ev::FreeBufferWait => ("free buffer waits", "wait for the data writer", true),
            Ev::ParallelWrite => ("db file parallel write", "data write", false),
            Ev::LogParallelWrite => ("log file parallel write", "log write", false),
        }
    }
}

/// One thread's recorder. Nothing before `measure_from` counts.
pub struct Meter {
    id: u32,
    measure_from: Instant,
    measuring: bool,
    cpu0: CpuTimes,
    next_tick: Instant,
    index: u32,
    /// Dropped by [`Meter::finish`], so the run sees every thread's seconds end.
    tx: Option<Sender<Interval>>,
    pub read: DirTotals,
    pub write: DirTotals,
    /// Waits per event (index = position in [`Ev::ALL`]).
    pub events: Vec<Histogram<u64>>,
    /// Logical counters: operations, updates, cache hits, redo bytes, log bytes written.
    pub ops: u64,
    pub updates: u64,
    pub cache_hits: u64,
    pub redo_bytes: u64,
    pub log_bytes: u64,
    /// Time slept thinking while measuring, ns.
    pub think_ns: u64,
    iv_reads: u64,
    iv_writes: u64,
    iv_bytes: u64,
    iv_hist: Histogram<u64>,
    pub error: Option<IoError>,
}

impl Meter {
    /// The recorder of thread `id`, sending its seconds to `tx`.
    pub fn new(id: u32, measure_from: Instant, tx: Sender<Interval>) -> Self {
        Meter {
            id,
            measure_from,
            measuring: false,
            cpu0: CpuTimes::default(),
            next_tick: measure_from + Duration::from_secs(1),
            index: 0,
            tx: Some(tx),
            read: DirTotals::new(),
            write: DirTotals::new(),
            events: Ev::ALL.iter().map(|_| new_histogram()).collect(),
            ops: 0,
            updates: 0,
            cache_hits: 0,
            redo_bytes: 0,
            log_bytes: 0,
            think_ns: 0,
            iv_reads: 0,
            iv_writes: 0,
            iv_bytes: 0,
            iv_hist: new_histogram(),
            error: None,
        }
    }

    /// True once the measured window has begun (call [`Meter::tick`] first).
    #[inline]
    pub fn measuring(&self) -> bool {
        self.measuring
    }

    /// Starts measuring when the ramp is over and sends every second completed by `now`.
    pub fn tick(&mut self, now: Instant) {
        if !self.measuring && now >= self.measure_from {
            self.measuring = true;
            self.cpu0 = thread_cpu();
        }
        while self.measuring && now >= self.next_tick {
            self.send(1.0);
            self.next_tick += Duration::from_secs(1);
        }
    }

    fn send(&mut self, secs: f64) {
        let hist = std::mem::replace(&mut self.iv_hist, new_histogram());
        let Some(tx) = &self.tx else { return };
        let _ = tx.send(Interval {
            worker: self.id,
            index: self.index,
            settling: false,
            secs,
            read_ios: self.iv_reads,
            write_ios: self.iv_writes,
            bytes: self.iv_bytes,
            hist,
        });
        self.index += 1;
        (self.iv_reads, self.iv_writes, self.iv_bytes) = (0, 0, 0);
    }

    /// Records one physical page read or write of `bytes` that took `ns`.
    #[inline]
    pub fn io(&mut self, write: bool, bytes: u64, ns: u64) {
        if !self.measuring {
            return;
        }
        let t = if write {
            &mut self.write
        } else {
            &mut self.read
        };
        t.ios += 1;
        t.bytes += bytes;
        t.hist.saturating_record(ns);
        self.iv_hist.saturating_record(ns);
        if write {
            self.iv_writes += 1;
        } else {
            self.iv_reads += 1;
        }
        self.iv_bytes += bytes;
    }

    /// Records one wait of `ns` on `ev`.
    #[inline]
    pub fn wait(&mut self, ev: Ev, ns: u64) {
        if self.measuring {
            self.events[ev as usize].saturating_record(ns.max(1));
        }
    }

    /// Ends the thread's recording: the last part-second and its report as a worker.
    pub fn finish(mut self) -> (WorkerReport, Meter) {
        let end = Instant::now();
        let wall_s = end
            .saturating_duration_since(self.measure_from)
            .as_secs_f64();
        if self.measuring {
            let last = end
                .saturating_duration_since(self.next_tick - Duration::from_secs(1))
                .as_secs_f64();
            self.send(last.min(1.0));
        }
        self.tx = None;
        let cpu = if self.measuring {
            thread_cpu().since(self.cpu0)
        } else {
            CpuTimes::default()
        };
        let report = WorkerReport {
            read: std::mem::take(&mut self.read),
            write: std::mem::take(&mut self.write),
            flush: DirTotals::new(),
            per_target: Vec::new(),
            cpu,
            wall_s,
            issued: 0,
            behind: false,
            error: self.error.take(),
            replay: None,
        };
        (report, self)
    }
}
