//! The pacing of a replayed trace: each request goes at its captured time (open loop, its
//! clock started when it was due, so a late device is charged with the wait), or with
//! `--as-fast-as-possible` whenever a slot is free (closed loop, the trace's order kept).

use super::pacing::{Pacing, MAX_WAIT};
use super::report::ReplayStats;
use crate::pattern::{NextIo, Pattern};
use crate::replay::TraceFeed;
use dbio_model::Burst;
use fastrand::Rng;
use std::time::{Duration, Instant};

/// A request issued this close to its time counts as on time.
const ON_TIME: Duration = Duration::from_micros(100);

/// The trace's requests at their times (`TIMED`) or as fast as the slots allow.
pub(super) struct TracePacing<const TIMED: bool> {
    feed: TraceFeed,
    /// When the trace's first request is due.
    t0: Instant,
    /// The next request, read but not issued, and when it is due.
    pending: Option<(Instant, NextIo)>,
    done: bool,
    stats: ReplayStats,
}

impl<const TIMED: bool> TracePacing<TIMED> {
    /// The pacing of `feed`, its first request due at `t0`.
    pub(super) fn new(feed: TraceFeed, t0: Instant) -> Self {
        TracePacing {
            feed,
            t0,
            pending: None,
            done: false,
            stats: ReplayStats::empty(),
        }
    }

    /// The next request's time, reading it from the trace if need be; None at the end.
    fn next_due(&mut self) -> Option<Instant> {
        if self.pending.is_none() && !self.done {
            match self.feed.next_io() {
                Some(t) => {
                    self.pending = Some((self.t0 + Duration::from_nanos(t.due_ns), t.io));
                }
                None => self.done = true,
            }
        }
        self.pending.map(|p| p.0)
    }
}

impl<const TIMED: bool> Pacing for TracePacing<TIMED> {
    const CLOSED: bool = !TIMED;

    fn resume_at(&mut self, _: Instant) {}

    #[inline]
    fn start_of(&mut self, now: Instant, _: &mut Rng) -> Option<Instant> {
        let due = self.next_due()?;
        if !TIMED {
            return Some(now);
        }
        if due > now {
            return None;
        }
        let lag = now.saturating_duration_since(due);
        self.stats.lag.saturating_record(lag.as_nanos() as u64);
        self.stats.on_time += u64::from(lag <= ON_TIME);
        Some(due)
    }

    #[inline]
    fn next_io(&mut self, _: &mut Pattern, _: &mut Rng) -> NextIo {
        self.stats.issued += 1;
        self.pending
            .take()
            .expect("start_of read the request before it is issued")
            .1
    }

    fn exhausted(&self) -> bool {
        self.done
    }

    #[inline]
    fn wake(&self) -> Option<Instant> {
        if TIMED {
            self.pending.map(|p| p.0)
        } else {
            None
        }
    }

    #[inline]
    fn wait(&self, submit_at: Instant, can_issue: bool) -> (u32, Option<Duration>) {
        match self.pending {
            Some((due, _)) if TIMED && can_issue => {
                if due <= submit_at {
                    (0, None)
                } else {
                    let until_due = due.saturating_duration_since(submit_at);
                    (1, Some(until_due.clamp(Duration::from_micros(1), MAX_WAIT)))
                }
            }
            _ => (1, Some(MAX_WAIT)),
        }
    }

    fn behind(&self, _: Instant, _: u64, _: Option<Burst>) -> bool {
        // A timed replay that issued fewer than nine in ten requests on time did not keep
        // the trace's load.
        TIMED && self.stats.on_time * 10 < self.stats.issued * 9
    }

    fn replay(&mut self) -> Option<ReplayStats> {
        let mut s = std::mem::replace(&mut self.stats, ReplayStats::empty());
        (s.folded, s.discards, s.error) =
            (self.feed.folded, self.feed.discards, self.feed.error.take());
        Some(s)
    }
}
