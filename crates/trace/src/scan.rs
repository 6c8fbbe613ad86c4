//! One pass over a trace before it is replayed: how many requests each mapped device holds,
//! how far they reach, their sizes and mix, and the captured requests of each second.

use crate::event::Op;
use crate::format::open_file;
use crate::TraceError;
use std::collections::HashMap;

/// What a replay needs to know of a trace before it starts.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// The captured devices, in the header's order.
    pub devices: Vec<String>,
    /// Reads, writes and flushes of the mapped devices (what a replay issues).
    pub reads: u64,
    pub writes: u64,
    pub flushes: u64,
    /// Discards of the mapped devices (not replayed).
    pub discards: u64,
    /// Requests of devices no target was given for.
    pub unmapped: u64,
    /// For each mapped device, the furthest byte a request reached.
    pub reach: Vec<u64>,
    /// The largest request in bytes.
    pub max_bytes: u64,
    /// Bytes of reads and writes by size, most frequent first.
    pub sizes: Vec<(u64, u64)>,
    pub first_ns: u64,
    pub last_ns: u64,
    /// The sum of the requests' device latencies (for the mean in flight).
    pub busy_ns: u128,
    /// Reads and writes issued in each second from the first request.
    pub per_second: Vec<u64>,
    /// The trace ends without its end marker (a capture killed or a copy cut short).
    pub truncated: bool,
}

impl Scan {
    /// Requests a replay issues.
    pub fn requests(&self) -> u64 {
        self.reads + self.writes + self.flushes
    }

    /// The mean number of requests the device had in flight (Little's law).
    pub fn mean_in_flight(&self) -> f64 {
        let span = self.last_ns.saturating_sub(self.first_ns).max(1);
        self.busy_ns as f64 / span as f64
    }
}

/// Scans the trace at `path` whose device `i` is mapped when `mapped[i]`.
pub fn scan(path: &str, mapped: &[bool]) -> Result<Scan, String> {
    let mut rd = open_file(path)?;
    let mut s = Scan {
        devices: rd.header.devices.iter().map(|d| d.name.clone()).collect(),
        reach: vec![0; rd.header.devices.len()],
        ..Scan::default()
    };
    let mut sizes: HashMap<u64, u64> = HashMap::new();
    let mut first = None;
    loop {
        let r = match rd.next_record() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(TraceError::Truncated(_)) => {
                s.truncated = true;
                break;
            }
            Err(e) => return Err(format!("{path}: {e}")),
        };
        if !mapped.get(r.device as usize).copied().unwrap_or(false) {
            s.unmapped += 1;
            continue;
        }
        match r.op {
            Op::Read => s.reads += 1,
            Op::Write => s.writes += 1,
            Op::Flush => s.flushes += 1,
            Op::Discard => {
                s.discards += 1;
                continue;
            }
        }
        let t0 = *first.get_or_insert(r.issue_ns);
        s.last_ns = r.issue_ns;
        s.busy_ns += u128::from(r.latency_ns);
        let second = (r.issue_ns.saturating_sub(t0) / 1_000_000_000) as usize;
        if second < 10_000_000 && r.op != Op::Flush {
            if s.per_second.len() <= second {
                s.per_second.resize(second + 1, 0);
            }
            s.per_second[second] += 1;
        }
        if r.op != Op::Flush {
            let reach = &mut s.reach[r.device as usize];
            *reach = (*reach).max((r.sector + u64::from(r.sectors)) * 512);
            s.max_bytes = s.max_bytes.max(r.bytes());
            *sizes.entry(r.bytes()).or_default() += 1;
        }
    }
    s.first_ns = first.unwrap_or(0);
    s.sizes = sizes.into_iter().collect();
    s.sizes
        .sort_by_key(|&(size, n)| (std::cmp::Reverse(n), size));
    Ok(s)
}
