//! `--invalidate` while a buffered run goes on: fio drops a job's file from the page cache
//! again each time the job wraps round it (each `size` bytes it moves, random or sequential),
//! so its reads keep reaching the device; a worker does the same, for its part of the region,
//! after each pass's worth of bytes over it (sequential threads each walk a slice: each drops
//! its own, as fio's clones, each walking the whole file, drop the whole).

use std::os::fd::RawFd;

/// Counts the bytes a worker issues and drops its targets' clean pages after each pass.
pub(crate) struct Invalidate {
    /// The worker's part of the region on each target: its start and length.
    part: (u64, u64),
    /// Bytes in one pass: that part over all its targets.
    every: u64,
    moved: u64,
    fds: Vec<RawFd>,
}

impl Invalidate {
    /// Drops the pages of `part` (start, length) of each of `fds` after each pass over it.
    pub(crate) fn new(part: (u64, u64), fds: Vec<RawFd>) -> Self {
        Invalidate {
            part,
            every: (part.1 * fds.len() as u64).max(1),
            moved: 0,
            fds,
        }
    }

    /// Counts an I/O of `bytes` about to be issued; when the pass before it is complete,
    /// first drops the pages, as fio does on wrapping round (a failure to drop leaves the
    /// cache as it is: the run's start already checked that dropping works).
    #[inline]
    pub(crate) fn issued(&mut self, bytes: u64) {
        if self.moved >= self.every {
            self.moved = 0;
            for &fd in &self.fds {
                let _ = dbio_engine::sys::drop_clean_pages(fd, self.part.0, self.part.1);
            }
        }
        self.moved += bytes;
    }
}
