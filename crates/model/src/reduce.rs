//! The result of `dbio reduce`: how much an array that removes patterns, deduplicates and
//! compresses would shrink the data read (schema `schema/reduce-result.v1.json`).
//! Ratios follow qdda: dedupe = used blocks / unique blocks, compression = unique bytes /
//! bytes after compression (and bucket rounding); pattern blocks are removed first.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Identifier and version of the reduce-result JSON format.
pub const REDUCE_SCHEMA: &str = "dbio.reduce/1";

/// Everything one `dbio reduce` read and estimated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReduceResult {
    /// Always [`REDUCE_SCHEMA`].
    pub schema: String,
    pub dbio_version: String,
    /// Exact (every fingerprint kept) or sampled (fingerprints with hash mod M == r).
    pub mode: ReduceMode,
    /// Bytes read from all sources (the logical size: holes of sparse files count).
    pub bytes_read: u64,
    /// Wall time of the scan in seconds.
    pub elapsed_secs: f64,
    /// CPU time of the whole process during the scan (user + system) in seconds.
    pub cpu_secs: f64,
    /// True when the scan stopped early (Ctrl-C); figures cover what was read.
    pub partial: bool,
    /// Every file or device that was read.
    pub sources: Vec<ReduceSource>,
    /// Paths that could not be read, with the OS error; the rest were still estimated.
    pub skipped: Vec<SkippedPath>,
    /// Things the reader should know: files that changed while read, symlinks not
    /// followed, reads that fell back from O_DIRECT to the page cache, the mode chosen.
    pub notes: Vec<String>,
    /// Thin-provisioning savings, shown beside the data reduction (not multiplied into it:
    /// the zero blocks it counts are already in pattern removal).
    pub thin: ThinSavings,
    /// One estimate per dedupe unit asked for.
    pub units: Vec<UnitEstimate>,
}

/// How fingerprints were kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReduceMode {
    /// Every fingerprint kept: dedupe ratios are exact (up to hash collisions).
    Exact,
    /// Only fingerprints with `hash mod modulus == residue` kept (1/modulus of the memory).
    Sampled { modulus: u64, residue: u64 },
}

/// One file or block device read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReduceSource {
    pub path: String,
    /// "file" or "device".
    pub kind: String,
    /// Bytes read (the apparent size of a file, the size of a device).
    pub bytes: u64,
    /// Bytes allocated on disk (st_blocks × 512) for files; equal to `bytes` for devices.
    pub allocated_bytes: u64,
    /// True when read with O_DIRECT, false when through the page cache.
    pub direct: bool,
    /// True when the file's size or modification time differed after reading it.
    pub changed: bool,
}

/// A path that could not be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SkippedPath {
    pub path: String,
    /// The OS error, as the OS words it.
    pub error: String,
}

/// Space that thin provisioning saves: for files, apparent minus allocated size; for
/// devices, the all-zero blocks of the smallest unit (an array allocates none for them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThinSavings {
    /// Bytes presented (file sizes, device sizes).
    pub presented_bytes: u64,
    /// Bytes that would be allocated without thin savings removed.
    pub saved_bytes: u64,
    /// saved / presented, 0..1.
    pub share: f64,
}

/// A figure with its confidence interval (equal to the figure in exact mode).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// Confidence of [low, high] (e.g. 0.99); 1.0 when exact.
    pub confidence: f64,
}

/// A compression ratio of unique blocks with one compressor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompressionEstimate {
    /// "lz4", "zstd-1", or "lz4+buckets:NAME" for bucket-rounded LZ4.
    pub method: String,
    /// Unique bytes / compressed bytes (each block compressed on its own, never counted
    /// larger than itself).
    pub ratio: Estimate,
    /// Unique blocks compressed.
    pub blocks: u64,
    /// Hoeffding bound: the stored share (compressed / raw) is within ± this of the
    /// whole data's with probability 0.999; 0 when every unique block was compressed.
    pub bound: f64,
}

/// The estimate at one dedupe unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnitEstimate {
    /// Dedupe unit in bytes.
    pub unit: u64,
    /// Blocks read (a tail shorter than the unit is padded with zeros).
    pub blocks: u64,
    /// Blocks of zeros only.
    pub zero_blocks: u64,
    /// Blocks of one repeated byte other than zero.
    pub pattern_blocks: u64,
    /// Blocks left after pattern removal (blocks − zero − pattern).
    pub used_blocks: u64,
    /// Distinct used blocks: exact count, or modulus × sampled distinct.
    pub unique_blocks: f64,
    /// Distinct fingerprints kept (all of them in exact mode).
    pub fingerprints_kept: u64,
    /// Bytes of the fingerprint table at its largest.
    pub table_bytes: u64,
    /// Birthday bound n²/2^129 of any two distinct blocks sharing a 128-bit fingerprint.
    pub collision_odds: f64,
    /// Share of blocks removed as patterns, 0..1.
    pub pattern_share: f64,
    /// used / unique.
    pub dedupe: Estimate,
    /// LZ4, zstd level 1 and bucket-rounded ratios, as asked.
    pub compression: Vec<CompressionEstimate>,
    /// Share of the size each step removes, in the order an array applies them (of what the
    /// step before left): pattern, dedupe, compression (the first compression listed).
    pub steps: ReductionSteps,
    /// blocks × unit / bytes stored: 1/(1 − pattern) × dedupe × compression.
    pub total: Estimate,
}

/// The shares seed 003 reports: pattern x %, dedupe y %, compression z %.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReductionSteps {
    pub pattern: f64,
    pub dedupe: f64,
    pub compression: f64,
}
