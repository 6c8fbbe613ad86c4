//! The null engine: every operation completes at once without touching a device, so a run
//! measures dbio's own cost per I/O (generation, timing, recording).

use crate::buffer::AlignedBuf;
use crate::engine::{buf_start, Engine, EngineSetup, Op, OpKind};
use crate::error::IoError;
use std::time::Duration;

/// Completes every operation immediately with its full length.
pub struct NullEngine {
    bufs: AlignedBuf,
    slot_len: usize,
    done: Vec<(u32, i32)>,
}

impl NullEngine {
    /// A null engine with `setup.slots` buffers.
    pub fn new(setup: &EngineSetup) -> Self {
        NullEngine {
            bufs: AlignedBuf::new(2 * setup.slot_len * setup.slots as usize),
            slot_len: setup.slot_len,
            done: Vec::with_capacity(setup.slots as usize * 2),
        }
    }
}

impl Engine for NullEngine {
    #[inline]
    fn submit(
        &mut self,
        ops: &[Op],
        _wait: u32,
        _timeout: Option<Duration>,
    ) -> Result<(), IoError> {
        self.done.extend(ops.iter().map(|op| {
            let res = match op.kind {
                OpKind::Read | OpKind::Write => op.len as i32,
                OpKind::Fdatasync | OpKind::Fsync => 0,
            };
            (op.slot, res)
        }));
        Ok(())
    }

    #[inline]
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
