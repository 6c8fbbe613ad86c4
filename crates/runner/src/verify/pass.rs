//! Reading a region back block by block and judging every block: the pass after a run, and
//! `dbio verify --journal` after a crash.

use super::error::ReadError;
use super::header::{self, UNIT};
use super::judge::{judge, Judged};
use super::table::{bad_bits, StreamVerify, TargetTable, BUSY, SEQ, SKIP};
use dbio_engine::buffer::AlignedBuf;
use dbio_model::verify::{Corruption, CorruptionKind};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes read at a time.
const CHUNK: usize = 1 << 20;

/// What a scan counted, and why it stopped early when it did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Scanned {
    /// Blocks judged against a write of this run (or found bad).
    pub checked: u64,
    /// Blocks that hold no write of this run and need not.
    pub unwritten: u64,
    /// The read error that ended the scan (naming the failing block's offset): the blocks
    /// after it were not checked.
    pub stopped: Option<String>,
    /// A stop (Ctrl-C, SIGTERM) ended the scan early: the blocks after the last chunk read
    /// were not checked.
    pub interrupted: bool,
}

/// What one block must hold: at least write `seq` (0: none of this run), and whether it was
/// already found bad (then it is reported bad whatever it holds now).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    pub seq: u64,
    pub found_bad: Option<CorruptionKind>,
}

/// Reads `buf.len()` bytes of `file` at `at`; the error says what went wrong (not where).
fn read_full(file: &std::fs::File, buf: &mut [u8], at: u64) -> Result<(), ReadError> {
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(&mut buf[got..], at + got as u64) {
            Ok(0) => return Err(ReadError::Ends),
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    Ok(())
}

/// Reads a chunk of whole blocks at `at` into `buf`. When that fails, reads it block by block
/// to find the failing one: returns how many blocks were read before it and an error naming
/// its offset.
fn read_chunk(
    file: &std::fs::File,
    name: &str,
    buf: &mut [u8],
    at: u64,
) -> Result<(), (usize, String)> {
    if read_full(file, buf, at).is_ok() {
        return Ok(());
    }
    for (k, block) in buf.chunks_exact_mut(UNIT).enumerate() {
        let off = at + (k * UNIT) as u64;
        if let Err(e) = read_full(file, block, off) {
            return Err((k, format!("pread at offset {off} on {name}: {e}")));
        }
    }
    Ok(())
}

/// Reads `blocks` blocks of `file` from byte `start` and judges each: `expect(i)` is what
/// block i must hold, or None to leave it unchecked; `bad` gets each bad block. A read error
/// ends the scan; the counts are then those of the blocks before the failing one. `stop`,
/// when set, ends it between two chunks.
#[allow(clippy::too_many_arguments)]
pub fn scan(
    stop: Option<&AtomicBool>,
    file: &std::fs::File,
    name: &str,
    run: u64,
    tag: u64,
    start: u64,
    blocks: u64,
    expect: &mut dyn FnMut(usize) -> Option<Expected>,
    bad: &mut dyn FnMut(Corruption),
    found_by: &str,
) -> Scanned {
    let mut buf = AlignedBuf::new(CHUNK);
    let per = (CHUNK / UNIT) as u64;
    let mut out = Scanned::default();
    let mut i = 0u64;
    while i < blocks {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            out.interrupted = true;
            return out;
        }
        let n = per.min(blocks - i);
        let at = start + i * UNIT as u64;
        let b = &mut buf.as_mut_slice()[..n as usize * UNIT];
        let (readable, stopped) = match read_chunk(file, name, b, at) {
            Ok(()) => (n as usize, None),
            Err((k, e)) => (k, Some(e)),
        };
        for k in 0..readable {
            let Some(want) = expect(i as usize + k) else {
                continue;
            };
            let block = &b[k * UNIT..(k + 1) * UNIT];
            let off = at + (k * UNIT) as u64;
            match judge_expected(block, run, tag, off, want) {
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
        if stopped.is_some() {
            out.stopped = stopped;
            return out;
        }
        i += n;
    }
    out
}

/// Judges `block` at `off` against `want`: a block already found bad stays bad, as the kind
/// it was found, even when it reads back as written now.
fn judge_expected(block: &[u8], run: u64, tag: u64, off: u64, want: Expected) -> Judged {
    let judged = judge(header::read(block, run), block, want.seq, tag, off);
    match (want.found_bad, judged) {
        (Some(kind), Judged::Good | Judged::Unwritten) => Judged::Bad(
            kind,
            format!("write #{} (or a later one) for offset {off}", want.seq),
            format!(
                "a {} block, as the run found it (it reads back as expected now)",
                kind.describe()
            ),
        ),
        (_, j) => j,
    }
}

/// The pass after a run over target `t` of stream `s`: every block of the region, against the
/// last write acknowledged for it; `stop`, when set, ends it early.
pub fn final_pass(
    s: &StreamVerify,
    t: &TargetTable,
    file: &std::fs::File,
    stop: Option<&AtomicBool>,
) -> Scanned {
    let mut expect = |i: usize| {
        let e = t.blocks[i].load(Ordering::Acquire);
        // An I/O left in flight (the engine failed) or a block not to check.
        (e & (BUSY | SKIP) == 0).then_some(Expected {
            seq: e & SEQ,
            found_bad: None,
        })
    };
    let mut bad = |c: Corruption| {
        let i = ((c.offset - t.start) / UNIT as u64) as usize;
        t.blocks[i].fetch_or(bad_bits(c.kind), Ordering::AcqRel);
        s.record(c);
    };
    scan(
        stop,
        file,
        &t.name,
        s.run,
        t.tag,
        t.start,
        t.blocks.len() as u64,
        &mut expect,
        &mut bad,
        "final-pass",
    )
}
