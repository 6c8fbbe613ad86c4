//! `dbio capture`: the block layer's issue and completion events of chosen devices, read
//! from a tracing instance's per-CPU buffers, merged in time order, paired into requests
//! and streamed to a trace file, in flat memory for any length.

use crate::device::Device;
use crate::event::kernel_dev;
use crate::format::{Header, TraceDevice, TraceWriter, Trailer, VERSION};
use crate::pair::Pairing;
use crate::tracing::{BlockTracing, Stage, SLACK_NS};
use crate::TraceError;
use dbio_engine::sys::monotonic_ns;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the buffers are read.
const POLL: Duration = Duration::from_millis(100);
/// A request in flight this long has lost its completion.
pub(crate) const GIVE_UP_NS: u64 = 60_000_000_000;
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

impl CaptureOptions {
    /// The devices as "major:minor".
    pub fn device_numbers(&self) -> Vec<String> {
        (self.devices.iter())
            .map(|d| format!("{}:{}", d.major, d.minor))
            .collect()
    }
}

/// Where a capture stands, for a progress display.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    pub elapsed: Duration,
    pub requests: u64,
    pub lost_events: u64,
}

/// Captures into `out` until the duration ends or `stop` is set; returns the trailer
/// written. `progress` is called after each read of the buffers.
pub fn capture<W: Write>(
    opts: &CaptureOptions,
    out: W,
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress),
) -> Result<Trailer, TraceError> {
    let stages = [Stage::Issue, Stage::Complete];
    let mut tracing = BlockTracing::start("dbio-capture", &opts.devices, &stages, BUFFER_KB)?;
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
            tracing.stop()?;
        }
        let bar = if done { u64::MAX } else { now - SLACK_NS };
        tracing.drain(bar, |t| {
            match (t.stage, index.iter().position(|&d| d == t.event.dev)) {
                (Stage::Issue, Some(d)) => pairing.issue(t.ns, d as u32, t.event),
                (Stage::Complete, Some(_)) => pairing.complete(t.ns, t.event),
                _ => {}
            }
        })?;
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
            lost_events: tracing.lost_events(),
        });
        if done {
            break interrupted;
        }
    };
    let trailer = Trailer {
        requests: writer.requests,
        end_ns: monotonic_ns().min(end.unwrap_or(u64::MAX)),
        lost_events: tracing.lost_events(),
        unmatched_completions: pairing.unmatched_completions,
        in_flight_at_end: pairing.in_flight(),
        interrupted,
    };
    drop(tracing);
    writer.finish(&trailer)?.flush()?;
    Ok(trailer)
}
