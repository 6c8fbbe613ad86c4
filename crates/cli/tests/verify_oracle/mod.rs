//! The tests' own reading of verified blocks and verify journals, written from the formats
//! the README and the runner's `verify::header` and `verify::journal` document, so a test
//! holds dbio's verdicts against bytes it reads itself.

#![allow(dead_code)]

use std::path::Path;
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

pub const UNIT: usize = 4096;

/// What one 4 KiB block holds, read by the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// No header of run `run`.
    Foreign,
    /// A header of the run whose checksum does not match.
    BadSum,
    /// A good block: written for `offset` by write `seq`.
    Good { tag: u64, offset: u64, seq: u64 },
}

fn le(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// Reads the header of `b` (4096 bytes) for run `run`.
pub fn block(b: &[u8], run: u64) -> Block {
    if &b[..8] != b"DBIOVFY1" || le(b, 8) != run {
        return Block::Foreign;
    }
    let sum = xxh3_64_with_seed(&b[48..], xxh3_64(&b[..40]));
    if sum != le(b, 40) {
        return Block::BadSum;
    }
    Block::Good {
        tag: le(b, 16),
        offset: le(b, 24),
        seq: le(b, 32),
    }
}

/// Every block of a file (or device) from byte 0, read by the test.
pub fn blocks_of(path: &Path, run: u64) -> Vec<Block> {
    let data = std::fs::read(path).unwrap();
    data.chunks_exact(UNIT).map(|b| block(b, run)).collect()
}

/// A journal read by the test: the run id, and per target (path, start, table).
pub struct JournalView {
    pub run: u64,
    pub targets: Vec<(String, u64, Vec<u64>)>,
}

/// Reads journal `path`.
pub fn journal(path: &Path) -> JournalView {
    let j = std::fs::read(path).unwrap();
    assert_eq!(&j[..8], b"DBIOJNL1", "journal magic");
    let n = u32::from_le_bytes(j[8..12].try_into().unwrap()) as usize;
    let h: serde_json::Value = serde_json::from_slice(&j[12..12 + n]).unwrap();
    let run = u64::from_str_radix(h["run_id"].as_str().unwrap(), 16).unwrap();
    let targets = h["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let at = t["table_at"].as_u64().unwrap() as usize;
            let blocks = t["blocks"].as_u64().unwrap() as usize;
            let table = (0..blocks).map(|i| le(&j, at + 8 * i)).collect();
            (
                t["path"].as_str().unwrap().to_string(),
                t["start"].as_u64().unwrap(),
                table,
            )
        })
        .collect();
    JournalView { run, targets }
}

/// The run id of a result's `verify` report.
pub fn run_id(r: &serde_json::Value) -> u64 {
    u64::from_str_radix(r["verify"]["run_id"].as_str().expect("verify.run_id"), 16).unwrap()
}
