//! Where a run's latency went (`--device-latency`): from the block layer's own events for
//! the targets' devices while the run measured, per direction, the time a request waited in
//! the kernel before the driver had it and the device's own time, beside dbio's latency.

use crate::histogram::LatencySummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The block layer's view of a run's measured window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceLatencyReport {
    /// The whole disks traced ("loop0", "nvme0n1").
    pub devices: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<BlockLatency>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<BlockLatency>,
    /// Cache flushes the devices were sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flush: Option<BlockLatency>,
    /// Events the kernel's buffers lost: requests may be missing from these figures.
    pub lost_events: u64,
    /// The probe's own CPU time over the run, in percent of one CPU: its cost.
    pub probe_cpu_pct: f64,
}

/// One direction's requests as the block layer saw them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BlockLatency {
    /// Requests issued to the devices in the window and completed.
    pub requests: u64,
    /// Issue to the driver → completion: the device's own time, in ns.
    pub device_ns: LatencySummary,
    /// A bio's arrival in the block layer → its request's issue to the driver: the time in
    /// the kernel's queue, in ns (over `queued` requests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_ns: Option<LatencySummary>,
    /// Requests whose arrival was seen (the others were made by the kernel itself, such as
    /// flushes, or split from a larger one).
    pub queued: u64,
}
