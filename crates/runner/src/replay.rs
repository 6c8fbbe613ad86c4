//! A trace's requests as a worker's I/O (`dbio replay`): read from the trace as they are
//! needed (flat memory for any length), each captured device's requests sent to its target,
//! offsets beyond the target folded into it, discards left out.

use crate::pattern::NextIo;
use dbio_engine::OpKind;
use dbio_model::replay::ReplaySpec;
use dbio_trace::event::Op;
use dbio_trace::format::TraceReader;
use std::fs::File;
use std::io::BufReader;

/// One request of the trace, due `due_ns` after the first (times divided by the speed).
#[derive(Debug, Clone, Copy)]
pub struct TimedIo {
    pub due_ns: u64,
    pub io: NextIo,
}

/// The trace read request by request for a worker.
pub struct TraceFeed {
    reader: TraceReader<BufReader<File>>,
    /// The target of each captured device (None: not replayed).
    targets: Vec<Option<u32>>,
    speed: f64,
    first_ns: Option<u64>,
    /// The targets' usable region.
    region: (u64, u64),
    /// Requests folded into the region, and discards left out.
    pub folded: u64,
    pub discards: u64,
    /// Why the trace stopped being read before its end, if it did.
    pub error: Option<String>,
}

impl TraceFeed {
    /// Opens the trace of `spec` for targets whose usable region is `region`.
    pub fn open(spec: &ReplaySpec, region: (u64, u64)) -> Result<Self, String> {
        let reader = dbio_trace::format::open_file(&spec.trace)?;
        let targets = reader
            .header
            .devices
            .iter()
            .map(|d| {
                let i = spec.devices.iter().position(|n| *n == d.name);
                i.map(|i| i as u32)
            })
            .collect();
        Ok(TraceFeed {
            reader,
            targets,
            speed: spec.speed,
            first_ns: None,
            region,
            folded: 0,
            discards: 0,
            error: None,
        })
    }

    /// The next request to replay; None at the trace's end (or where it breaks off).
    pub fn next_io(&mut self) -> Option<TimedIo> {
        loop {
            let r = match self.reader.next_record() {
                Ok(Some(r)) => r,
                Ok(None) => return None,
                Err(e) => {
                    self.error = Some(e.to_string());
                    return None;
                }
            };
            let Some(&Some(target)) = self.targets.get(r.device as usize) else {
                continue;
            };
            let kind = match r.op {
                Op::Read => OpKind::Read,
                Op::Write => OpKind::Write,
                Op::Flush => OpKind::Fdatasync,
                Op::Discard => {
                    self.discards += 1;
                    continue;
                }
            };
            let first = *self.first_ns.get_or_insert(r.issue_ns);
            let due_ns = (r.issue_ns.saturating_sub(first) as f64 / self.speed) as u64;
            let (offset, len) = if kind == OpKind::Fdatasync {
                (0, 0)
            } else {
                self.place(r.sector * 512, r.bytes())
            };
            let io = NextIo {
                kind,
                target,
                offset,
                len,
            };
            return Some(TimedIo { due_ns, io });
        }
    }

    /// Where a request of `len` bytes at `offset` goes in the region: as captured when it
    /// fits, else folded (offset modulo the region's length, aligned down to 4 KiB, or to
    /// 512 bytes for a request that was not 4 KiB aligned, and kept inside the end).
    fn place(&mut self, offset: u64, len: u64) -> (u64, u32) {
        let (start, end) = self.region;
        let room = end - start;
        let len = len.min(room);
        if offset + len <= room {
            return (start + offset, len as u32);
        }
        self.folded += 1;
        let align = if offset.is_multiple_of(4096) && len.is_multiple_of(4096) {
            4096
        } else {
            512
        };
        let at = (offset % room).min(room - len) / align * align;
        (start + at, len as u32)
    }
}
