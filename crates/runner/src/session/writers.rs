//! The background writers of a session run: the data writer writes dirtied pages back in
//! batches (db file parallel write); the log writer writes the redo of committing sessions
//! in group writes to the log target, each durable before the commits it covers complete
//! (log file parallel write).

use super::batch::run_batch;
use super::meter::{Ev, Meter};
use super::redo::Redo;
use super::Layout;
use crate::datagen::WriteData;
use dbio_engine::{Engine, Op, OpKind};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a writer waits for work before it looks at the clock again.
const IDLE: Duration = Duration::from_millis(100);

/// The data writer: takes dirty pages as they come, up to `batch` at a time, and writes each
/// batch at once. Ends when every session has gone and the dirty list is empty.
pub fn data_writer<E: Engine>(
    mut engine: E,
    dirty: Receiver<(u32, u64)>,
    layout: Arc<Layout>,
    batch: u32,
    mut data: WriteData,
    meter: &mut Meter,
) {
    let page = layout.page;
    let target_of = |t: u32| layout.names[t as usize].clone();
    let mut ops: Vec<Op> = Vec::with_capacity(batch as usize);
    let mut done = vec![Instant::now(); batch as usize];
    loop {
        meter.tick(Instant::now());
        let first = match dirty.recv_timeout(IDLE) {
            Ok(p) => p,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        };
        ops.clear();
        for (target, offset) in
            std::iter::once(first).chain(dirty.try_iter().take(batch as usize - 1))
        {
            let slot = ops.len() as u32;
            data.fill(&mut engine.buf(slot)[..page as usize], offset);
            ops.push(Op {
                kind: OpKind::Write,
                target,
                offset,
                len: page as u32,
                slot,
            });
        }
        let start = Instant::now();
        let r = run_batch(&mut engine, &ops, &mut done, &target_of);
        for d in &done[..ops.len()] {
            meter.io(
                true,
                page,
                d.saturating_duration_since(start).as_nanos() as u64,
            );
        }
        let last = done[..ops.len()].iter().max().copied().unwrap_or(start);
        meter.wait(
            Ev::ParallelWrite,
            last.saturating_duration_since(start).as_nanos() as u64,
        );
        if let Err(e) = r {
            // Returning drops the dirty list: sessions waiting on it stop too.
            meter.error = Some(e);
            return;
        }
    }
}

/// Where the log writer writes: a file opened for durable writes (O_DSYNC), wrapped around.
#[derive(Clone)]
pub struct LogFile {
    pub name: String,
    pub size: u64,
    /// Every write is padded to a multiple of this (the log's logical block size).
    pub block: u64,
}

/// The log writer: writes all redo appended since its last write (up to its buffer) in one
/// durable write, then lets the commits it covered complete. Ends when the redo is closed.
pub fn log_writer<E: Engine>(
    mut engine: E,
    redo: &Redo,
    log: LogFile,
    max_write: u64,
    mut data: WriteData,
    meter: &mut Meter,
) {
    let target_of = |_| log.name.clone();
    let mut done = [Instant::now()];
    let (mut written, mut at) = (0u64, 0u64);
    loop {
        meter.tick(Instant::now());
        let Some((from, len)) = redo.next_write(written, max_write, IDLE) else {
            if redo.is_closed() {
                return;
            }
            continue;
        };
        let padded = len.div_ceil(log.block) * log.block;
        if at + padded > log.size {
            at = 0;
        }
        data.fill(&mut engine.buf(0)[..padded as usize], at);
        let op = Op {
            kind: OpKind::Write,
            target: 0,
            offset: at,
            len: padded as u32,
            slot: 0,
        };
        let start = Instant::now();
        if let Err(e) = run_batch(&mut engine, &[op], &mut done, &target_of) {
            meter.error = Some(e);
            redo.close();
            return;
        }
        meter.wait(
            Ev::LogParallelWrite,
            done[0].saturating_duration_since(start).as_nanos() as u64,
        );
        if meter.measuring() {
            meter.log_bytes += padded;
        }
        at += padded;
        written = from + len;
        redo.durable(written);
    }
}
