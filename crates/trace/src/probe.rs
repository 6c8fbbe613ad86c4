//! A run's device-latency probe (`--device-latency`): the block layer's queue, issue and
//! completion events of the targets' disks, read on a thread of its own while the run
//! measures and folded into HDR histograms per direction, in flat memory for any length.

use crate::device::Device;
use crate::event::{kernel_dev, Op};
use crate::tracing::{BlockTracing, Stage, Timed, SLACK_NS};
use crate::TraceError;
use dbio_engine::sys::{monotonic_ns, thread_cpu};
use dbio_model::device_latency::{BlockLatency, DeviceLatencyReport};
use dbio_model::histogram::{new_histogram, LatencySummary};
use foldhash::HashMap;
use hdrhistogram::Histogram;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the buffers are read: often, since a run at full rate fills them fast.
const POLL: Duration = Duration::from_millis(50);
/// Each CPU's buffer, as a capture's.
const BUFFER_KB: u64 = 16 * 1024;
/// A bio whose request was not issued from its own sector this long after it arrived was
/// merged into another's: forgotten.
const MERGED_NS: u64 = 1_000_000_000;

/// The disks holding `targets` (device nodes, or files and folders on a disk's file
/// system; a file not made yet by its folder); the message says which cannot be traced.
pub fn disks_of(targets: &[String]) -> Result<Vec<Device>, String> {
    if !dbio_engine::sys::is_root() {
        return Err("--device-latency needs root (the kernel's block tracepoints, through tracefs); run as root or leave it out".into());
    }
    let mut disks: Vec<Device> = Vec::new();
    for t in targets {
        let p = Path::new(t);
        let found = if p.exists() {
            Device::of_node(p).or_else(|_| Device::holding(p))
        } else {
            Device::holding(
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new(".")),
            )
        };
        let d = found.map_err(|e| {
            format!("--device-latency: {t} is not on a block device ({e}): a target in memory has no device to trace")
        })?;
        if !disks
            .iter()
            .any(|k| (k.major, k.minor) == (d.major, d.minor))
        {
            disks.push(d);
        }
    }
    Ok(disks)
}

/// The probe, tracing from its start; its figures count requests issued in the window.
pub struct Probe {
    stop: Arc<AtomicBool>,
    /// The window's start and end (CLOCK_MONOTONIC ns).
    window: Arc<[AtomicU64; 2]>,
    /// Taken by `finish`; a probe dropped without it (a run that failed) still ends its
    /// thread and removes its tracing instance.
    thread: Option<JoinHandle<Result<DeviceLatencyReport, TraceError>>>,
}

impl Probe {
    /// Starts tracing `disks`: events are recorded from the moment this returns.
    pub fn start(disks: &[Device]) -> Result<Probe, String> {
        let stages = [Stage::Queue, Stage::Issue, Stage::Complete];
        let tracing = BlockTracing::start("dbio-latency", disks, &stages, BUFFER_KB)
            .map_err(|e| format!("--device-latency: {e}"))?;
        let stop = Arc::new(AtomicBool::new(false));
        let window = Arc::new([AtomicU64::new(0), AtomicU64::new(u64::MAX)]);
        let names = disks.iter().map(|d| d.name.clone()).collect();
        let index = (disks.iter())
            .map(|d| kernel_dev(d.major, d.minor))
            .collect();
        let (s, w) = (stop.clone(), window.clone());
        let thread = std::thread::Builder::new()
            .name("dbio-latency".into())
            .spawn(move || fold(tracing, Fold::new(index, names), &s, &w))
            .map_err(|e| format!("--device-latency: {e}"))?;
        Ok(Probe {
            stop,
            window,
            thread: Some(thread),
        })
    }

    /// Counts requests issued from `ns` on (the measured window's start).
    pub fn count_from(&self, ns: u64) {
        self.window[0].store(ns, Ordering::Relaxed);
    }

    /// Ends the window at `until`, stops tracing and gives the figures.
    pub fn finish(mut self, until: u64) -> Result<DeviceLatencyReport, String> {
        self.window[1].store(until, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
        let thread = self.thread.take().expect("finished once");
        match thread.join() {
            Ok(r) => r.map_err(|e| format!("--device-latency: {e}")),
            Err(_) => Err("--device-latency: the probe's thread failed".into()),
        }
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One direction's running figures.
struct OpFold {
    device: Histogram<u64>,
    queue: Histogram<u64>,
}

/// The probe's state: bios waiting for their request's issue, requests in flight (no
/// order kept: each is counted as it completes), figures.
struct Fold {
    index: Vec<u32>,
    names: Vec<String>,
    /// The latest bio to arrive at each place (an older one there lost its issue).
    arrived: HashMap<(u32, u64), u64>,
    /// The requests in flight at each place, in issue order: when and which operation.
    issued: HashMap<(u32, u64), VecDeque<(u64, Op)>>,
    ops: [OpFold; 3],
}

impl Fold {
    fn new(index: Vec<u32>, names: Vec<String>) -> Fold {
        Fold {
            index,
            names,
            arrived: HashMap::default(),
            issued: HashMap::default(),
            ops: std::array::from_fn(|_| OpFold {
                device: new_histogram(),
                queue: new_histogram(),
            }),
        }
    }

    /// One event, in time order; `window` the requests counted.
    fn event(&mut self, t: &Timed, window: (u64, u64)) {
        let key = (t.event.dev, t.event.sector);
        match t.stage {
            Stage::Queue => drop(self.arrived.insert(key, t.ns)),
            Stage::Issue => {
                let arrived = self.arrived.remove(&key);
                if !self.index.contains(&t.event.dev) {
                    return;
                }
                let op = t.event.rwbs.op;
                if let (Some(a), true) = (arrived, (window.0..window.1).contains(&t.ns)) {
                    let q = &mut self.ops[slot(op)].queue;
                    q.saturating_record(t.ns.saturating_sub(a).max(1));
                }
                self.issued.entry(key).or_default().push_back((t.ns, op));
            }
            Stage::Complete => {
                let Some(q) = self.issued.get_mut(&key) else {
                    return;
                };
                let (issued, op) = q.pop_front().expect("no empty queue is kept");
                if q.is_empty() {
                    self.issued.remove(&key);
                }
                if (window.0..window.1).contains(&issued) {
                    let d = &mut self.ops[slot(op)].device;
                    d.saturating_record(t.ns.saturating_sub(issued).max(1));
                }
            }
        }
    }

    /// Forgets bios merged into others' requests, and requests whose completion was lost.
    fn prune(&mut self, now: u64) {
        let old = now.saturating_sub(MERGED_NS);
        self.arrived.retain(|_, &mut a| a >= old);
        let lost = now.saturating_sub(crate::capture::GIVE_UP_NS);
        self.issued.retain(|_, q| {
            q.retain(|&(ns, _)| ns >= lost);
            !q.is_empty()
        });
    }

    fn report(self, lost_events: u64, probe_cpu_pct: f64) -> DeviceLatencyReport {
        let [read, write, flush] = self.ops.map(|o| {
            (!o.device.is_empty()).then(|| BlockLatency {
                requests: o.device.len(),
                device_ns: LatencySummary::of(&o.device),
                queue_ns: (!o.queue.is_empty()).then(|| LatencySummary::of(&o.queue)),
                queued: o.queue.len(),
            })
        });
        DeviceLatencyReport {
            devices: self.names,
            read,
            write,
            flush,
            lost_events,
            probe_cpu_pct,
        }
    }
}

/// 0 read, 1 write (and discard), 2 flush.
fn slot(op: Op) -> usize {
    match op {
        Op::Read => 0,
        Op::Flush => 2,
        _ => 1,
    }
}

/// The probe's thread: reads the buffers every 100 ms until stopped, then to their end.
fn fold(
    mut tracing: BlockTracing,
    mut f: Fold,
    stop: &AtomicBool,
    window: &[AtomicU64; 2],
) -> Result<DeviceLatencyReport, TraceError> {
    let (cpu0, wall0) = (thread_cpu(), monotonic_ns());
    loop {
        let done = stop.load(Ordering::Relaxed);
        if done {
            tracing.stop()?;
        }
        let now = monotonic_ns();
        let w = (
            window[0].load(Ordering::Relaxed),
            window[1].load(Ordering::Relaxed),
        );
        let bar = if done { u64::MAX } else { now - SLACK_NS };
        tracing.drain(bar, |t| f.event(t, w))?;
        f.prune(now);
        if done {
            break;
        }
        std::thread::sleep(POLL);
    }
    let cpu = thread_cpu().since(cpu0).total();
    let wall = (monotonic_ns() - wall0) as f64 / 1e9;
    let lost = tracing.lost_events();
    Ok(f.report(lost, cpu * 100.0 / wall.max(1e-9)))
}
