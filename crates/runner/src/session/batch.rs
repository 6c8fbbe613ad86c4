//! One batch of I/Os through an engine, waited for as a whole: what a session's page reads
//! and the writers' batches are made of.

use dbio_engine::{Engine, IoError, Op, OpKind};
use std::time::{Duration, Instant};

/// The longest single wait before the stop flag is looked at again.
const MAX_WAIT: Duration = Duration::from_millis(100);

/// Submits `ops` (on slots 0..n) and waits for all of them; `done[i]` gets the completion time
/// of slot i. An error names the failed operation on `target`.
pub fn run_batch<E: Engine>(
    engine: &mut E,
    ops: &[Op],
    done: &mut [Instant],
    target_of: &dyn Fn(u32) -> String,
) -> Result<(), IoError> {
    let mut left = ops.len() as u32;
    let mut first = true;
    let mut failure = None;
    while left > 0 {
        let to_submit = if first { ops } else { &[] };
        first = false;
        engine.submit(to_submit, left, Some(MAX_WAIT))?;
        let now = Instant::now();
        engine.reap(|slot, res| {
            left -= 1;
            done[slot as usize] = now;
            let op = ops[slot as usize];
            if failure.is_none() && (res < 0 || res as u32 != op.len) {
                let err = if res < 0 {
                    std::io::Error::from_raw_os_error(-res)
                } else {
                    std::io::Error::other(format!("short transfer: {res} of {} bytes", op.len))
                };
                let name = if op.kind == OpKind::Read {
                    "pread"
                } else {
                    "pwrite"
                };
                failure = Some(IoError::at(
                    name,
                    &target_of(op.target),
                    op.offset,
                    op.len as u64,
                    err,
                ));
            }
        });
    }
    failure.map_or(Ok(()), Err)
}
