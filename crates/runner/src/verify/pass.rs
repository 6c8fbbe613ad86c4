//! Reading a region back block by block and judging every block: the pass after a run, and
//! `dbio verify --journal` after a crash.

use super::header::{self, UNIT};
use super::{judge, Judged, StreamVerify, TargetTable, BUSY, SEQ, SKIP};
use dbio_engine::buffer::AlignedBuf;
use dbio_model::verify::Corruption;
use std::os::unix::fs::FileExt;
use std::sync::atomic::Ordering;

/// Bytes read at a time.
const CHUNK: usize = 1 << 20;

/// What a scan counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Scanned {
    /// Blocks judged against a write of this run (or found bad).
    pub checked: u64,
    /// Blocks that hold no write of this run and need not.
    pub unwritten: u64,
}

/// Reads `blocks` blocks of `file` from byte `start` and judges each: `acked(i)` is the write
/// block i must hold at least (0: none), or None to leave it unchecked; `bad` gets each bad
/// block. A read error ends the scan with a message naming the offset.
#[allow(clippy::too_many_arguments)]
pub fn scan(
    file: &std::fs::File,
    name: &str,
    run: u64,
    tag: u64,
    start: u64,
    blocks: u64,
    acked: &mut dyn FnMut(usize) -> Option<u64>,
    bad: &mut dyn FnMut(Corruption),
    found_by: &str,
) -> Result<Scanned, String> {
    let mut buf = AlignedBuf::new(CHUNK);
    let per = (CHUNK / UNIT) as u64;
    let mut out = Scanned::default();
    let mut i = 0u64;
    while i < blocks {
        let n = per.min(blocks - i);
        let at = start + i * UNIT as u64;
        let want = n as usize * UNIT;
        let b = &mut buf.as_mut_slice()[..want];
        let mut got = 0;
        while got < want {
            match file.read_at(&mut b[got..], at + got as u64) {
                Ok(0) => {
                    return Err(format!(
                        "pread at offset {} on {name}: the target ends there",
                        at + got as u64
                    ))
                }
                Ok(k) => got += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(format!(
                        "pread at offset {} on {name}: {e}",
                        at + got as u64
                    ))
                }
            }
        }
        for k in 0..n as usize {
            let idx = (i as usize) + k;
            let Some(a) = acked(idx) else { continue };
            let block = &b[k * UNIT..(k + 1) * UNIT];
            let off = at + (k * UNIT) as u64;
            match judge(header::read(block, run), block, a, tag, off) {
                Judged::Good => out.checked += 1,
                Judged::Unwritten => out.unwritten += 1,
                Judged::Bad(kind, expected, found) => {
                    out.checked += 1;
                    bad(Corruption {
                        kind,
                        target: name.to_string(),
                        offset: off,
                        found_by: found_by.to_string(),
                        expected,
                        found,
                    });
                }
            }
        }
        i += n;
    }
    Ok(out)
}

/// The pass after a run over target `t` of stream `s`: every block of the region, against the
/// last write acknowledged for it. Returns (checked, unwritten).
pub fn final_pass(
    s: &StreamVerify,
    t: &TargetTable,
    file: &std::fs::File,
) -> Result<(u64, u64), String> {
    let mut acked = |i: usize| {
        let e = t.blocks[i].load(Ordering::Acquire);
        // An I/O left in flight (the engine failed) or a block not to check.
        (e & (BUSY | SKIP) == 0).then_some(e & SEQ)
    };
    let mut bad = |c: Corruption| {
        let i = ((c.offset - t.start) / UNIT as u64) as usize;
        t.blocks[i].fetch_or(SKIP, Ordering::AcqRel);
        s.record(c);
    };
    let r = scan(
        file,
        &t.name,
        s.run,
        t.tag,
        t.start,
        t.blocks.len() as u64,
        &mut acked,
        &mut bad,
        "final-pass",
    )?;
    Ok((r.checked, r.unwritten))
}
