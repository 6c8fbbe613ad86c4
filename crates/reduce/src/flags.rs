//! The flags of `dbio reduce` as given (clap-free), checked and turned into
//! [`ReduceOptions`].

use crate::block::CompressSpec;
use crate::ReduceOptions;
use dbio_model::units::parse_size;

/// The flags as given.
#[derive(Debug, Clone, Default)]
pub struct ReduceFlags {
    /// `--unit`: dedupe units, comma-separated.
    pub unit: String,
    /// `--compress`: lz4, zstd, both or none.
    pub compress: String,
    pub buckets: Option<String>,
    pub compress_sample: Option<u64>,
    pub mem: Option<String>,
    pub sample: Option<u64>,
    pub seed: u64,
    pub threads: Option<usize>,
    pub buffered: bool,
}

/// A refused flag of `dbio reduce`; the message names it and what to give.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FlagError {
    /// A `--unit` size that does not parse.
    #[error("--unit {value}: {why}; give sizes like 4k,8k,16k,32k,128k")]
    Unit { value: String, why: String },
    /// A `--unit` size that is no power of two from 1k to 128k.
    #[error(
        "--unit {0}: a dedupe unit is a power of two from 1k to 128k, e.g. 4k,8k,16k,32k,128k"
    )]
    UnitRange(String),
    /// A `--compress` name that is none of lz4, zstd, none.
    #[error("--compress {list}: unknown compressor {name}; give lz4, zstd, lz4,zstd or none")]
    Compressor { list: String, name: String },
    /// `--buckets` without LZ4 to round.
    #[error("--buckets {0}: buckets round LZ4 output; add lz4 to --compress")]
    BucketsNeedLz4(String),
    /// The bucket sizes' own refusal.
    #[error("{0}")]
    Buckets(String),
    /// `--compress-sample 0`.
    #[error("--compress-sample 0: give the number of unique blocks to compress, e.g. 38005 (±1 % at 99.9 %)")]
    SampleZero,
    /// `--sample` of 0 or 1.
    #[error("--sample {0}: give a modulus of 2 or more, e.g. 16 keeps 1/16 of the fingerprints")]
    Modulus(u64),
    /// `--mem` of zero.
    #[error("--mem {0}: give a size above zero, e.g. 1GiB")]
    MemZero(String),
    /// A `--mem` size that does not parse.
    #[error("--mem {value}: {why}; give a size like 512MiB or 4GiB")]
    Mem { value: String, why: String },
    /// `--threads` outside 1 to 1024.
    #[error("--threads {0}: use 1 to 1024 worker threads")]
    Threads(usize),
}

/// The flags checked and turned into the options; `buckets` reads a `--buckets` value
/// (a preset or sizes) as its name and sizes, or says why it cannot.
pub fn options<E: std::fmt::Display>(
    a: &ReduceFlags,
    buckets: impl Fn(&str) -> Result<(String, Vec<u64>), E>,
) -> Result<ReduceOptions, FlagError> {
    let units = units(&a.unit)?;
    let mut compress = compressors(&a.compress)?;
    let mut buckets_name = None;
    if let Some(b) = &a.buckets {
        if !compress.lz4 {
            return Err(FlagError::BucketsNeedLz4(b.clone()));
        }
        let (name, sizes) = buckets(b).map_err(|e| FlagError::Buckets(e.to_string()))?;
        compress.buckets = sizes;
        buckets_name = Some(name);
    }
    if a.compress_sample == Some(0) {
        return Err(FlagError::SampleZero);
    }
    if let Some(m @ (0 | 1)) = a.sample {
        return Err(FlagError::Modulus(m));
    }
    let mem = match &a.mem {
        Some(m) => match parse_size(m) {
            Ok(v) if v > 0 => v,
            Ok(_) => return Err(FlagError::MemZero(m.clone())),
            Err(e) => {
                return Err(FlagError::Mem {
                    value: m.clone(),
                    why: e.to_string(),
                })
            }
        },
        // Half of what the host has available (of 1 GiB when /proc/meminfo cannot be read).
        None => dbio_engine::facts::mem_available().unwrap_or(1 << 30) / 2,
    };
    let threads = match a.threads {
        Some(n) if n == 0 || n > 1024 => return Err(FlagError::Threads(n)),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    Ok(ReduceOptions {
        units,
        compress,
        buckets_name,
        compress_sample: a.compress_sample,
        mem,
        sample: a.sample,
        seed: a.seed,
        threads,
        buffered: a.buffered,
    })
}

/// `--unit`: powers of two from 1k to 128k.
fn units(list: &str) -> Result<Vec<u64>, FlagError> {
    let mut units = Vec::new();
    for s in list.split(',') {
        let u = parse_size(s.trim()).map_err(|e| FlagError::Unit {
            value: s.into(),
            why: e.to_string(),
        })?;
        if !(1024..=128 * 1024).contains(&u) || !u.is_power_of_two() {
            return Err(FlagError::UnitRange(s.into()));
        }
        units.push(u);
    }
    Ok(units)
}

/// `--compress`: lz4, zstd, both, or none alone.
fn compressors(list: &str) -> Result<CompressSpec, FlagError> {
    let mut compress = CompressSpec::default();
    for c in list.split(',').map(str::trim) {
        match c {
            "lz4" => compress.lz4 = true,
            "zstd" => compress.zstd = true,
            "none" if list.trim() == "none" => {}
            _ => {
                return Err(FlagError::Compressor {
                    list: list.into(),
                    name: c.into(),
                })
            }
        }
    }
    Ok(compress)
}
