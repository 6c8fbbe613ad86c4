//! What `advise` is told besides the objects: the flash budget and where latency comes from.

use super::devices::Device;

/// Where the latency on flash comes from.
#[derive(Debug, Clone)]
pub enum Latency {
    /// Assumed mean latency of the flash device (ms); each object's current latency is the
    /// source's own (stall / I/Os).
    Assumed { flash_ms: f64 },
    /// A measured flash device; with a measured current device the saving uses the two
    /// devices' ratio, else the source's own latency as the current one.
    Measured {
        flash: Device,
        current: Option<Device>,
    },
}

/// What the analysis needs besides the objects.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--flash SIZE` in bytes.
    pub budget: Option<u64>,
    pub latency: Latency,
    /// Share of the time spent waiting on I/O, and where it came from.
    pub io_wait_share: Option<(f64, String)>,
}
