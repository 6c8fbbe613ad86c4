//! Facts of the host that ran a workload and of its targets, as results record them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Facts of the machine that ran the workload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct HostFacts {
    pub hostname: String,
    pub cpu_model: String,
    pub cpus: u32,
    pub memory_bytes: u64,
    pub kernel: String,
}

/// Facts of one target and the block device under it, from sysfs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
pub struct TargetFacts {
    pub path: String,
    /// "file" or "block".
    pub kind: String,
    pub size_bytes: u64,
    /// Block device holding the target (the device itself for "block"), e.g. "nvme0n1".
    pub device: Option<String>,
    pub logical_block_size: Option<u64>,
    pub physical_block_size: Option<u64>,
    pub rotational: Option<bool>,
    /// Active I/O scheduler, e.g. "none" or "mq-deadline".
    pub scheduler: Option<String>,
    pub nr_requests: Option<u64>,
    /// "write back" or "write through".
    pub write_cache: Option<String>,
    /// PCIe link of the device's controller, when sysfs shows one: generation and lanes.
    #[serde(default)]
    pub pcie_gen: Option<u8>,
    #[serde(default)]
    pub pcie_lanes: Option<u8>,
    /// What holds the target's data when dbio can tell it is not storage (a file on tmpfs,
    /// a zram device, a loop device over a file in memory); null otherwise.
    #[serde(default)]
    pub medium: Option<TargetMedium>,
}

/// What holds a target's data, and how dbio knows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TargetMedium {
    /// "memory".
    pub kind: String,
    /// What keeps it there: "tmpfs", "ramfs", "zram" or "brd" (a RAM disk).
    pub via: String,
    /// The evidence, e.g. "loop3's backing file /dev/shm/disk.img is on tmpfs (statfs)".
    pub reason: String,
}

impl TargetMedium {
    /// The medium in a few words: "memory (tmpfs)".
    pub fn describe(&self) -> String {
        format!("{} ({})", self.kind, self.via)
    }
}
