//! Flags of the commands whose flags are all their own words (no run of a job): `dbio path`,
//! `dbio reduce`, `dbio capture` and `dbio compare`.

use crate::out_args::{HistoryDb, Outputs, StoreArgs};
use clap::Args;

pub const PATH_HELP: &str = include_str!("../help/path.txt");

/// Flags of `dbio path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The topology TOML file.
    #[arg(value_name = "TOPOLOGY.toml")]
    pub topology: String,
    /// Also give the weakest hop and ceiling at these I/O sizes, e.g. 8k,64k,1m.
    #[arg(long, value_name = "SIZES")]
    pub io_size: Option<String>,
    /// Hold a measured run (id, label or JSON file) against the path.
    #[arg(long, value_name = "RUN")]
    pub run: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
    /// Write the result as JSON to FILE, or to stdout with '-'.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
}

pub const REDUCE_EXAMPLES: &str = include_str!("../help/reduce-examples.txt");

/// Flags of `dbio reduce`.
#[derive(Debug, Args)]
pub struct ReduceArgs {
    /// Files, directory trees (symlinks are not followed) and block devices to read.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Dedupe units: sizes from 1k to 128k, powers of two.
    #[arg(long, value_name = "SIZE,...", default_value = "8k,16k")]
    pub unit: String,
    /// Compressors to run on the unique blocks: lz4, zstd (level 1), both, or none.
    #[arg(long, value_name = "LIST", default_value = "lz4,zstd")]
    pub compress: String,
    /// Round each LZ4-compressed block up to an array's bucket sizes: a preset (xtremio,
    /// pure-like), a list (2k,4k,8k) or a range in steps of its start (1k..16k).
    #[arg(long, value_name = "PRESET|SIZES")]
    pub buckets: Option<String>,
    /// Compress a uniform sample of unique blocks instead of every one: as many as give the
    /// bound N samples give by Hoeffding's inequality (default N 38,005: ±1 % of the size at
    /// 99.9 %); from D unique blocks that takes about N·D/(N+D) (Serfling's bound for sampling
    /// without replacement), printed beside the figure.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "38005")]
    pub compress_sample: Option<u64>,
    /// Memory the fingerprint tables may take (exact mode needs up to 32 bytes per block);
    /// above it a sampled mode is chosen. Default: half of MemAvailable.
    #[arg(long, value_name = "SIZE")]
    pub mem: Option<String>,
    /// Sampled dedupe whatever the memory: keep fingerprints with hash mod M == seed mod M.
    #[arg(long, value_name = "M")]
    pub sample: Option<u64>,
    /// Seed of the fingerprint hash (and the sampled residue), to repeat or vary a sample.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads hashing and compressing (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Read through the page cache instead of O_DIRECT.
    #[arg(long)]
    pub buffered: bool,
    #[command(flatten)]
    pub out: Outputs,
    #[command(flatten)]
    pub store: StoreArgs,
}

pub const CAPTURE_HELP: &str = include_str!("../help/capture.txt");
/// Examples and notes of `dbio replay`.
pub const REPLAY_HELP: &str = include_str!("../help/replay.txt");

/// Flags of `dbio capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// A block device to capture (repeat for several), e.g. /dev/nvme0n1.
    #[arg(long = "device", value_name = "DEV")]
    pub devices: Vec<String>,
    /// Capture the device holding this folder or file (repeat for several).
    #[arg(long = "path", value_name = "DIR")]
    pub paths: Vec<String>,
    /// How long to capture, e.g. 30s, 10m, 2h (default: until Ctrl-C).
    #[arg(long, value_name = "TIME")]
    pub duration: Option<String>,
    /// The trace file to write (refused if it exists).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Summarise an existing trace instead of capturing.
    #[arg(long, value_name = "TRACE", conflicts_with_all = ["devices", "paths", "duration", "out"])]
    pub summary: Option<String>,
    /// Write a trace (--from) in another tool's format into --out: fio-iolog (fio's iolog
    /// version 3, for `fio --read_iolog`).
    #[arg(long, value_name = "FORMAT", value_parser = ["fio-iolog"], requires_all = ["from", "out"], conflicts_with_all = ["devices", "paths", "duration", "summary"])]
    pub export: Option<String>,
    /// Write a dbio profile of a trace (--from) into FILE: per device its sizes, read share,
    /// sequential share, skew, rate and flushes, for `dbio run --profile FILE`.
    #[arg(long, value_name = "FILE", requires = "from", conflicts_with_all = ["devices", "paths", "duration", "summary", "export", "out"])]
    pub profile: Option<String>,
    /// Convert other tools' traces into a dbio trace (--out): blktrace's per-CPU files (or
    /// the prefix given to `blktrace -o`) or fio's iolog v2/v3 (`write_iolog`).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "out", conflicts_with_all = ["devices", "paths", "duration", "summary", "export", "profile", "from"])]
    pub import: Vec<String>,
    /// The trace to export or to make a profile of.
    #[arg(long, value_name = "TRACE")]
    pub from: Option<String>,
    /// Attribute the requests to the files of this folder (a database's data folder on the
    /// captured device) through their extent maps: per-file reads and writes in the summary.
    #[arg(long, value_name = "DIR")]
    pub files: Option<String>,
    /// Write the summary as JSON to FILE, or to stdout with '-'.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Also write the summary as one HTML page with charts (requests over time, sizes, the
    /// skew curve, requests in flight) to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// No progress display.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Examples and notes of `dbio compare`.
pub const COMPARE_HELP: &str = include_str!("../help/compare.txt");

/// Flags of `dbio compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Runs by id, label (the newest with it) or JSON file; the first is A.
    #[arg(value_name = "RUN", num_args = 2.., required = true)]
    pub runs: Vec<String>,
    /// Device counts behind A and B, for the performance per device: A=75,B=6.
    #[arg(long, value_name = "A=N,B=M")]
    pub devices: Option<String>,
    /// Also write the comparison as one HTML page with the runs' histograms, percentile
    /// curves and IOPS over time overlaid.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
}
