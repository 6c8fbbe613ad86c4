//! Block-I/O capture for `dbio capture`: the kernel's block tracepoints read through
//! tracefs (no blktrace binary, no eBPF), paired into requests, written in dbio's trace
//! format, and summarised.

#![forbid(unsafe_code)]

pub mod capture;
pub mod device;
pub mod event;
pub mod export;
pub mod files;
pub mod format;
pub mod import;
pub mod page;
pub mod pair;
pub mod plan;
pub mod probe;
pub mod profile;
pub mod scan;
pub mod summary;
pub mod tracefs;
pub mod tracing;

use std::path::Path;

/// Why a capture or a trace could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("{0}: {1}")]
    At(String, std::io::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("tracefs is not mounted and could not be mounted ({0}); dbio capture needs the kernel's tracing file system")]
    NoTracefs(String),
    #[error("{0} is not a block device: give a device node (--device /dev/...) or --path to a folder on one")]
    NotBlock(String),
    #[error("the kernel's {0} event is not as dbio reads it: {1}")]
    Format(String, String),
    #[error("not a dbio trace (it does not begin with DBIOTRC1)")]
    Foreign,
    #[error("a trace of format version {0}, newer than this dbio reads (1): use a newer dbio")]
    Newer(u32),
    #[error("the trace stops at byte {0}, in the middle of a record or without its end (a capture killed or a copy cut short)")]
    Truncated(u64),
    #[error("the trace is damaged at byte {0}: {1}")]
    Corrupt(u64, String),
}

/// Creates the new file `path` for `what` ("a trace", "an export", "a profile"): an
/// existing file is refused, never overwritten.
pub fn create_new(path: &str, what: &str) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| format!("{path}: {e} (dbio does not overwrite {what})"))
}

impl TraceError {
    /// An I/O error on `path`.
    pub fn at(path: &Path, e: std::io::Error) -> TraceError {
        TraceError::At(path.display().to_string(), e)
    }
}
