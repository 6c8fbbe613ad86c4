//! `dbio reduce`: one pass over files, trees and block devices that estimates what an array
//! removing patterns, deduplicating and compressing would store (see reference.md "Data
//! reduction" for the ratios and the sampling).

#![forbid(unsafe_code)]

pub mod block;
pub mod cursor;
pub mod flags;
pub mod sample;
pub mod scan;
pub mod sources;
pub mod table;

use block::CompressSpec;
use dbio_analyze::reduce as math;
use dbio_model::reduce::{
    CompressionEstimate, ReduceMode, ReduceResult, ThinSavings, UnitEstimate, REDUCE_SCHEMA,
};
use scan::{ScanOutput, ScanPlan};
use std::sync::atomic::AtomicBool;

/// Worst-case bytes of exact mode per block: every block unique, table at its emptiest.
pub const BYTES_PER_FINGERPRINT: u64 = 32;

/// What `dbio reduce` was asked to do.
#[derive(Debug, Clone)]
pub struct ReduceOptions {
    /// Dedupe units in bytes.
    pub units: Vec<u64>,
    pub compress: CompressSpec,
    /// Name of the bucket sizes (preset or as given), when rounding.
    pub buckets_name: Option<String>,
    /// Compress a uniform sample of this many unique blocks instead of all of them.
    pub compress_sample: Option<u64>,
    /// Memory the fingerprint tables may take; more forces sampled mode.
    pub mem: u64,
    /// Sampled mode with this modulus, whatever the memory.
    pub sample: Option<u64>,
    pub seed: u64,
    pub threads: usize,
    /// Read through the page cache instead of O_DIRECT.
    pub buffered: bool,
}

/// What the pass reports while it runs.
pub enum ReduceEvent<'a> {
    /// Reading starts: bytes to read in all.
    Start { total: u64 },
    /// Bytes read so far.
    Progress { done: u64 },
    /// Something the user should see at once.
    Notice(&'a str),
}

/// Why `dbio reduce` gave no estimate.
#[derive(Debug)]
pub enum ReduceError {
    /// The paths gave not one byte to read (empty files, /proc files, missing paths, empty
    /// trees): the message names each and what to give instead.
    NothingToRead(String),
    /// Reading could not start (e.g. a compressor could not be set up).
    Io(std::io::Error),
}

impl std::fmt::Display for ReduceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReduceError::NothingToRead(m) => f.write_str(m),
            ReduceError::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReduceError {}

impl From<std::io::Error> for ReduceError {
    fn from(e: std::io::Error) -> Self {
        ReduceError::Io(e)
    }
}

/// The one line saying that `paths` gave nothing to read, with why (`reasons`, each naming
/// its path) and what to do.
fn nothing_to_read(paths: &[String], reasons: &[String]) -> ReduceError {
    let why: Vec<&str> = reasons
        .iter()
        .map(|r| r.trim_end_matches("; nothing to read"))
        .collect();
    let why = if why.is_empty() {
        paths.join(", ")
    } else {
        why.join("; ")
    };
    ReduceError::NothingToRead(format!(
        "nothing to read, so no estimate was made or stored: {why}. Give files, directory trees or block devices that hold data (copy a /proc or /sys file to a regular file first)"
    ))
}

/// Why the paths gave nothing: each skipped path with its error, the listing's notes, and
/// after a pass its own skips and notes and the sources that read 0 bytes.
fn reasons(list: &sources::Listing, out: Option<&ScanOutput>) -> Vec<String> {
    let skipped = out.map_or(&[][..], |o| &o.skipped[..]);
    let notes = out.map_or(&[][..], |o| &o.notes[..]);
    let mut why: Vec<String> = list
        .skipped
        .iter()
        .chain(skipped)
        .map(|k| format!("{}: {}", k.path, k.error))
        .chain(list.notes.iter().chain(notes).cloned())
        .collect();
    for s in out.map_or(&[][..], |o| &o.sources[..]) {
        let named = format!("{}: ", s.path);
        if s.bytes == 0 && !why.iter().any(|r| r.starts_with(&named)) {
            why.push(format!("{}: read 0 bytes", s.path));
        }
    }
    why
}

/// Lists the sources of `paths`, reads them once and returns the estimate; paths that give
/// not one byte to read are an error, not an estimate of nothing.
pub fn reduce(
    paths: &[String],
    o: &ReduceOptions,
    stop: &AtomicBool,
    on: &mut dyn FnMut(ReduceEvent),
) -> Result<ReduceResult, ReduceError> {
    let list = sources::list(paths);
    if list.sources.is_empty() {
        return Err(nothing_to_read(paths, &reasons(&list, None)));
    }
    let mut notes = list.notes.clone();
    let total: u64 = list.sources.iter().map(|s| s.size).sum();
    let mut units: Vec<u64> = o.units.clone();
    units.sort_unstable();
    units.dedup();
    let blocks: u64 = units
        .iter()
        .map(|&u| list.sources.iter().map(|s| s.size.div_ceil(u)).sum::<u64>())
        .sum();
    let need = blocks * BYTES_PER_FINGERPRINT;
    let modulus = match o.sample {
        Some(m) => m.max(1),
        None if need > o.mem => {
            let m = need.div_ceil(o.mem.max(1));
            let msg = format!(
                "exact mode would need up to {} for {blocks} fingerprints, more than --mem {}: sampled mode keeps those with hash mod {m} == {} (1/{m} of the memory)",
                dbio_model::units::format_size(need),
                dbio_model::units::format_size(o.mem),
                o.seed % m
            );
            on(ReduceEvent::Notice(&msg));
            notes.push(msg);
            m
        }
        None => 1,
    };
    let plan = ScanPlan {
        units: units.iter().map(|&u| u as usize).collect(),
        compress: o.compress.clone(),
        compress_sample: o.compress_sample.map(|k| k as usize),
        modulus,
        residue: o.seed % modulus,
        seed: o.seed,
        threads: o.threads,
        buffered: o.buffered,
    };
    on(ReduceEvent::Start { total });
    let t0 = std::time::Instant::now();
    let cpu0 = dbio_engine::sys::process_cpu();
    let mut out = scan::scan(&plan, &list.sources, stop, &mut |done| {
        on(ReduceEvent::Progress { done })
    })?;
    let cpu_secs = dbio_engine::sys::process_cpu().since(cpu0).total();
    if out.bytes_read == 0 && !out.partial {
        // Listed, but busy, unreadable or emptied since.
        return Err(nothing_to_read(paths, &reasons(&list, Some(&out))));
    }
    let elapsed_secs = t0.elapsed().as_secs_f64();
    if !o.buffered {
        for s in out.sources.iter().filter(|s| !s.direct) {
            notes.push(format!(
                "{}: the file system refused O_DIRECT; read through the page cache",
                s.path
            ));
        }
    }
    notes.append(&mut out.notes);
    let mut skipped = list.skipped;
    skipped.append(&mut out.skipped);
    Ok(ReduceResult {
        schema: REDUCE_SCHEMA.into(),
        dbio_version: env!("CARGO_PKG_VERSION").into(),
        mode: if modulus > 1 {
            ReduceMode::Sampled {
                modulus,
                residue: plan.residue,
            }
        } else {
            ReduceMode::Exact
        },
        bytes_read: out.bytes_read,
        elapsed_secs,
        cpu_secs,
        partial: out.partial,
        thin: thin(&out, units.first().copied().unwrap_or(0)),
        units: units
            .iter()
            .zip(&out.units)
            .map(|(&u, (c, table))| unit_estimate(u, c, *table, &plan, o, out.compression_sampled))
            .collect(),
        sources: std::mem::take(&mut out.sources),
        skipped,
        notes,
    })
}

/// Files: apparent minus allocated bytes; devices: their all-zero blocks.
fn thin(out: &ScanOutput, smallest_unit: u64) -> ThinSavings {
    let presented: u64 = out.sources.iter().map(|s| s.bytes).sum();
    let files: u64 = out
        .sources
        .iter()
        .filter(|s| s.kind == "file")
        .map(|s| s.bytes.saturating_sub(s.allocated_bytes))
        .sum();
    let saved = (files + out.device_zero_blocks * smallest_unit).min(presented);
    ThinSavings {
        presented_bytes: presented,
        saved_bytes: saved,
        share: if presented == 0 {
            0.0
        } else {
            saved as f64 / presented as f64
        },
    }
}

fn unit_estimate(
    unit: u64,
    c: &scan::UnitCounts,
    table_bytes: u64,
    plan: &ScanPlan,
    o: &ReduceOptions,
    sampled_compression: bool,
) -> UnitEstimate {
    let (unique, dedupe) = if plan.modulus > 1 {
        math::sampled_dedupe(c.used, c.unique, plan.modulus)
    } else {
        (
            c.unique as f64,
            math::exact(math::dedupe_ratio(c.used, c.unique as f64)),
        )
    };
    // A sample of the unique blocks found is drawn from them; all the blocks kept by a
    // sampled pass are a sample of a number only estimated (Hoeffding's bound then).
    let sampled_from = match (sampled_compression, plan.compress_sample) {
        (false, _) => None,
        (true, Some(_)) => Some(c.unique as f64),
        (true, None) => Some(f64::INFINITY),
    };
    let ratio = |stored: u64, method: String| {
        let (ratio, bound) = math::compression_ratio(c.raw, stored, c.compressed, sampled_from);
        CompressionEstimate {
            method,
            ratio,
            blocks: c.compressed,
            bound,
        }
    };
    let mut compression = Vec::new();
    if o.compress.lz4 {
        if !o.compress.buckets.is_empty() {
            let name = o.buckets_name.clone().unwrap_or_else(|| "custom".into());
            compression.push(ratio(c.sizes.bucket, format!("lz4+buckets:{name}")));
        }
        compression.push(ratio(c.sizes.lz4, "lz4".into()));
    }
    if o.compress.zstd {
        compression.push(ratio(c.sizes.zstd, "zstd-1".into()));
    }
    let pattern_share = if c.blocks == 0 {
        0.0
    } else {
        (c.zero + c.pattern) as f64 / c.blocks as f64
    };
    let first = compression.first().map_or(math::exact(1.0), |x| x.ratio);
    let (steps, total) = math::combine(pattern_share, dedupe, first, c.blocks);
    UnitEstimate {
        unit,
        blocks: c.blocks,
        zero_blocks: c.zero,
        pattern_blocks: c.pattern,
        used_blocks: c.used,
        unique_blocks: unique,
        fingerprints_kept: c.unique,
        table_bytes,
        collision_odds: math::collision_odds(c.used),
        pattern_share,
        dedupe,
        compression,
        steps,
        total,
    }
}
