//! The errors of write verification: a journal that cannot be created or kept, a journal
//! `dbio verify` cannot use, a block that cannot be read back, a pass that did not run whole.

use dbio_model::verify::{JOURNAL_FORMAT, VERIFY_UNIT};
use std::io;

/// Why the journal thread could not keep the journal up to date.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    /// Writing a page of a table failed.
    #[error("pwrite at offset {offset}: {source}")]
    Write { offset: u64, source: io::Error },
    /// Syncing the pages just written failed.
    #[error("fdatasync after writing offset {offset}: {source}")]
    Sync { offset: u64, source: io::Error },
    /// The thread ended without saying why.
    #[error("the journal thread panicked")]
    Panicked,
}

/// Why a run's journal (`--verify-journal`) could not be created or was not kept to the end.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file already exists.
    #[error("--verify-journal {path}: the file exists (a journal of an earlier run? check it with dbio verify --journal {path}); remove it or give another name")]
    Exists { path: String },
    /// The file could not be created.
    #[error("--verify-journal {path}: cannot create it: {source}")]
    Create { path: String, source: io::Error },
    /// Its header could not be written (the file is removed again).
    #[error("--verify-journal {path}: {source}")]
    Header { path: String, source: io::Error },
    /// Its thread could not start.
    #[error("--verify-journal {path}: cannot start its thread: {source}")]
    Thread { path: String, source: io::Error },
    /// The thread failed while the run went on.
    #[error("the journal {path} could not be kept: {source}; the run stopped and the journal is marked incomplete (dbio verify refuses it)")]
    NotKept { path: String, source: KeepError },
}

/// Why `dbio verify` cannot use a journal (or the `--target` paths it was given).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The run that kept the journal could not write it.
    #[error("an incomplete journal: the run that kept it could not write it (its error said where and why), so it cannot say what the targets must hold; nothing was checked")]
    Incomplete,
    /// The file does not start with the journal's magic.
    #[error("not a dbio verify journal (it does not start with DBIOJNL1)")]
    NotAJournal,
    /// The header's length does not fit the file.
    #[error("a damaged journal: its header claims {claims} bytes, the file has {has}")]
    HeaderLength { claims: usize, has: usize },
    /// The header is not valid JSON of a journal header.
    #[error("a damaged journal: its header is not valid: {0}")]
    HeaderInvalid(serde_json::Error),
    /// A format this dbio does not read.
    #[error("a journal of format {0:?}, this dbio reads {JOURNAL_FORMAT}")]
    Format(String),
    /// A block size this dbio does not verify.
    #[error("a journal of {0}-byte blocks, this dbio verifies {VERIFY_UNIT}-byte blocks")]
    Unit(u64),
    /// A run id or target tag that is not 16 hex digits.
    #[error("a damaged journal: {what} {value:?} is not 16 hex digits")]
    NotHex { what: &'static str, value: String },
    /// The header names no target.
    #[error("a damaged journal: it names no target")]
    NoTarget,
    /// A target's table lies outside the file.
    #[error("a damaged journal: the table of {path} (at {at}, {blocks} blocks) does not fit the file ({len} bytes)")]
    TableFit {
        path: String,
        at: u64,
        blocks: u64,
        len: u64,
    },
    /// A target's region does not start on a block.
    #[error("a damaged journal: the region of {path} starts at {start}, not a multiple of {VERIFY_UNIT}")]
    RegionStart { path: String, start: u64 },
    /// The journal's size could not be read.
    #[error("{0}")]
    Metadata(io::Error),
    /// The header could not be read.
    #[error("cannot read it: {0}")]
    ReadHeader(io::Error),
    /// A target's table could not be read.
    #[error("cannot read the table of {path}: {source}")]
    ReadTable { path: String, source: io::Error },
    /// `--target OLD=NEW` names a target the journal does not.
    #[error("--target {arg}: the journal names no target {old}; it names {names}")]
    NoSuchTarget {
        arg: String,
        old: String,
        names: String,
    },
    /// `--target NEW` for a journal of several targets.
    #[error("--target {arg}: the journal names {count} targets ({names}); say which one moved with --target OLD=NEW")]
    WhichTarget {
        arg: String,
        count: usize,
        names: String,
    },
    /// `--target` given empty, or as `OLD=`.
    #[error("--target {0:?}: give NEW or OLD=NEW")]
    BadTarget(String),
    /// The journal could not be opened.
    #[error("{path}: {source}")]
    Open { path: String, source: io::Error },
    /// What went wrong with the journal `path`.
    #[error("{path}: {source}")]
    In {
        path: String,
        source: Box<CheckError>,
    },
}

/// Why a block could not be read back (not where: the caller says that).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file is shorter than the region.
    #[error("the target ends there")]
    Ends,
    /// The read failed.
    #[error("{0}")]
    Io(io::Error),
}

/// Why the pass after the run did not read every block.
#[derive(Debug, thiserror::Error)]
pub enum PassError {
    /// A read failed: the pass stopped there (this fails the run).
    #[error("stopped: {0}")]
    Stopped(String),
    /// The user's stop ended the pass early (this does not fail the run).
    #[error("interrupted: a stop (Ctrl-C or SIGTERM) ended the pass early")]
    Interrupted,
    /// The pass did not run; the reason.
    #[error("{0}")]
    Skipped(String),
}
