//! The header every verified 4 KiB block starts with, and what a block read back holds.
//!
//! Layout (little-endian, 48 bytes at the start of each 4 KiB block; the rest of the block is
//! the data `--data` asks for):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `DBIOVFY1` |
//! | 8..16 | the run's id |
//! | 16..24 | the target's tag (xxh3 of its path) |
//! | 24..32 | the block's own byte offset on the target |
//! | 32..40 | the write's sequence number (1, 2, … in the order writes are issued) |
//! | 40..48 | checksum: xxh3-64 of bytes 48..4096 seeded with xxh3-64 of bytes 0..40 |

use dbio_model::verify::VERIFY_UNIT;
use xxhash_rust::xxh3::{xxh3_64, xxh3_64_with_seed};

/// The magic value at the start of every verified block.
pub const MAGIC: [u8; 8] = *b"DBIOVFY1";
/// Bytes of the header.
pub const HEADER_LEN: usize = 48;
/// Bytes of a verified block.
pub const UNIT: usize = VERIFY_UNIT as usize;

/// The tag of a target in block headers: its path hashed.
pub fn target_tag(path: &str) -> u64 {
    xxh3_64(path.as_bytes())
}

fn le(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The checksum of a whole block (the header's own checksum field left out).
fn checksum(block: &[u8]) -> u64 {
    xxh3_64_with_seed(&block[HEADER_LEN..], xxh3_64(&block[..40]))
}

/// Writes the header of the block `block` (exactly [`UNIT`] bytes) at byte `offset` of the
/// target tagged `tag`, written by write number `seq` of run `run`.
#[inline]
pub fn stamp(block: &mut [u8], run: u64, tag: u64, offset: u64, seq: u64) {
    debug_assert_eq!(block.len(), UNIT);
    block[..8].copy_from_slice(&MAGIC);
    block[8..16].copy_from_slice(&run.to_le_bytes());
    block[16..24].copy_from_slice(&tag.to_le_bytes());
    block[24..32].copy_from_slice(&offset.to_le_bytes());
    block[32..40].copy_from_slice(&seq.to_le_bytes());
    let sum = checksum(block);
    block[40..48].copy_from_slice(&sum.to_le_bytes());
}

/// What a block read back holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// No header of this run: never written by it (or overwritten by something else).
    NotOurs,
    /// A header of this run whose checksum does not match the bytes.
    Torn { stored: u64, computed: u64 },
    /// A good block of this run.
    Good { tag: u64, offset: u64, seq: u64 },
    /// A good block of another (earlier) run `run`: stale data, e.g. restored from a copy.
    Earlier {
        run: u64,
        tag: u64,
        offset: u64,
        seq: u64,
    },
}

/// Reads the header of `block` (any length; shorter than a unit holds no header).
pub fn read(block: &[u8], run: u64) -> Found {
    if block.len() != UNIT || block[..8] != MAGIC {
        return Found::NotOurs;
    }
    let stored = le(block, 40);
    let computed = checksum(block);
    if le(block, 8) != run {
        // Another run's block counts only when whole: anything else is no block of ours.
        return match stored == computed {
            true => Found::Earlier {
                run: le(block, 8),
                tag: le(block, 16),
                offset: le(block, 24),
                seq: le(block, 32),
            },
            false => Found::NotOurs,
        };
    }
    if stored != computed {
        return Found::Torn { stored, computed };
    }
    Found::Good {
        tag: le(block, 16),
        offset: le(block, 24),
        seq: le(block, 32),
    }
}
