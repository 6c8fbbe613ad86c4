//! Prefill: dbio writes the whole of a new test file once, so reads measure real data
//! rather than holes the file system answers without touching the device.

use super::types::{OpenTarget, SIZE_ALIGN};
use crate::buffer::AlignedBuf;
use crate::error::IoError;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes written per prefill write.
pub const PREFILL_CHUNK: usize = 1 << 20;

/// Writes all of `t` (0..size) in order, in [`PREFILL_CHUNK`] pieces whose bytes `fill` gives
/// (it gets the piece and its file offset), then fdatasyncs. Calls `progress(done, total)`
/// after each piece and checks `stop` before each; returns `Ok(false)` when stopped early.
/// Does not mark the target as prefilled: the caller does, with [`super::mark_prefilled`].
pub fn prefill(
    t: &OpenTarget,
    fill: &mut dyn FnMut(&mut [u8], u64),
    progress: &mut dyn FnMut(u64, u64),
    stop: &AtomicBool,
) -> Result<bool, IoError> {
    let total = t.size;
    // Whole 4 KiB blocks go through the target's own fd, which may be O_DIRECT.
    let aligned_end = total - total % SIZE_ALIGN;
    let mut buf = AlignedBuf::new(PREFILL_CHUNK);
    let mut off = 0u64;
    while off < aligned_end {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let len = (aligned_end - off).min(PREFILL_CHUNK as u64) as usize;
        let chunk = &mut buf.as_mut_slice()[..len];
        fill(chunk, off);
        t.file
            .write_all_at(chunk, off)
            .map_err(|e| IoError::at("pwrite", &t.path, off, len as u64, e))?;
        off += len as u64;
        progress(off, total);
    }
    if off < total {
        // A ragged tail (a size not a multiple of 4 KiB, e.g. a device or a file resized
        // outside dbio) cannot go through O_DIRECT: write it through a buffered fd.
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let len = (total - off) as usize;
        let chunk = &mut buf.as_mut_slice()[..len];
        fill(chunk, off);
        let tail = OpenOptions::new()
            .write(true)
            .open(&t.path)
            .map_err(|e| IoError::on("open", &t.path, e))?;
        tail.write_all_at(chunk, off)
            .map_err(|e| IoError::at("pwrite", &t.path, off, len as u64, e))?;
        tail.sync_data()
            .map_err(|e| IoError::on("fdatasync", &t.path, e))?;
        progress(total, total);
    }
    t.file
        .sync_data()
        .map_err(|e| IoError::on("fdatasync", &t.path, e))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{open_target, TargetOptions};

    /// Every 8 bytes hold their own file offset, so any misplaced piece shows.
    fn by_offset(chunk: &mut [u8], off: u64) {
        for (i, word) in chunk.chunks_mut(8).enumerate() {
            let v = (off + 8 * i as u64).to_le_bytes();
            word.copy_from_slice(&v[..word.len()]);
        }
    }

    fn word_at(path: &std::path::Path, off: u64) -> u64 {
        let f = std::fs::File::open(path).unwrap();
        let mut b = [0u8; 8];
        f.read_exact_at(&mut b, off).unwrap();
        u64::from_le_bytes(b)
    }

    #[test]
    fn writes_what_fill_gives_and_reports_progress() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let size = 3 * (1 << 20) + 8192;
        let opts = TargetOptions {
            direct: true,
            size: Some(size),
            ..Default::default()
        };
        let t = open_target(path.to_str().unwrap(), &opts).unwrap();
        let mut seen = Vec::new();
        let done = prefill(
            &t,
            &mut by_offset,
            &mut |d, total| seen.push((d, total)),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(done);
        let s = size;
        let expect = [(1 << 20, s), (2 << 20, s), (3 << 20, s), (s, s)];
        assert_eq!(seen, expect);
        for off in [0, 8, 4096, (1 << 20) + 16, s - 8] {
            assert_eq!(word_at(&path, off), off, "at {off}");
        }
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
    }

    #[test]
    fn writes_a_ragged_tail_through_a_buffered_fd() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let p = path.to_str().unwrap();
        let opts = TargetOptions {
            size: Some(16384),
            ..Default::default()
        };
        drop(open_target(p, &opts).unwrap());
        // Resized behind dbio's back to a size that is not a multiple of 4 KiB.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(12288 + 100)
            .unwrap();
        let direct = TargetOptions {
            direct: true,
            ..Default::default()
        };
        let t = open_target(p, &direct).unwrap();
        assert!(t.needs_prefill);
        assert_eq!(t.size, 12388);
        let mut last = 0;
        let ok = prefill(
            &t,
            &mut by_offset,
            &mut |d, _| last = d,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert!(ok);
        assert_eq!(last, 12388);
        assert_eq!(word_at(&path, 12288), 12288);
        let f = std::fs::File::open(&path).unwrap();
        let mut tail = [0u8; 4];
        f.read_exact_at(&mut tail, 12384).unwrap();
        assert_eq!(tail, 12384u64.to_le_bytes()[..4]);
    }

    #[test]
    fn stops_between_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let opts = TargetOptions {
            size: Some(4 << 20),
            ..Default::default()
        };
        let t = open_target(path.to_str().unwrap(), &opts).unwrap();
        let stop = AtomicBool::new(false);
        let mut calls = 0;
        let done = prefill(
            &t,
            &mut |c, _| c.fill(0xAB),
            &mut |_, _| {
                calls += 1;
                stop.store(true, Ordering::Relaxed);
            },
            &stop,
        )
        .unwrap();
        assert!(!done);
        assert_eq!(calls, 1);
        let f = std::fs::File::open(&path).unwrap();
        let mut b = [0u8; 2];
        f.read_exact_at(&mut b, (1 << 20) - 1).unwrap();
        assert_eq!(b, [0xAB, 0]);
    }
}
