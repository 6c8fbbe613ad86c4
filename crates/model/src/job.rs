//! The validated, typed description of one run: what every part downstream of the CLI reads.

use crate::sim::SimDevice;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Access pattern of a run. `readwrite` is sequential reads and writes mixed by the read
/// share, each direction walking the region from its start with its own cursor (fio's rw=rw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Rw {
    Read,
    Write,
    RandRead,
    RandWrite,
    RandRw,
    ReadWrite,
}

impl Rw {
    /// The name `--rw` takes (and fio's `rw=`, which takes these too).
    pub fn name(self) -> &'static str {
        match self {
            Rw::Read => "read",
            Rw::Write => "write",
            Rw::RandRead => "randread",
            Rw::RandWrite => "randwrite",
            Rw::RandRw => "randrw",
            Rw::ReadWrite => "readwrite",
        }
    }

    /// True for the random patterns.
    pub fn is_random(self) -> bool {
        matches!(self, Rw::RandRead | Rw::RandWrite | Rw::RandRw)
    }
    /// True when the pattern writes at all.
    pub fn writes(self) -> bool {
        matches!(self, Rw::Write | Rw::RandWrite | Rw::RandRw | Rw::ReadWrite)
    }
    /// True for the patterns that mix reads and writes by a read share (`--mix`).
    pub fn is_mixed(self) -> bool {
        matches!(self, Rw::RandRw | Rw::ReadWrite)
    }
}

/// One entry of the block-size distribution: I/Os of `size` bytes get `weight` shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BsWeight {
    pub size: u64,
    pub weight: u32,
}

/// When a worker stops measuring.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopAfter {
    /// Measure for this many seconds after the ramp.
    Seconds(f64),
    /// Stop after this many I/Os in total (all workers).
    Ops(u64),
    /// Stop after this many bytes in total (all workers).
    Bytes(u64),
}

/// How writes are made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "mode", content = "every")]
pub enum SyncMode {
    /// Nothing beyond the write itself.
    None,
    /// The target is opened with O_DSYNC: every write is durable when it completes.
    Dsync,
    /// An fdatasync after every N writes; the Nth write's latency includes it.
    Fdatasync(u32),
    /// An fsync after every N writes; the Nth write's latency includes it.
    Fsync(u32),
}

/// Which I/O engine does the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// io_uring, one ring per worker (Linux).
    Uring,
    /// pread/pwrite, one I/O at a time per worker.
    Psync,
    /// Everything but the I/O: measures dbio's own overhead.
    Null,
    /// No I/O at all: a modelled device in virtual time (`JobSpec::sim`).
    Sim,
}

/// How an open-loop run (`--rate`) spaces its I/Os.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "lowercase")]
pub enum Arrivals {
    /// Evenly spaced, one every 1/rate.
    #[default]
    Uniform,
    /// A Poisson process: exponential gaps with mean 1/rate (as independent users arrive).
    Poisson,
}

/// What the data written (and prefilled) looks like.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DataKind {
    /// Incompressible pseudo-random bytes; every 4 KiB block written is unique.
    Random,
    /// All zero bytes: a reducing array will dedupe and compress it away.
    Zeros,
    /// One byte pattern repeated (`--data pattern:0xHH…`), e.g. "0xdeadbeef".
    Pattern(String),
    /// Data of a chosen reducibility (`--data dedupe:R,compress:C,unit:SIZE`).
    Reducible(Reducibility),
}

/// How reducible the written data is: the stream dedupes by `dedupe` at `unit`, and its
/// unique blocks compress by `compress` (with LZ4 and with zstd level 1).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reducibility {
    /// Blocks written / unique blocks (1 = every block unique).
    pub dedupe: f64,
    /// Bytes of a unique block / its compressed bytes (1 = incompressible).
    pub compress: f64,
    /// The dedupe unit in bytes (4 KiB to 128 KiB, a power of two).
    pub unit: u64,
}

impl DataKind {
    /// The kind's name as results report it: random, zeros, pattern or reducible.
    pub fn name(&self) -> &'static str {
        match self {
            DataKind::Random => "random",
            DataKind::Zeros => "zeros",
            DataKind::Pattern(_) => "pattern",
            DataKind::Reducible(_) => "reducible",
        }
    }

    /// The bytes of a `Pattern` ("0x" and two hex digits a byte); empty for other kinds.
    pub fn pattern_bytes(&self) -> Vec<u8> {
        let DataKind::Pattern(hex) = self else {
            return Vec::new();
        };
        let h = hex.trim_start_matches("0x").trim_start_matches("0X");
        (0..h.len() / 2)
            .filter_map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).ok())
            .collect()
    }
}

/// How random offsets are spread over the region. The hottest blocks lie at its start.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Skew {
    /// Every aligned position equally likely.
    Uniform,
    /// Position k (from the start) has weight 1/(k+1)^theta.
    Zipf { theta: f64 },
    /// As fio's pareto: position = (N−1)·u^(ln h / ln(1−h)); h = 0.2 sends 80 % of the I/O to the first 20 %.
    Pareto { h: f64 },
    /// `io_pct` % of the I/Os (an exact quota per 100) go to the first `region_pct` % of the region.
    Hotspot { io_pct: u8, region_pct: u8 },
}

/// The region of each target that I/O may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Region {
    /// First byte of the region.
    pub offset: u64,
    /// Length of the region; None means to the end of the target.
    pub range: Option<u64>,
    /// Only this host's part of the region, when several hosts share one device
    /// (`--split-region`); None: the whole region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<RegionSplit>,
}

/// One host's part of a region shared by several: the `part`-th (from 1) of `parts` equal
/// parts, each a whole number of alignment units (as elbencho's and vdbench's hosts each
/// take their own slice of a shared device).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RegionSplit {
    pub part: u32,
    pub parts: u32,
}

impl RegionSplit {
    /// The part of `[start, end)` this split keeps, with every part `align`-sized units long.
    pub fn of(&self, start: u64, end: u64, align: u64) -> (u64, u64) {
        let len = (end - start) / u64::from(self.parts.max(1)) / align.max(1) * align.max(1);
        let from = start + u64::from(self.part.saturating_sub(1)) * len;
        (from, from + len)
    }
}

/// A run, fully validated: nothing downstream re-checks these values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JobSpec {
    /// The profile the settings started from: a built-in name or a file path.
    pub profile: String,
    /// Files or block devices; I/O is spread evenly across them.
    pub targets: Vec<String>,
    /// Size for a file dbio creates or resizes (`--size`); None: 1 GiB, or the existing size.
    pub file_size: Option<u64>,
    pub rw: Rw,
    /// Share of reads in percent (100 for read patterns, 0 for write patterns).
    pub read_pct: u8,
    pub bs: Vec<BsWeight>,
    /// Alignment of every offset, in bytes.
    pub align: u64,
    /// Outstanding I/Os per worker.
    pub qd: u32,
    pub threads: u32,
    /// Seconds run before measuring starts (excluded from the results).
    pub ramp_secs: f64,
    pub stop: StopAfter,
    pub region: Region,
    /// Spread of random offsets (sequential patterns ignore it).
    pub skew: Skew,
    pub sync: SyncMode,
    /// Open-loop rate in IOPS for the whole job; None means closed loop by queue depth.
    pub rate: Option<u64>,
    pub engine: EngineKind,
    /// O_DIRECT (true by default).
    pub direct: bool,
    /// Buffered runs: the targets' pages are dropped from the page cache before measuring
    /// (`--invalidate`, fio's `invalidate=1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub invalidate: bool,
    /// io_uring polled completions (IORING_SETUP_IOPOLL).
    pub hipri: bool,
    /// io_uring kernel submission thread (IORING_SETUP_SQPOLL).
    pub sqpoll: bool,
    /// Trace the targets' disks in the block layer while measuring (`--device-latency`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub device_latency: bool,
    /// Whether the CPUs may enter idle states while measuring (`--cpu-idle`).
    #[serde(default)]
    pub cpu_idle: CpuIdle,
    pub data: DataKind,
    /// The user allowed writes to a device or a file dbio did not create.
    pub destroy_data: bool,
    /// Seed of every pseudo-random choice, so a run can be repeated.
    pub seed: u64,
    /// Session mode (`--sessions`): the SLOB method instead of queue-depth workers.
    #[serde(default)]
    pub session: Option<crate::session::SessionSpec>,
    /// Wait for IOPS or bandwidth to settle (after the ramp) before measuring (`--steady`).
    #[serde(default)]
    pub steady: Option<Steady>,
    /// Issue I/O only in the first part of every period (`--burst ON/PERIOD`).
    #[serde(default)]
    pub burst: Option<Burst>,
    /// Spacing of open-loop I/Os (`--arrivals`).
    #[serde(default)]
    pub arrivals: Arrivals,
    /// The modelled device of `--engine sim`; None for real engines.
    #[serde(default)]
    pub sim: Option<SimDevice>,
    /// Write verification (`--verify`): every block written carries a checked header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<crate::verify::VerifySpec>,
    /// A trace replayed (`dbio replay`): the trace gives every request and its time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<crate::replay::ReplaySpec>,
}

/// What a steady-state criterion watches, per second, summed over all workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SteadyMetric {
    Iops,
    /// Bytes per second.
    Bw,
}

/// How a steady-state criterion judges the window (as fio's steadystate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SteadyTest {
    /// Every sample of the window lies within `limit_pct` % of the window's mean.
    Spread,
    /// The least-squares slope over the window, in % of the mean per second, is below `limit_pct`.
    Slope,
}

/// Steady state before measuring: the criterion, its window and the cap on settling.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Steady {
    pub metric: SteadyMetric,
    pub test: SteadyTest,
    /// The limit in percent of the window's mean; the criterion holds strictly below it.
    pub limit_pct: f64,
    /// Seconds of per-second samples the criterion is judged over.
    pub window_secs: u32,
    /// Longest settling time in seconds; measuring starts then even if not settled.
    pub max_secs: u32,
}

/// Bursts: I/O is issued during the first `on_secs` of every `period_secs`, none the rest.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Burst {
    pub on_secs: f64,
    pub period_secs: f64,
}

impl Burst {
    /// Seconds of burst ("on" time) in the first `span` seconds of the timeline.
    pub fn on_time(&self, span: f64) -> f64 {
        let periods = (span / self.period_secs).floor();
        periods * self.on_secs + (span - periods * self.period_secs).min(self.on_secs)
    }
}

impl JobSpec {
    /// Largest block size in the distribution.
    pub fn max_bs(&self) -> u64 {
        self.bs.iter().map(|b| b.size).max().unwrap_or(0)
    }
    /// Smallest block size in the distribution.
    pub fn min_bs(&self) -> u64 {
        self.bs.iter().map(|b| b.size).min().unwrap_or(0)
    }
}

/// Whether the CPUs may enter idle states while a run measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CpuIdle {
    /// Held awake (PM QoS at 0 µs): a completion is not charged with a CPU's wake-up from
    /// idle, so low-depth latency is the device's and the kernel's, not the power manager's.
    #[default]
    Poll,
    /// Left to the power manager, as the machine runs otherwise.
    Allow,
}
