//! The measured window: gathering the workers' per-second intervals into the run's series,
//! with process and host CPU over it, and holding the CPUs awake meanwhile.

use crate::collect::Collector;
use crate::event::Event;
use crate::hostcpu::{busy_pct, cpu_shares, host_ticks, per_cpu_ticks};
use crate::steady::Settler;
use crate::timeline::Timeline;
use crate::warn;
use crate::worker::Interval;
use dbio_engine::sys::process_cpu;
use dbio_model::spill::Spill;
use dbio_model::*;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

/// What the measured window showed besides the workers' totals.
pub(crate) struct Window {
    pub timeseries: Vec<TimePoint>,
    pub cpu: dbio_engine::sys::CpuTimes,
    pub host_busy: f64,
    /// Each CPU of the host over the window.
    pub per_cpu: Vec<CpuShare>,
    pub started_at: SystemTime,
    /// Measuring began (the ramp ended) before everything stopped.
    pub took_start: bool,
    /// How the CPUs' idle states were handled while measuring (see [`hold_cpus`]).
    pub cpu_idle: Option<String>,
    /// What a CPU's wake-up from idle took here, when the CPUs were not held awake (see
    /// [`wake_cost`]).
    pub wake: Option<Duration>,
}

/// Gathers the per-second intervals of `workers` senders until all are gone, telling the
/// caller about each second (settling seconds go to `settler`); measures process and host CPU
/// over the measured window. `poll` runs at least every 50 ms.
pub(crate) fn gather(
    rx: mpsc::Receiver<Interval>,
    workers: u32,
    timeline: &Timeline,
    mut settler: Option<&mut Settler>,
    on_event: &mut dyn FnMut(Event),
    poll: &mut dyn FnMut(),
) -> Window {
    // The run's spill file: its seconds' histograms wait there until the result is written.
    let mut collector = Collector::new(workers, Spill::new());
    let mut cpu0 = process_cpu();
    let mut ticks0 = host_ticks();
    let mut each0 = per_cpu_ticks();
    let mut started_at = SystemTime::now();
    let mut took_start = false;
    loop {
        let now = Instant::now();
        if let Some(s) = settler.as_mut() {
            s.poll(now);
        }
        if let Some(from) = timeline.start.get().filter(|m| !took_start && now >= *m) {
            (cpu0, ticks0, took_start) = (process_cpu(), host_ticks(), true);
            each0 = per_cpu_ticks();
            started_at = SystemTime::now() - now.saturating_duration_since(from);
        }
        poll();
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(iv) if iv.settling => {
                if let Some(s) = settler.as_mut() {
                    s.add(iv);
                }
            }
            Ok(iv) => {
                if let Some(point) = collector.add(iv) {
                    let before = timeline.start.get().map_or(0.0, |m| {
                        m.saturating_duration_since(timeline.origin).as_secs_f64()
                    });
                    on_event(Event::Tick {
                        point: &point,
                        elapsed: point.t + before,
                    });
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    Window {
        cpu: process_cpu().since(cpu0),
        host_busy: busy_pct(ticks0, host_ticks()),
        per_cpu: cpu_shares(&each0, &per_cpu_ticks()),
        timeseries: collector.finish(),
        started_at,
        took_start,
        cpu_idle: None,
        wake: None,
    }
}

/// Keeps the CPUs out of idle states while the workers run, when the job asks for it (the
/// default); says in the result what was done, and warns when it could not be done.
pub(crate) fn hold_cpus(
    spec: &JobSpec,
    warnings: &mut Vec<Warning>,
) -> (Option<dbio_engine::sys::CpusAwake>, Option<String>) {
    if spec.cpu_idle == CpuIdle::Allow {
        return (None, Some("allowed (--cpu-idle allow)".into()));
    }
    match dbio_engine::sys::hold_cpus_awake() {
        Ok(h) => (
            Some(h),
            Some("held awake (/dev/cpu_dma_latency 0 µs)".into()),
        ),
        Err(e) => {
            if spec.qd <= 4 && spec.rate.is_none() {
                warnings.push(warn::cpu_idle_allowed(&e));
            }
            (None, Some(format!("allowed: /dev/cpu_dma_latency: {e}")))
        }
    }
}

/// Ends the hold of [`hold_cpus`] once the workers are done, and says what a CPU's wake-up
/// from idle takes here when the CPUs were not held awake (`awake` None): the median
/// overshoot of 101 sleeps of 50 µs.
pub(crate) fn wake_cost(awake: Option<dbio_engine::sys::CpusAwake>) -> Option<Duration> {
    awake
        .is_none()
        .then(|| dbio_engine::sys::wake_overshoot(101, Duration::from_micros(50)))
}
