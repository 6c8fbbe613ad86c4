//! What `dbio capture --summary` says of a trace: per device and direction, what the
//! device was asked (counts, rates, sizes, sequential share, spatial skew), how long it
//! took (HDR percentiles of the device's latency), how many requests were in flight, and
//! how complete the capture was.

use crate::histogram::LatencySummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const CAPTURE_SCHEMA: &str = "dbio.capture/1";

/// A trace's summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaptureSummary {
    pub schema: String,
    pub dbio_version: String,
    /// When the capture began (RFC 3339 UTC).
    pub started_at: String,
    /// Seconds from the start of the capture to its end (or its last request).
    pub seconds: f64,
    /// Seconds from the first request's issue to the last's: the time there was a load.
    #[serde(default)]
    pub active_seconds: f64,
    pub requests: u64,
    /// The trace ends with its trailer (a capture that was killed, or a file cut short,
    /// does not: its figures cover the requests up to the cut).
    pub complete: bool,
    /// Ended by Ctrl-C before its duration.
    pub interrupted: bool,
    /// Events the kernel's buffers lost: requests may be missing from the figures.
    pub lost_events: u64,
    /// Completions without an issue in the trace (issued before the capture began).
    pub unmatched_completions: u64,
    /// Requests in flight at the end (not in the trace).
    pub in_flight_at_end: u64,
    /// Set when the trace was converted from another tool's format (what it lacks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
    pub devices: Vec<DeviceCapture>,
    /// The requests attributed to the files of a folder (`--files DIR`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<FilesCapture>,
}

/// A device's requests attributed to the files under a folder through their extent maps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FilesCapture {
    pub dir: String,
    /// Files with requests, busiest first.
    pub files: Vec<FileIo>,
    /// Files under the folder without a request.
    pub idle_files: u64,
    /// Reads and writes on the folder's device that no file under it holds (file system
    /// metadata, its journal, other files).
    pub outside: u64,
    /// Files whose extents could not be read (their names, at most ten).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmapped: Vec<String>,
}

/// One file's reads and writes as the device saw them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FileIo {
    /// Its path under the folder.
    pub path: String,
    pub size_bytes: u64,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// The device's time on its reads and writes, in ms (none for a trace without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_ms: Option<f64>,
}

/// A trace dbio converted from another tool's files rather than captured itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Imported {
    /// "blktrace" (version 7 or 8), "fio iolog v2" or "fio iolog v3".
    pub from: String,
    pub files: Vec<String>,
    /// The requests carry their issue times (fio's iolog v2 has none: only their order).
    pub times: bool,
    /// The requests carry the device's latency (fio's iologs have none).
    pub latencies: bool,
}

/// One device's requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceCapture {
    pub name: String,
    /// "major:minor".
    pub dev: String,
    pub size_bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read: Option<OpCapture>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<OpCapture>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<OpCapture>,
    /// Cache flushes (requests without data) and their latency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flush: Option<OpCapture>,
    /// Writes that went through the device's cache (FUA) and writes preceded by a flush.
    pub fua_writes: u64,
    pub preflush_writes: u64,
    /// Reads as a share of reads and writes, in percent.
    pub read_pct: f64,
    /// Requests in flight on the device as each one was issued (itself included); none
    /// for a trace without device latencies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<InFlight>,
    /// Reads, writes, discards and flushes together, second by second.
    #[serde(flatten)]
    pub rates: Rates,
    /// The skew curve of reads and writes: (percent of the device, hottest first; percent
    /// of the requests landing in it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skew_curve: Vec<(f64, f64)>,
    /// How many requests were issued with each number in flight (itself included).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_flight_counts: Vec<(u64, u64)>,
}

/// Requests second by second: the busiest second, the 95th percentile second, the busiest
/// minute and the series over the capture (none of them for a trace without times).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Rates {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_iops: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p95_iops: Option<u64>,
    /// The busiest 60 seconds (the whole trace when shorter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_minute: Option<PeakMinute>,
    /// Requests per second over the capture, at most 3,600 points: each the mean of
    /// `series_step_s` seconds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub iops_series: Vec<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mb_s_series: Vec<f64>,
    #[serde(default)]
    pub series_step_s: u64,
}

/// The busiest minute of a device: where it starts and its mean rate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PeakMinute {
    /// Seconds from the start of the capture.
    pub start_s: u64,
    pub iops: f64,
    pub mb_s: f64,
}

/// One operation's requests on one device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OpCapture {
    pub ios: u64,
    pub bytes: u64,
    /// Rates over the capture (none for a trace without times).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mb_s: Option<f64>,
    /// This operation's requests second by second.
    #[serde(flatten)]
    pub rates: Rates,
    /// Requests starting where the previous one of the same operation on the device ended.
    pub sequential_pct: f64,
    /// The commonest request sizes, most frequent first (at most eight).
    pub sizes: Vec<SizeShare>,
    /// Shares of the requests landing in the hottest 1, 5 and 20 % of the device.
    pub hottest_1_pct: f64,
    pub hottest_5_pct: f64,
    pub hottest_20_pct: f64,
    /// The device's latency: issue to completion, in ns (none for a trace without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ns: Option<LatencySummary>,
}

/// Requests of one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SizeShare {
    pub bytes: u64,
    pub ios: u64,
    pub pct: f64,
}

/// The distribution of requests in flight.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InFlight {
    pub mean: f64,
    pub p50: u64,
    pub p99: u64,
    pub max: u64,
}
