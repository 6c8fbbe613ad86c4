//! Judging a block read back against the write it must hold.

use super::header::Found;
use dbio_model::verify::CorruptionKind;

/// How a block read back compares with what it must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// As it must be.
    Good,
    /// Not written by this run, and not required to be.
    Unwritten,
    /// Bad: the kind, what was expected and what was found.
    Bad(CorruptionKind, String, String),
}

/// Judges a block that holds `found` and must hold write `acked` or a later one (0: no write
/// of this run was acknowledged for it) for byte `offset` of the target tagged `tag`.
pub fn judge(found: Found, block: &[u8], acked: u64, tag: u64, offset: u64) -> Judged {
    let expected = || {
        if acked > 0 {
            format!("write #{acked} (or a later one) for offset {offset}")
        } else {
            format!("no write of this run, or one for offset {offset}")
        }
    };
    match found {
        Found::NotOurs | Found::Earlier { .. } if acked == 0 => Judged::Unwritten,
        Found::Earlier {
            run,
            seq,
            offset: o,
            ..
        } => Judged::Bad(
            CorruptionKind::Lost,
            expected(),
            format!("write #{seq} for offset {o} of an earlier run ({run:016x}): stale data"),
        ),
        Found::NotOurs => {
            let head: String = block.iter().take(8).map(|b| format!("{b:02x}")).collect();
            Judged::Bad(
                CorruptionKind::NeverWritten,
                expected(),
                format!("no block of this run (it starts {head})"),
            )
        }
        Found::Torn { stored, computed } => Judged::Bad(
            CorruptionKind::Torn,
            expected(),
            format!("checksum {computed:#018x} of the bytes, {stored:#018x} in the header"),
        ),
        Found::Good {
            tag: t,
            offset: o,
            seq,
        } if t != tag || o != offset => {
            let other = if t != tag { " of another target" } else { "" };
            Judged::Bad(
                CorruptionKind::Misdirected,
                expected(),
                format!("write #{seq} for offset {o}{other}"),
            )
        }
        Found::Good { seq, .. } if seq < acked => Judged::Bad(
            CorruptionKind::Lost,
            expected(),
            format!("write #{seq} for offset {offset}, an older one"),
        ),
        Found::Good { .. } => Judged::Good,
    }
}
