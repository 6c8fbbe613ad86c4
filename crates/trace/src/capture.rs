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
use std::collections::{BinaryHeap, HashMap};
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
#[derive(PartialEq, Eq)]
struct Timed {
    ns: u64,
    seq: u64,
    issue: bool,
    data: [u8; 96],
    len: u8,
}

impl Ord for Timed {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // A min-heap on (time, order read).
        (other.ns, other.seq).cmp(&(self.ns, self.seq))
    }
}

impl PartialOrd for Timed {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
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
    let index: HashMap<u32, u32> = opts
        .devices
        .iter()
        .enumerate()
        .map(|(i, d)| (kernel_dev(d.major, d.minor), i as u32))
        .collect();
    let start_ns = monotonic_ns();
    let header = Header {
        version: VERSION,
        dbio_version: opts.dbio_version.clone(),
        started_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        start_ns,
        clock: "mono".into(),
        devices: opts.devices.iter().map(TraceDevice::from).collect(),
    };
    let mut writer = TraceWriter::new(BufWriter::with_capacity(1 << 20, out), &header)?;
    let mut reader = Reader {
        pipes: inst.cpu_pipes()?,
        page: vec![0u8; inst.page_size()],
        heap: BinaryHeap::new(),
        seq: 0,
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
            lost_events: inst.lost_events() + reader.page_lost,
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

/// The per-CPU buffers and the events read from them, not yet merged.
struct Reader {
    pipes: Vec<(u32, std::fs::File)>,
    page: Vec<u8>,
    heap: BinaryHeap<Timed>,
    seq: u64,
    issue: Layout,
    complete: Layout,
    page_lost: u64,
}

impl Reader {
    /// Reads every page each CPU's buffer holds now.
    fn read_all(&mut self) -> Result<(), TraceError> {
        let Reader {
            pipes,
            page,
            heap,
            seq,
            issue,
            complete,
            page_lost,
            ..
        } = self;
        for (_, pipe) in pipes.iter_mut() {
            loop {
                let n = match pipe.read(page) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(TraceError::Io(e)),
                };
                let info = page::events(&page[..n], |ns, data| {
                    let id = data.get(..2).map(|b| u16::from_le_bytes([b[0], b[1]]));
                    let is_issue = id == Some(issue.id);
                    if !is_issue && id != Some(complete.id) {
                        return;
                    }
                    let len = data.len().min(96);
                    let mut copy = [0u8; 96];
                    copy[..len].copy_from_slice(&data[..len]);
                    *seq += 1;
                    heap.push(Timed {
                        ns,
                        seq: *seq,
                        issue: is_issue,
                        data: copy,
                        len: len as u8,
                    });
                });
                *page_lost += info.lost.unwrap_or(0);
            }
        }
        Ok(())
    }

    /// Hands every event stamped before `bar`, in time order, to the pairing.
    fn merge(&mut self, bar: u64, index: &HashMap<u32, u32>, pairing: &mut Pairing) {
        while self.heap.peek().is_some_and(|t| t.ns < bar) {
            let t = self.heap.pop().expect("peeked");
            let layout = if t.issue { &self.issue } else { &self.complete };
            let Some(e): Option<BlockEvent> = layout.read(&t.data[..usize::from(t.len)]) else {
                continue;
            };
            match (t.issue, index.get(&e.dev)) {
                (true, Some(&d)) => pairing.issue(t.ns, d, e),
                (false, Some(_)) => pairing.complete(t.ns, e),
                _ => {}
            }
        }
    }
}
