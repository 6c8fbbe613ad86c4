//! `dbio capture`: the block layer's issue and completion events of chosen devices, read
//! from a tracing instance's per-CPU buffers, merged in time order, paired into requests
//! and streamed to a trace file, in flat memory for any length.

use crate::device::Device;
use crate::event::{kernel_dev, BlockEvent, Layout};
use crate::format::{Header, TraceDevice, TraceWriter, Trailer, VERSION};
use crate::pair::Pairing;
use crate::tracefs::{Instance, Tracefs};
use crate::{page, TraceError};
use dbio_engine::sys::monotonic_ns;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::io::{BufWriter, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the buffers are read.
const POLL: Duration = Duration::from_millis(100);
/// Events stamped this long before a read may still be committed after it: the merge
/// holds them back this long before ordering them against the other CPUs'.
const SLACK_NS: u64 = 20_000_000;
/// A request in flight this long has lost its completion.
const GIVE_UP_NS: u64 = 60_000_000_000;
/// Each CPU's buffer.
const BUFFER_KB: u64 = 16 * 1024;

/// What to capture.
pub struct CaptureOptions {
    pub devices: Vec<Device>,
    /// None: until stopped.
    pub duration: Option<Duration>,
    /// The trace file to write.
    pub out: String,
    pub dbio_version: String,
}

/// Where a capture stands, for a progress display.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    pub elapsed: Duration,
    pub requests: u64,
    pub lost_events: u64,
}

/// One event read, to be ordered against the other CPUs' by its time.
#[derive(Clone, Copy)]
struct Timed {
    ns: u64,
    issue: bool,
    event: BlockEvent,
}

/// Captures into `out` until the duration ends or `stop` is set; returns the trailer
/// written. `progress` is called after each read of the buffers.
pub fn capture<W: Write>(
    opts: &CaptureOptions,
    out: W,
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress),
) -> Result<Trailer, TraceError> {
    let fs = Tracefs::open()?;
    let name = format!("dbio-capture-{}", std::process::id());
    let inst = Instance::create(&fs, &name, BUFFER_KB)?;
    let issue = inst.layout("block/block_rq_issue")?;
    let complete = inst.layout("block/block_rq_complete")?;
    let filter = opts
        .devices
        .iter()
        .map(|d| format!("dev == {}", kernel_dev(d.major, d.minor)))
        .collect::<Vec<_>>()
        .join(" || ");
    inst.enable("block/block_rq_issue", &filter)?;
    inst.enable("block/block_rq_complete", &filter)?;
    // The trace's device index of each kernel dev_t: a few, so a list.
    let index: Vec<u32> = (opts.devices.iter())
        .map(|d| kernel_dev(d.major, d.minor))
        .collect();
    let start_ns = monotonic_ns();
    let header = Header {
        version: VERSION,
        dbio_version: opts.dbio_version.clone(),
        started_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        start_ns,
        clock: "mono".into(),
        devices: opts.devices.iter().map(TraceDevice::from).collect(),
        imported: None,
    };
    let mut writer = TraceWriter::new(BufWriter::with_capacity(1 << 20, out), &header)?;
    let pipes = inst.cpu_pipes()?;
    let mut reader = Reader {
        queues: vec![VecDeque::new(); pipes.len()],
        pipes,
        page: vec![0u8; inst.page_size()],
        issue,
        complete,
        page_lost: 0,
    };
    inst.write("tracing_on", "1")?;
    let end = opts.duration.map(|d| start_ns + d.as_nanos() as u64);
    let mut pairing = Pairing::default();
    let interrupted = loop {
        std::thread::sleep(POLL);
        let now = monotonic_ns();
        let (done, interrupted) = match end {
            _ if stop.load(Ordering::Relaxed) => (true, true),
            Some(e) if now >= e => (true, false),
            _ => (false, false),
        };
        if done {
            inst.write("tracing_on", "0")?;
        }
        reader.read_all()?;
        let bar = if done { u64::MAX } else { now - SLACK_NS };
        reader.merge(bar, &index, &mut pairing);
        pairing.give_up_before(now.saturating_sub(GIVE_UP_NS));
        let mut failed = None;
        pairing.ready(done, |r| {
            if failed.is_none() {
                failed = writer.record(r).err();
            }
        });
        if let Some(e) = failed {
            return Err(TraceError::Io(e));
        }
        progress(Progress {
            elapsed: Duration::from_nanos(now - start_ns),
            requests: writer.requests,
            lost_events: inst.lost_events().max(reader.page_lost),
        });
        if done {
            break interrupted;
        }
    };
    let trailer = Trailer {
        requests: writer.requests,
        end_ns: monotonic_ns().min(end.unwrap_or(u64::MAX)),
        lost_events: inst.lost_events().max(reader.page_lost),
        unmatched_completions: pairing.unmatched_completions,
        in_flight_at_end: pairing.in_flight(),
        interrupted,
    };
    drop(reader);
    writer.finish(&trailer)?.flush()?;
    Ok(trailer)
}

/// The per-CPU buffers and the events read from them, not yet merged: each CPU's in its
/// own queue, already in time order, so the merge only compares the queues' heads.
struct Reader {
    pipes: Vec<(u32, std::fs::File)>,
    queues: Vec<VecDeque<Timed>>,
    page: Vec<u8>,
    issue: Layout,
    complete: Layout,
    page_lost: u64,
}

impl Reader {
    /// Reads every page each CPU's buffer holds now.
    fn read_all(&mut self) -> Result<(), TraceError> {
        let Reader {
            pipes,
            queues,
            page,
            issue,
            complete,
            page_lost,
        } = self;
        for ((_, pipe), queue) in pipes.iter_mut().zip(queues.iter_mut()) {
            loop {
                let n = match pipe.read(page) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(TraceError::Io(e)),
                };
                let info = page::events(&page[..n], |ns, data| {
                    let (is_issue, read) = match issue.read(data) {
                        Some(e) => (true, Some(e)),
                        None => (false, complete.read(data)),
                    };
                    if let Some(event) = read {
                        queue.push_back(Timed {
                            ns,
                            issue: is_issue,
                            event,
                        });
                    }
                });
                *page_lost += info.lost.unwrap_or(0);
            }
        }
        Ok(())
    }

    /// Hands every event stamped before `bar`, in time order, to the pairing.
    fn merge(&mut self, bar: u64, index: &[u32], pairing: &mut Pairing) {
        let head = |q: &VecDeque<Timed>| q.front().map(|t| t.ns).filter(|&ns| ns < bar);
        let mut heads: BinaryHeap<Reverse<(u64, usize)>> = (self.queues.iter())
            .enumerate()
            .filter_map(|(i, q)| Some(Reverse((head(q)?, i))))
            .collect();
        while let Some(Reverse((_, i))) = heads.pop() {
            let t = self.queues[i].pop_front().expect("a queue with a head");
            match (t.issue, index.iter().position(|&d| d == t.event.dev)) {
                (true, Some(d)) => pairing.issue(t.ns, d as u32, t.event),
                (false, Some(_)) => pairing.complete(t.ns, t.event),
                _ => {}
            }
            if let Some(ns) = head(&self.queues[i]) {
                heads.push(Reverse((ns, i)));
            }
        }
    }
}
