//! What a result merged from several hosts adds: a row per host, the clocks, the spread.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the hosts of a merged result lined up and how each did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cluster {
    /// One row per host that produced a result, in the order given.
    pub hosts: Vec<HostRow>,
    /// Hosts that produced no result (unreachable, no dbio, failed before measuring).
    #[serde(default)]
    pub failed: Vec<HostFailure>,
    /// Start of the window every host measured, ns since the Unix epoch.
    pub window_start_unix_ns: u64,
    /// Length of that common window in seconds (the merged series covers it).
    pub window_secs: f64,
    /// Largest difference between two hosts' starts of measuring, in milliseconds.
    pub start_skew_ms: f64,
    /// Hosts' clock offsets against the launching host, measured before the start
    /// (empty for `dbio merge` of separate runs).
    #[serde(default)]
    pub clock_offsets: Vec<ClockOffset>,
    /// Workloads that differ were merged on purpose (`--allow-different`).
    #[serde(default)]
    pub different_workloads: bool,
    /// The slowest host and by how much.
    pub spread: Spread,
}

/// One host's figures in a merged result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HostRow {
    /// The host as it was named to `--hosts`, else the run's label, else its host name.
    pub name: String,
    /// The label the host's own result carries.
    #[serde(default)]
    pub label: Option<String>,
    pub hostname: String,
    pub read: Option<HostDir>,
    pub write: Option<HostDir>,
    /// dbio's process CPU over the window, percent of one CPU.
    pub cpu_pct: f64,
    /// The host's verdict (what limited it), if judged.
    pub verdict: Option<String>,
    /// The host's run did not reach its planned end.
    pub partial: bool,
    /// How the host's run ended: complete, interrupted, or the I/O error.
    pub outcome: String,
    /// I/Os the host kept outstanding at most (queue depth × threads of every stream; one per
    /// thread on psync): the cluster's are the sum of its hosts'.
    #[serde(default)]
    pub outstanding: Option<f64>,
    /// The seed the host drew its offsets and data from (each host of a fleet run its own).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The host's part of a region split among the hosts (`--split-region`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<crate::RegionSplit>,
    /// Start of this host's measured window against the earliest host's, in milliseconds.
    pub start_offset_ms: f64,
    /// The host's own warnings, as its result gave them (the merged result names each kind
    /// once, with the hosts it applies to).
    #[serde(default)]
    pub warnings: Vec<crate::Warning>,
    /// The block layer's queue and device times of the host's disks (`--device-latency`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_latency: Option<crate::device_latency::DeviceLatencyReport>,
}

/// One direction of one host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HostDir {
    pub ios: u64,
    pub iops: f64,
    pub mb_s: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub p99_9_us: f64,
}

/// A host that gave no result, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HostFailure {
    pub name: String,
    pub reason: String,
}

/// A host's clock against the launching host's, from the fastest of several round trips.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClockOffset {
    pub host: String,
    /// Remote clock minus local clock, milliseconds.
    pub offset_ms: f64,
    /// Round trip of the probe the offset came from, milliseconds (the offset's error bound
    /// is half of it).
    pub rtt_ms: f64,
}

/// Which host was slowest and by how much.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Spread {
    /// The host with the fewest IOPS (reads and writes).
    pub slowest: String,
    /// Its IOPS below the hosts' mean, percent.
    pub slowest_below_mean_pct: f64,
    /// The host with the highest p99 latency (reads and writes together).
    pub worst_p99: String,
    /// That p99 in µs.
    pub worst_p99_us: f64,
}
