//! The block events of chosen devices from a private tracing instance: each CPU's buffer
//! read raw, the events merged across CPUs in time order. What a capture and a run's
//! device-latency probe share.

use crate::device::Device;
use crate::event::{kernel_dev, BlockEvent, Layout};
use crate::tracefs::{Instance, Tracefs};
use crate::{page, TraceError};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::io::Read;

/// Events stamped this long before a read may still be committed after it: a merge holds
/// them back this long before ordering them against the other CPUs'.
pub(crate) const SLACK_NS: u64 = 20_000_000;

/// The point of a request's life an event marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A bio arrived at the block layer (`block_bio_queue`).
    Queue,
    /// The request went to the driver (`block_rq_issue`).
    Issue,
    /// The device completed it (`block_rq_complete`).
    Complete,
}

impl Stage {
    fn event(self) -> &'static str {
        match self {
            Stage::Queue => "block/block_bio_queue",
            Stage::Issue => "block/block_rq_issue",
            Stage::Complete => "block/block_rq_complete",
        }
    }
}

/// One event read, to be ordered against the other CPUs' by its time.
#[derive(Debug, Clone, Copy)]
pub struct Timed {
    /// CLOCK_MONOTONIC, in ns.
    pub ns: u64,
    pub stage: Stage,
    pub event: BlockEvent,
}

/// A tracing instance of dbio's own following `stages` of `devices`, on from `start`.
pub struct BlockTracing {
    // Declared before the instance: the pipes close before it is removed.
    pipes: Vec<(u32, std::fs::File)>,
    queues: Vec<VecDeque<Timed>>,
    page: Vec<u8>,
    layouts: Vec<(Layout, Stage)>,
    page_lost: u64,
    inst: Instance,
}

impl BlockTracing {
    /// An instance named `NAME-PID` with `buffer_kb` per CPU, tracing `stages` of the
    /// requests of `devices` (whole disks: the block layer's requests carry the disk's
    /// numbers); events are recorded from the moment this returns.
    pub fn start(
        name: &str,
        devices: &[Device],
        stages: &[Stage],
        buffer_kb: u64,
    ) -> Result<BlockTracing, TraceError> {
        let fs = Tracefs::open()?;
        let inst = Instance::create(&fs, &format!("{name}-{}", std::process::id()), buffer_kb)?;
        let filter = (devices.iter())
            .map(|d| format!("dev == {}", kernel_dev(d.major, d.minor)))
            .collect::<Vec<_>>()
            .join(" || ");
        let mut layouts = Vec::new();
        for &s in stages {
            layouts.push((inst.layout(s.event())?, s));
            inst.enable(s.event(), &filter)?;
        }
        let pipes = inst.cpu_pipes()?;
        let t = BlockTracing {
            queues: vec![VecDeque::new(); pipes.len()],
            pipes,
            page: vec![0u8; inst.page_size()],
            layouts,
            page_lost: 0,
            inst,
        };
        t.inst.write("tracing_on", "1")?;
        Ok(t)
    }

    /// Stops recording (what is in the buffers can still be drained).
    pub fn stop(&self) -> Result<(), TraceError> {
        self.inst.write("tracing_on", "0")
    }

    /// Events the buffers lost (their overrun and dropped counters, or pages that said so).
    pub fn lost_events(&self) -> u64 {
        self.inst.lost_events().max(self.page_lost)
    }

    /// Reads every CPU's buffer and hands every event stamped before `bar` to `each`, in
    /// time order.
    pub fn drain(&mut self, bar: u64, each: impl FnMut(&Timed)) -> Result<(), TraceError> {
        self.read_all()?;
        self.merge(bar, each);
        Ok(())
    }

    /// Reads every page each CPU's buffer holds now.
    fn read_all(&mut self) -> Result<(), TraceError> {
        let layouts = &self.layouts;
        for ((_, pipe), queue) in self.pipes.iter_mut().zip(self.queues.iter_mut()) {
            loop {
                let n = match pipe.read(&mut self.page) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(TraceError::Io(e)),
                };
                let info = page::events(&self.page[..n], |ns, data| {
                    let read = layouts.iter().find_map(|(l, s)| Some((l.read(data)?, *s)));
                    if let Some((event, stage)) = read {
                        queue.push_back(Timed { ns, stage, event });
                    }
                });
                self.page_lost += info.lost.unwrap_or(0);
            }
        }
        Ok(())
    }

    /// Hands every event stamped before `bar`, in time order, to `each`.
    fn merge(&mut self, bar: u64, mut each: impl FnMut(&Timed)) {
        let head = |q: &VecDeque<Timed>| q.front().map(|t| t.ns).filter(|&ns| ns < bar);
        let mut heads: BinaryHeap<Reverse<(u64, usize)>> = (self.queues.iter())
            .enumerate()
            .filter_map(|(i, q)| Some(Reverse((head(q)?, i))))
            .collect();
        while let Some(Reverse((_, i))) = heads.pop() {
            let t = self.queues[i].pop_front().expect("a queue with a head");
            each(&t);
            if let Some(ns) = head(&self.queues[i]) {
                heads.push(Reverse((ns, i)));
            }
        }
    }
}
