//! The time side of a worker: whether it is ramping, settling (`--steady`) or measuring, when
//! measuring ends, and the per-second intervals it sends while settling and measuring.

use super::report::Interval;
use super::state::State;
use crate::timeline::MeasureStart;
use dbio_engine::sys::{thread_cpu, CpuTimes};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Where a worker is on the run's timeline, and the seconds it has sent.
pub(super) struct Phase {
    worker: u32,
    intervals: Sender<Interval>,
    /// When measuring starts, once known (shared with the runner).
    start: MeasureStart,
    /// With `--steady`: when settling samples begin.
    settle_from: Option<Instant>,
    /// Measuring time of time-based runs.
    measure_secs: Option<f64>,
    /// Measuring has begun.
    pub(super) measuring: bool,
    /// When measuring began (a placeholder until it has).
    pub(super) measure_from: Instant,
    /// When measuring ends (time-based runs).
    measure_until: Option<Instant>,
    /// This thread's CPU when measuring began.
    cpu0: CpuTimes,
    next_tick: Instant,
    tick_index: u32,
    next_settle_tick: Instant,
    settle_index: u32,
}

impl Phase {
    /// The phase of worker `worker` whose clock was first read at `t0`.
    pub(super) fn new(
        worker: u32,
        intervals: Sender<Interval>,
        start: MeasureStart,
        settle_from: Option<Instant>,
        measure_secs: Option<f64>,
        t0: Instant,
    ) -> Self {
        // Until measuring starts these hold placeholders; its start gives them their values.
        let measure_from = start.get().unwrap_or(t0);
        let measuring = start.get().is_some_and(|m| t0 >= m);
        let measure_until = if measuring {
            until(measure_secs, measure_from)
        } else {
            None
        };
        Phase {
            worker,
            intervals,
            start,
            settle_from,
            measure_secs,
            measuring,
            measure_from,
            measure_until,
            cpu0: thread_cpu(),
            next_tick: measure_from + Duration::from_secs(1),
            tick_index: 0,
            next_settle_tick: t0,
            settle_index: 0,
        }
    }

    /// Moves the phase on to `now`: measuring or settling begins, every second that ended
    /// is sent. True when measuring is over (time-based runs).
    #[inline(always)]
    pub(super) fn advance(&mut self, now: Instant, st: &mut State) -> bool {
        if let Some(from) = self.start.get().filter(|m| !self.measuring && now >= *m) {
            self.begin_measuring(from, st);
        }
        if let Some(from) = self
            .settle_from
            .filter(|f| !self.measuring && !st.settling && now >= *f)
        {
            // Settling samples begin: the ramp's completions are left out.
            st.settling = true;
            self.next_settle_tick = from + Duration::from_secs(1);
            st.clear_interval();
        }
        while st.settling && now >= self.next_settle_tick {
            self.send(st, self.settle_index, 1.0, true);
            self.settle_index += 1;
            self.next_settle_tick += Duration::from_secs(1);
        }
        while self.measuring && now >= self.next_tick {
            self.send(st, self.tick_index, 1.0, false);
            self.tick_index += 1;
            self.next_tick += Duration::from_secs(1);
        }
        self.measure_until.is_some_and(|u| now >= u)
    }

    /// Measuring begins at `from`: anything recorded during the ramp or settling is discarded.
    fn begin_measuring(&mut self, from: Instant, st: &mut State) {
        (self.measuring, self.measure_from) = (true, from);
        self.measure_until = until(self.measure_secs, from);
        self.next_tick = from + Duration::from_secs(1);
        self.cpu0 = thread_cpu();
        st.settling = false;
        st.totals = Default::default();
        st.interval.iter_mut().for_each(|h| h.reset());
        st.clear_interval();
    }

    /// Sends the current interval as second `index` of `secs` seconds.
    fn send(&self, st: &mut State, index: u32, secs: f64, settling: bool) {
        let _ = self
            .intervals
            .send(st.take_interval(self.worker, index, secs, settling));
    }

    /// The worker ended at `end`: sends the last (partial) second; returns the wall time
    /// while measuring (zero when measuring never began).
    pub(super) fn finish(&self, end: Instant, st: &mut State) -> f64 {
        if !self.measuring {
            return 0.0;
        }
        let last_secs =
            (end.saturating_duration_since(self.next_tick - Duration::from_secs(1))).as_secs_f64();
        if last_secs > 0.0 || st.iv_reads + st.iv_writes > 0 {
            self.send(st, self.tick_index, last_secs.min(1.0), false);
        }
        end.saturating_duration_since(self.measure_from)
            .as_secs_f64()
    }

    /// This thread's CPU while measuring (zero when measuring never began).
    pub(super) fn cpu(&self) -> CpuTimes {
        if self.measuring {
            thread_cpu().since(self.cpu0)
        } else {
            CpuTimes::default()
        }
    }
}

/// When measuring ends, for a time-based run measuring from `from`.
fn until(measure_secs: Option<f64>, from: Instant) -> Option<Instant> {
    measure_secs.map(|s| from + Duration::from_secs_f64(s))
}
