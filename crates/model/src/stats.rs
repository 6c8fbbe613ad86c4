//! The figures of one direction of I/O (read, write or flush): totals and latency.

use crate::histogram::latency::{LatencyHistogram, LatencySummary};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Totals and latency of one direction (read, write or flush).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DirStats {
    pub ios: u64,
    pub bytes: u64,
    pub iops: f64,
    /// 10^6 bytes per second.
    pub mb_s: f64,
    /// 2^20 bytes per second.
    pub mib_s: f64,
    /// Latency in nanoseconds from the HDR histogram.
    pub latency_ns: LatencySummary,
    pub histogram: LatencyHistogram,
}

/// The read and write figures that are there (flushes are not I/Os of their own).
pub(crate) fn data_dirs<'a>(
    read: &'a Option<DirStats>,
    write: &'a Option<DirStats>,
) -> impl Iterator<Item = &'a DirStats> {
    [read, write].into_iter().flatten()
}
