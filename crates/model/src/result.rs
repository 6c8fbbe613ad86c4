//! The result of one run, as written to JSON (schema `schema/run-result.v1.json`).

use crate::histogram::SecondHist;
use crate::job::JobSpec;
use crate::stats::data_dirs;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::facts::{HostFacts, TargetFacts, TargetMedium};
pub use crate::stats::DirStats;

/// Identifier and version of the run-result JSON format.
pub const RUN_SCHEMA: &str = "dbio.run/1";

/// Everything a run measured and knew about itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunResult {
    /// Always [`RUN_SCHEMA`].
    pub schema: String,
    pub dbio_version: String,
    /// Start of the measured window, RFC 3339 UTC.
    pub started_at: String,
    /// Length of the measured window in seconds (ramp excluded).
    pub measured_secs: f64,
    /// How the run ended.
    pub outcome: Outcome,
    /// True when the run did not reach its planned end (Ctrl-C or an error).
    pub partial: bool,
    pub job: JobSpec,
    pub engine: EngineInfo,
    pub data: DataInfo,
    pub host: HostFacts,
    pub targets: Vec<TargetFacts>,
    pub read: Option<DirStats>,
    pub write: Option<DirStats>,
    /// fsync/fdatasync calls, when `--sync fsync:N|fdatasync:N` was used.
    pub flush: Option<DirStats>,
    /// One row per second of the measured window.
    pub timeseries: Vec<TimePoint>,
    pub cpu: CpuStats,
    /// Each worker thread's reads and writes, thread 0 first (empty in results written
    /// before it was recorded, and in results merged from hosts or read from a database).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threads: Vec<crate::threads::ThreadStats>,
    pub warnings: Vec<Warning>,
    /// Session runs: the AWR-like report.
    #[serde(default)]
    pub session: Option<crate::session::SessionReport>,
    /// How settling before the measured window went, when `--steady` was given.
    #[serde(default)]
    pub steady: Option<SteadyState>,
    /// Each stream of a multi-stream profile on its own (empty for a single-stream run);
    /// `read`, `write` and `flush` above are then the totals over all streams, and `job`
    /// is the first stream's.
    #[serde(default)]
    pub streams: Vec<crate::streams::StreamResult>,
    /// What limited the run, judged from the run alone (no topology needed).
    #[serde(default)]
    pub verdict: Option<Verdict>,
    /// Start of the measured window in nanoseconds since the Unix epoch (0 in results
    /// written before it was recorded): what lines up the seconds of several hosts.
    #[serde(default)]
    pub started_unix_ns: u64,
    /// The run's `--label`, where it was given (also kept in the history).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A result merged from several hosts: the per-host table and how the hosts lined up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<crate::cluster::Cluster>,
    /// Write verification (`--verify`): blocks checked and bad blocks found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<crate::verify::VerifyReport>,
    /// A run through a real database (`dbio db run`): the database's, the device's and the
    /// client's figures. `read` then counts the database's physical reads, with the client's
    /// latency per operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<crate::db::DbReport>,
    /// A replayed trace (`dbio replay`): how closely the times were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<crate::replay::ReplayReport>,
    /// Where the latency went (`--device-latency`): the block layer's queue and device
    /// times of the targets' disks over the measured window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_latency: Option<crate::device_latency::DeviceLatencyReport>,
}

impl RunResult {
    /// Reads and writes (flushes are not I/Os of their own).
    fn data_dirs(&self) -> impl Iterator<Item = &DirStats> {
        data_dirs(&self.read, &self.write)
    }

    /// I/Os, reads and writes together.
    pub fn total_ios(&self) -> u64 {
        self.data_dirs().map(|d| d.ios).sum()
    }

    /// Bytes, reads and writes together.
    pub fn total_bytes(&self) -> u64 {
        self.data_dirs().map(|d| d.bytes).sum()
    }

    /// IOPS, reads and writes together.
    pub fn total_iops(&self) -> f64 {
        self.data_dirs().map(|d| d.iops).sum()
    }

    /// 10^6 bytes per second, reads and writes together.
    pub fn total_mb_s(&self) -> f64 {
        self.data_dirs().map(|d| d.mb_s).sum()
    }
}

/// What limited a run, with its evidence in plain words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    /// Stable code: load-generator, host-cpu, local-link, device-bandwidth,
    /// device-parallelism, queue-depth, rate, rate-not-kept, no-io (the null engine).
    pub limit: String,
    /// The verdict with its evidence.
    pub message: String,
}

/// The outcome of waiting for steady state before measuring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SteadyState {
    /// The criterion as given, e.g. "iops:2%" or "bw_slope:0.3%".
    pub criterion: String,
    pub window_secs: u32,
    pub max_secs: u32,
    /// True when the criterion held; false when measuring started at the cap.
    pub settled: bool,
    /// Seconds from the end of the ramp to the start of measuring.
    pub settle_secs: f64,
    /// Largest deviation of a sample from the last window's mean, in % of that mean.
    pub spread_pct: Option<f64>,
    /// Least-squares slope of the last window, in % of its mean per second.
    pub slope_pct: Option<f64>,
    /// Mean of the last window (IOPS, or bytes per second for bw).
    pub window_mean: Option<f64>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "status", content = "detail")]
pub enum Outcome {
    Complete,
    /// Stopped by SIGINT/SIGTERM.
    Interrupted,
    /// Ended by an I/O error; the message names the operation, target, offset and length.
    IoError(String),
}

/// The engine that ran and the features it could use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EngineInfo {
    /// "uring", "psync" or "null".
    pub name: String,
    /// Features in use, e.g. "registered-buffers", "defer-taskrun".
    pub features: Vec<String>,
    /// O_DIRECT in use.
    pub direct: bool,
    /// Whether the CPUs were held out of idle states while measuring, and how; null for
    /// results that did not record it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_idle: Option<String>,
}

/// What the bytes on the target and in every write were.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DataInfo {
    /// "random", "zeros", "pattern" or "reducible".
    pub kind: String,
    /// Plain-words description, e.g. "incompressible pseudo-random, every 4 KiB block unique".
    pub description: String,
    /// Per target: "prefilled by dbio", "existing content", ...
    pub prefill: Vec<String>,
    /// `reducible`: blocks written / unique blocks at `unit_bytes`.
    #[serde(default)]
    pub dedupe_ratio: Option<f64>,
    /// `reducible`: bytes of a unique block / its LZ4 or zstd-1 compressed bytes.
    #[serde(default)]
    pub compress_ratio: Option<f64>,
    /// `reducible`: the dedupe unit in bytes.
    #[serde(default)]
    pub unit_bytes: Option<u64>,
    /// `pattern`: the repeated bytes, as given (e.g. "0xdeadbeef").
    #[serde(default)]
    pub pattern: Option<String>,
    /// Existing content sampled before the run (targets dbio did not prefill in this run).
    #[serde(default)]
    pub sampled: Vec<ContentSample>,
}

/// What a sample of a target's existing content looked like (read before the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ContentSample {
    pub path: String,
    /// 4 KiB blocks read, spread evenly over the target.
    pub blocks: u64,
    /// Of those, blocks of all zeros or of one repeated byte (pattern removal, holes).
    pub pattern_blocks: u64,
    /// Sampled bytes / (LZ4 bytes of the other blocks): what pattern removal and
    /// compression would make of it (1.0 = irreducible).
    pub reduction: f64,
}

/// One second of the measured window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TimePoint {
    /// Seconds since the start of the measured window (end of this interval).
    pub t: f64,
    pub read_iops: f64,
    pub write_iops: f64,
    /// Read plus write, 10^6 bytes per second.
    pub mb_s: f64,
    /// p99 latency of all reads and writes completed in the interval, in µs.
    pub p99_us: f64,
    /// The interval's latency histogram (reads and writes) at two significant digits, encoded
    /// as HdrHistogram's interval logs do (V2, deflated, base64): hosts' seconds merge exactly
    /// from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hist: Option<SecondHist>,
}

/// CPU spent by dbio and by the host during the measured window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CpuStats {
    /// User CPU seconds of the dbio process (getrusage).
    pub process_user_s: f64,
    /// System CPU seconds of the dbio process (getrusage).
    pub process_sys_s: f64,
    /// Busy share of the whole host over the window, percent of all CPUs (/proc/stat).
    pub host_busy_pct: f64,
    /// I/Os per CPU-second of the dbio process.
    pub ios_per_cpu_s: f64,
    pub workers: Vec<WorkerCpu>,
    /// CPUs the dbio process was allowed to run on (its affinity mask).
    #[serde(default)]
    pub cpus_allowed: u32,
    /// Each CPU of the host over the window (/proc/stat), as DiskSpd's `CpuUtilization`
    /// reports each processor; empty where not measured (simulated runs, merged results).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_cpu: Vec<CpuShare>,
}

/// One CPU of the host over the measured window: the shares of its time in user code (with
/// nice), in the kernel (with interrupts) and idle (with I/O wait), in percent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CpuShare {
    /// The kernel's number of the CPU (`cpuN` in /proc/stat).
    pub id: u32,
    pub user_pct: f64,
    pub kernel_pct: f64,
    pub idle_pct: f64,
}

/// CPU use of one worker thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WorkerCpu {
    pub user_s: f64,
    pub sys_s: f64,
    /// (user + sys) / wall time, percent.
    pub busy_pct: f64,
    pub ios: u64,
}

/// Something the reader of a result must know; `code` is stable, `message` says what to try.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Warning {
    pub code: String,
    pub message: String,
}
