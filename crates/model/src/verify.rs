//! Write verification (`--verify`, `--verify-journal`, `dbio verify --journal`): what the job
//! asks for and what the checks found.
//!
//! Every 4 KiB block dbio writes in verify mode starts with a header (see the runner's
//! `verify::header`): a magic value, the run's id, the target's tag, the block's own offset,
//! a write sequence number and a checksum of the whole block. Reads during the run and a pass
//! after it check each block against the last write acknowledged for it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Bytes of one verified block: every write and read is checked in blocks of this size.
pub const VERIFY_UNIT: u64 = 4096;

/// The verify settings of a job (`--verify`, `--verify-journal FILE`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VerifySpec {
    /// The journal of the last acknowledged sequence of every block, kept durably so that
    /// `dbio verify --journal FILE` can check the target after a crash.
    #[serde(default)]
    pub journal: Option<String>,
}

/// One kind of bad block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CorruptionKind {
    /// The block's checksum does not match its bytes: a torn (partly stored) or corrupt write.
    Torn,
    /// A good block of this run, but written for another offset or another target.
    Misdirected,
    /// A good block at its offset, but from an older write than the last one acknowledged.
    Lost,
    /// The block was written and acknowledged in this run, yet holds no block of this run.
    NeverWritten,
}

impl CorruptionKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [CorruptionKind; 4] = [
        CorruptionKind::Torn,
        CorruptionKind::Misdirected,
        CorruptionKind::Lost,
        CorruptionKind::NeverWritten,
    ];

    /// The kind in plain words, as reports print it.
    pub fn describe(self) -> &'static str {
        match self {
            CorruptionKind::Torn => "torn or corrupt",
            CorruptionKind::Misdirected => "misdirected",
            CorruptionKind::Lost => "lost",
            CorruptionKind::NeverWritten => "never written",
        }
    }
}

/// One bad block, as found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Corruption {
    pub kind: CorruptionKind,
    pub target: String,
    /// Byte offset of the 4 KiB block on the target.
    pub offset: u64,
    /// When it was found: "read" (a read of the run), "final-pass" (the pass after the run)
    /// or "journal" (`dbio verify --journal`).
    pub found_by: String,
    /// What the block should hold, e.g. "write #1234 (or later) of this run for offset 8192".
    pub expected: String,
    /// What it held, e.g. "write #1200 for offset 8192" or "checksum 0x… of the bytes,
    /// 0x… in the header".
    pub found: String,
}

/// Counts of bad blocks by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CorruptionCounts {
    pub torn: u64,
    pub misdirected: u64,
    pub lost: u64,
    pub never_written: u64,
}

impl CorruptionCounts {
    /// All bad blocks.
    pub fn total(&self) -> u64 {
        self.torn + self.misdirected + self.lost + self.never_written
    }

    /// The count of `kind`.
    pub fn get(&self, kind: CorruptionKind) -> u64 {
        match kind {
            CorruptionKind::Torn => self.torn,
            CorruptionKind::Misdirected => self.misdirected,
            CorruptionKind::Lost => self.lost,
            CorruptionKind::NeverWritten => self.never_written,
        }
    }

    /// One more of `kind`.
    pub fn add(&mut self, kind: CorruptionKind) {
        match kind {
            CorruptionKind::Torn => self.torn += 1,
            CorruptionKind::Misdirected => self.misdirected += 1,
            CorruptionKind::Lost => self.lost += 1,
            CorruptionKind::NeverWritten => self.never_written += 1,
        }
    }

    /// The sum of two counts.
    pub fn plus(&self, o: &CorruptionCounts) -> CorruptionCounts {
        CorruptionCounts {
            torn: self.torn + o.torn,
            misdirected: self.misdirected + o.misdirected,
            lost: self.lost + o.lost,
            never_written: self.never_written + o.never_written,
        }
    }
}

/// What write verification found: in a run's result (`verify`), or from
/// `dbio verify --journal`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VerifyReport {
    /// The run's id, as in every block header (16 hex digits).
    pub run_id: String,
    /// Bytes of a verified block (4096).
    pub unit_bytes: u64,
    /// Blocks whose writes were acknowledged (each write of n blocks counts n).
    pub blocks_written: u64,
    /// Blocks checked by the run's reads.
    pub blocks_checked_by_reads: u64,
    /// Blocks checked by the pass after the run (or by `dbio verify`).
    pub blocks_checked_after: u64,
    /// Blocks read that this run had not written: nothing to check them against.
    pub blocks_unwritten: u64,
    /// The final pass: "done", or why it did not run.
    pub final_pass: String,
    /// The journal file, when one was kept.
    #[serde(default)]
    pub journal: Option<String>,
    /// Bad blocks by kind (each block counted once, until it is written again).
    pub corrupt: CorruptionCounts,
    /// The first bad blocks found (at most [`FIRST_LISTED`]).
    pub first: Vec<Corruption>,
}

/// How many bad blocks a report lists one by one.
pub const FIRST_LISTED: usize = 20;

impl VerifyReport {
    /// True when any block was bad.
    pub fn corrupt(&self) -> bool {
        self.corrupt.total() > 0
    }

    /// The report in a few lines, as `dbio run` and `dbio verify` print it.
    pub fn summary(&self, listed: usize) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let checked = self.blocks_checked_by_reads + self.blocks_checked_after;
        let _ = writeln!(
            s,
            "verify: {} blocks written, {} checked ({} by reads, {} after), {} read unwritten; final pass: {}",
            self.blocks_written,
            checked,
            self.blocks_checked_by_reads,
            self.blocks_checked_after,
            self.blocks_unwritten,
            self.final_pass
        );
        let incomplete = ["stopped: ", "interrupted: "]
            .iter()
            .find_map(|p| self.final_pass.strip_prefix(p));
        if let Some(why) = incomplete {
            let _ = writeln!(
                s,
                "verify: INCOMPLETE: the check stopped after {checked} blocks ({why}); the blocks after that were not checked"
            );
        }
        if !self.corrupt() {
            let _ = writeln!(s, "verify: no bad block among the {checked} checked");
            return s;
        }
        let kinds: Vec<String> = CorruptionKind::ALL
            .iter()
            .filter(|k| self.corrupt.get(**k) > 0)
            .map(|k| format!("{} {}", self.corrupt.get(*k), k.describe()))
            .collect();
        let _ = writeln!(
            s,
            "verify: CORRUPTION: {} bad blocks: {}",
            self.corrupt.total(),
            kinds.join(", ")
        );
        for c in self.first.iter().take(listed) {
            let _ = writeln!(
                s,
                "  {} block at offset {} of {} (found by {}): expected {}; found {}",
                c.kind.describe(),
                c.offset,
                c.target,
                c.found_by,
                c.expected,
                c.found
            );
        }
        if self.corrupt.total() as usize > listed.min(self.first.len()) {
            let _ = writeln!(
                s,
                "  ... {} more (the JSON result lists the first {FIRST_LISTED})",
                self.corrupt.total() as usize - listed.min(self.first.len())
            );
        }
        s
    }
}

/// The header of a verify journal (`--verify-journal FILE`), stored as JSON after the
/// journal's magic; the tables of the last acknowledged write per block follow it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct JournalHeader {
    /// Always [`JOURNAL_FORMAT`].
    pub format: String,
    /// The run's id (16 hex digits), as in every block header.
    pub run_id: String,
    pub unit_bytes: u64,
    /// The journal is brought up to date and synced at least this often.
    pub sync_every_ms: u64,
    pub targets: Vec<JournalTarget>,
}

/// One target in a verify journal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct JournalTarget {
    pub path: String,
    /// The tag its block headers carry (16 hex digits).
    pub tag: String,
    /// Byte offset of the first block of the verified region.
    pub start: u64,
    /// Blocks of the region.
    pub blocks: u64,
    /// Byte offset in the journal of this target's table: one little-endian u64 per block.
    pub table_at: u64,
}

/// Identifier and version of the verify journal format.
pub const JOURNAL_FORMAT: &str = "dbio.journal/1";
