//! The portable engine: pread/pwrite/fdatasync, one operation at a time, executed during submit.

use crate::buffer::AlignedBuf;
use crate::engine::{buf_start, Engine, EngineSetup, Op, OpKind};
use crate::error::IoError;
use std::time::Duration;

/// Synchronous I/O on the worker thread; its queue depth is effectively 1.
pub struct PsyncEngine {
    fds: Vec<i32>,
    bufs: AlignedBuf,
    slot_len: usize,
    done: Vec<(u32, i32)>,
}

impl PsyncEngine {
    /// A psync engine over `setup.fds` with `setup.slots` buffers.
    pub fn new(setup: &EngineSetup) -> Self {
        PsyncEngine {
            fds: setup.fds.to_vec(),
            bufs: AlignedBuf::new(2 * setup.slot_len * setup.slots as usize),
            slot_len: setup.slot_len,
            done: Vec::with_capacity(setup.slots as usize * 2),
        }
    }

    fn run(&mut self, op: &Op) -> i32 {
        let fd = self.fds[op.target as usize];
        let start = buf_start(op.slot, op.kind, self.slot_len);
        let buf = &mut self.bufs.as_mut_slice()[start..start + op.len as usize];
        // SAFETY: fd is an open descriptor owned by the runner for the engine's lifetime; buf is
        // valid for op.len bytes and exclusively borrowed here.
        let r = unsafe {
            match op.kind {
                OpKind::Read => {
                    libc::pread(fd, buf.as_mut_ptr().cast(), buf.len(), op.offset as i64) as i64
                }
                OpKind::Write => {
                    libc::pwrite(fd, buf.as_ptr().cast(), buf.len(), op.offset as i64) as i64
                }
                OpKind::Fdatasync => libc::fdatasync(fd) as i64,
                OpKind::Fsync => libc::fsync(fd) as i64,
            }
        };
        if r < 0 {
            -std::io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        } else {
            r as i32
        }
    }
}

impl Engine for PsyncEngine {
    fn submit(
        &mut self,
        ops: &[Op],
        _wait: u32,
        _timeout: Option<Duration>,
    ) -> Result<(), IoError> {
        for op in ops {
            let r = self.run(op);
            self.done.push((op.slot, r));
        }
        Ok(())
    }

    fn reap<F: FnMut(u32, i32)>(&mut self, mut f: F) {
        for (slot, r) in self.done.drain(..) {
            f(slot, r);
        }
    }

    fn buf(&mut self, slot: u32) -> &mut [u8] {
        let start = buf_start(slot, OpKind::Write, self.slot_len);
        &mut self.bufs.as_mut_slice()[start..start + self.slot_len]
    }

    fn features(&self) -> Vec<String> {
        Vec::new()
    }
}
