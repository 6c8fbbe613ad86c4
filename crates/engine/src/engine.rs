//! The engine interface: workers queue operations on buffer slots, submit them in batches
//! and reap completions. One engine per worker thread, never shared.

use crate::error::IoError;
use std::os::fd::RawFd;
use std::time::Duration;

/// What an operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    Read,
    Write,
    Fdatasync,
    Fsync,
}

/// One operation on a target, using the buffer of `slot` (reads and writes).
/// Its completion is reported with the same slot.
#[derive(Debug, Clone, Copy)]
pub struct Op {
    pub kind: OpKind,
    /// Index into the engine's targets.
    pub target: u32,
    pub offset: u64,
    pub len: u32,
    pub slot: u32,
}

/// What an engine is built from.
pub struct EngineSetup<'a> {
    /// Open file descriptors of the targets, in target order.
    pub fds: &'a [RawFd],
    /// Number of buffer slots (the most operations in flight).
    pub slots: u32,
    /// Bytes per slot: the largest block size.
    pub slot_len: usize,
    /// io_uring: polled completions.
    pub hipri: bool,
    /// io_uring: kernel submission thread.
    pub sqpoll: bool,
}

/// A per-worker I/O engine.
pub trait Engine: Send {
    /// Submits `ops` and, when `wait` > 0, makes sure completions are ready: at once if some
    /// already are, else by waiting until `wait` are or `timeout` passes. An error here is an
    /// error of the engine itself, not of one I/O.
    fn submit(&mut self, ops: &[Op], wait: u32, timeout: Option<Duration>) -> Result<(), IoError>;
    /// Hands every ready completion to `f` as (slot, result): bytes done, or a negative errno.
    fn reap<F: FnMut(u32, i32)>(&mut self, f: F);
    /// The buffer of `slot` that writes are made from, `slot_len` bytes long.
    fn buf(&mut self, slot: u32) -> &mut [u8];
    /// The buffer of `slot` that reads land in (`--verify` checks it); the write buffer in
    /// engines that use one buffer for both.
    fn read_buf(&mut self, slot: u32) -> &[u8] {
        self.buf(slot)
    }
    /// Features in use, for the result.
    fn features(&self) -> Vec<String>;
}
