//! The synchronous engines, executed during submit on the worker thread: `psync`
//! (pread/pwrite/fdatasync, one I/O at a time) and `null` (every operation completes at once
//! without touching a device, so a run measures dbio's own cost per I/O).

use crate::buffer::SlotBuffers;
use crate::engine::{Engine, EngineSetup, Op, OpKind};
use crate::error::IoError;
use std::time::Duration;

/// psync or null; see the module docs.
pub struct SyncEngine {
    /// Target descriptors; None for the null engine.
    fds: Option<Vec<i32>>,
    bufs: SlotBuffers,
    done: Vec<(u32, i32)>,
}

impl SyncEngine {
    /// The psync engine over `setup.fds`.
    pub fn psync(setup: &EngineSetup) -> Self {
        Self::new(setup, Some(setup.fds.to_vec()))
    }

    /// The null engine.
    pub fn null(setup: &EngineSetup) -> Self {
        Self::new(setup, None)
    }

    fn new(setup: &EngineSetup, fds: Option<Vec<i32>>) -> Self {
        SyncEngine {
            fds,
            bufs: SlotBuffers::new(setup.slots, setup.slot_len),
            done: Vec::with_capacity(setup.slots as usize * 2),
        }
    }

    /// Executes `op`: bytes done, or a negative errno.
    #[inline]
    fn run(&mut self, op: &Op) -> i32 {
        let Some(fds) = &self.fds else {
            return match op.kind {
                OpKind::Read | OpKind::Write => op.len as i32,
                OpKind::Fdatasync | OpKind::Fsync => 0,
            };
        };
        let fd = fds[op.target as usize];
        let buf = &mut self.bufs.half(op.slot, op.kind == OpKind::Write)[..op.len as usize];
        // SAFETY: fd is an open descriptor the runner keeps open for the engine's lifetime;
        // buf is valid for op.len bytes and exclusively borrowed here.
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

impl Engine for SyncEngine {
    #[inline]
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

    #[inline]
    fn reap<F: FnMut(u32, i32)>(&mut self, mut f: F) {
        for (slot, r) in self.done.drain(..) {
            f(slot, r);
        }
    }

    fn buf(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.half(slot, true)
    }

    fn read_buf(&mut self, slot: u32) -> &[u8] {
        self.bufs.half(slot, false)
    }

    fn features(&self) -> Vec<String> {
        Vec::new()
    }
}
