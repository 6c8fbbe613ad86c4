//! `--invalidate` while a buffered run goes on: fio drops a job's file from the page cache
//! again each time the job wraps round it (each `size` bytes it moves, random or sequential),
//! so its reads keep reaching the device; a worker does the same after each pass's worth of
//! bytes over its part of the region.

use std::os::fd::RawFd;

/// Counts the bytes a worker issues and drops its targets' clean pages after each pass.
pub(crate) struct Invalidate {
    /// Bytes in one pass: the worker's part of the region, over all its targets.
    every: u64,
    moved: u64,
    fds: Vec<RawFd>,
}

impl Invalidate {
    /// Drops the pages of `fds` after each `every` bytes issued (at least one byte).
    pub(crate) fn new(every: u64, fds: Vec<RawFd>) -> Self {
        Invalidate {
            every: every.max(1),
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
                let _ = dbio_engine::sys::drop_clean_pages(fd);
            }
        }
        self.moved += bytes;
    }
}
