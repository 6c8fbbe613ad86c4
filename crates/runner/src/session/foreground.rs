//! One foreground session: pick a page, read the work unit (logically adjacent, physically
//! scattered) one page at a time or as one batch, and, for the operations the update quota
//! picks, dirty the pages for the data writer and commit their redo.

use super::batch::run_batch;
use super::meter::{Ev, Meter};
use super::redo::Redo;
use super::Layout;
use crate::pattern::{Deck, PageSpread};
use dbio_engine::{Engine, IoError, Op, OpKind};
use dbio_model::session::{SessionSpec, Think};
use fastrand::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What one session runs with.
pub struct SessionPlan {
    pub id: u32,
    pub spec: SessionSpec,
    pub layout: Arc<Layout>,
    pub spread: PageSpread,
    pub seed: u64,
    /// Time-based runs: when the session stops starting operations.
    pub until: Option<Instant>,
    /// Operations this session does while measuring (`--ops` runs).
    pub quota: Option<u64>,
    pub stop: Arc<AtomicBool>,
    /// Pages the session dirtied, for the data writer.
    pub dirty: SyncSender<(u32, u64)>,
    pub redo: Arc<Redo>,
}

/// Runs one session to its end.
pub fn run_session<E: Engine>(mut engine: E, p: SessionPlan, meter: &mut Meter) {
    let s = &p.spec;
    let mut rng = Rng::with_seed(p.seed ^ (p.id as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut spread = p.spread;
    let mut update = Deck::new(&[
        (true, s.update_pct as u32),
        (false, 100 - s.update_pct as u32),
    ]);
    let mut hit = Deck::new(&[
        (true, s.cache_hit_pct as u32),
        (false, 100 - s.cache_hit_pct as u32),
    ]);
    let wu = s.work_unit as usize;
    let mut ops: Vec<Op> = Vec::with_capacity(wu);
    let mut pages: Vec<(u32, u64)> = Vec::with_capacity(wu);
    let mut done = vec![Instant::now(); wu];
    let target_of = |t: u32| p.layout.names[t as usize].clone();
    let mut since_think = 0u32;
    loop {
        let now = Instant::now();
        meter.tick(now);
        if p.stop.load(Ordering::Relaxed)
            || p.until.is_some_and(|u| now >= u)
            || (meter.measuring() && p.quota.is_some_and(|q| meter.ops >= q))
        {
            break;
        }
        let measured = meter.measuring();
        let first = spread.pick(&mut rng);
        pages.clear();
        ops.clear();
        let mut hits = 0;
        for i in 0..wu as u64 {
            let (target, offset) = p.layout.place(first + i);
            pages.push((target, offset));
            if hit.draw(&mut rng) {
                hits += 1;
            } else {
                ops.push(Op {
                    kind: OpKind::Read,
                    target,
                    offset,
                    len: s.page as u32,
                    slot: ops.len() as u32,
                });
            }
        }
        let result = read_unit(&mut engine, s, &ops, &mut done, &target_of, meter);
        if let Err(e) = result {
            meter.error = Some(e);
            break;
        }
        if update.draw(&mut rng) && !commit_update(&p.dirty, &p.redo, s, &pages, meter, measured) {
            break; // the log writer stopped (an error or the end of the run)
        }
        if measured {
            meter.ops += 1;
            meter.cache_hits += hits;
        }
        if let Some(t) = s.think {
            think(&t, &mut since_think, &mut rng, meter, measured);
        }
    }
}

/// Reads the pages of a work unit that missed the cache (`ops`): as one batch, or one page
/// at a time; records each read's latency and the wait of the session.
fn read_unit<E: Engine>(
    engine: &mut E,
    s: &SessionSpec,
    ops: &[Op],
    done: &mut [Instant],
    target_of: &dyn Fn(u32) -> String,
    meter: &mut Meter,
) -> Result<(), IoError> {
    if s.batch_reads && ops.len() > 1 {
        let start = Instant::now();
        let r = run_batch(engine, ops, done, target_of);
        for d in &done[..ops.len()] {
            meter.io(
                false,
                s.page,
                d.saturating_duration_since(start).as_nanos() as u64,
            );
        }
        let last = done[..ops.len()].iter().max().copied().unwrap_or(start);
        meter.wait(
            Ev::ParallelRead,
            last.saturating_duration_since(start).as_nanos() as u64,
        );
        r
    } else {
        let mut r = Ok(());
        for op in ops {
            let start = Instant::now();
            let one = Op { slot: 0, ..*op };
            r = run_batch(engine, &[one], done, target_of);
            if r.is_err() {
                break;
            }
            let ns = done[0].saturating_duration_since(start).as_nanos() as u64;
            meter.io(false, s.page, ns);
            meter.wait(Ev::SequentialRead, ns);
        }
        r
    }
}

/// An update: dirties the work unit's `pages` for the data writer (waiting for it when its
/// list is full) and commits their redo. False when the log writer has stopped.
fn commit_update(
    dirty: &SyncSender<(u32, u64)>,
    redo_log: &Redo,
    s: &SessionSpec,
    pages: &[(u32, u64)],
    meter: &mut Meter,
    measured: bool,
) -> bool {
    for &page in pages {
        if let Err(TrySendError::Full(page)) = dirty.try_send(page) {
            // The dirty list is full: the session waits for the data writer.
            let start = Instant::now();
            if dirty.send(page).is_err() {
                break;
            }
            meter.wait(Ev::FreeBufferWait, start.elapsed().as_nanos() as u64);
        }
    }
    let redo = s.work_unit as u64 * s.redo_stress;
    let start = Instant::now();
    if redo_log.commit(redo).is_none() {
        return false;
    }
    meter.wait(Ev::LogFileSync, start.elapsed().as_nanos() as u64);
    if measured {
        meter.updates += 1;
        meter.redo_bytes += redo;
    }
    true
}

/// Think time (`think` in the session spec): every `t.every` operations, a random pause.
fn think(t: &Think, since_think: &mut u32, rng: &mut Rng, meter: &mut Meter, measured: bool) {
    *since_think += 1;
    if *since_think >= t.every {
        *since_think = 0;
        let ns = rng.u64(t.min_ns..=t.max_ns);
        std::thread::sleep(Duration::from_nanos(ns));
        if measured {
            meter.think_ns += ns;
        }
    }
}
