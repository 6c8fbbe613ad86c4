//! The discrete-event core of `--engine sim`: the job's load (threads × qd closed loop, or
//! open loop at `--rate`) against `channels` servers on one FIFO queue and a full-duplex
//! link of fixed bandwidth per direction shared by all I/Os, in virtual nanoseconds. One
//! binary heap of events and buffers sized once: no allocation per event. Bursts and
//! settling to a steady state (`--burst`, `--steady`) run in the same virtual time, as the
//! real workers do them: no I/O is issued between bursts (a paced schedule resumes at the
//! next one), and measuring starts at the first whole virtual second after which the last
//! window of settling seconds meets the criterion, or at the cap.

use crate::collect::point;
use crate::pattern::Pattern;
use crate::steady::{holds, state};
use crate::worker::{exp_gap, DirTotals};
use dbio_engine::OpKind;
use dbio_model::histogram::{encode_compact, new_histogram, Encoder};
use dbio_model::spill::Spill;
use dbio_model::{
    Arrivals, JobSpec, Moments, ServiceDist, SimDevice, Steady, SteadyMetric, SteadyState,
    StopAfter, ThreadDir, ThreadStats, TimePoint,
};
use fastrand::Rng;
use hdrhistogram::Histogram;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const NS: u64 = 1_000_000_000;

/// What an event does; the u32 is a worker (arrivals) or an I/O slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum What {
    /// Open loop: the next scheduled I/O of a worker is due.
    Arrival(u32),
    /// A channel finished serving the I/O.
    Served(u32),
    /// The link finished carrying the I/O's data.
    Carried(u32),
    /// The I/O's fixed link latency has passed: it is complete.
    Done(u32),
}

/// An event as one number (one comparison per heap step): time, kind, worker or slot.
fn key(t: u64, what: What) -> u128 {
    let (kind, id) = match what {
        What::Arrival(w) => (0u128, w),
        What::Served(io) => (1, io),
        What::Carried(io) => (2, io),
        What::Done(io) => (3, io),
    };
    (t as u128) << 64 | kind << 32 | id as u128
}

fn unkey(k: u128) -> (u64, What) {
    let id = k as u32;
    let what = match (k >> 32) as u8 & 3 {
        0 => What::Arrival(id),
        1 => What::Served(id),
        2 => What::Carried(id),
        _ => What::Done(id),
    };
    ((k >> 64) as u64, what)
}

/// One I/O in flight.
#[derive(Debug, Clone, Copy)]
struct Io {
    worker: u32,
    read: bool,
    len: u32,
    /// Issue time, or the scheduled time in open loop: latency counts from here.
    start: u64,
    measured: bool,
}

/// The load one worker offers.
struct Load {
    pattern: Pattern,
    inflight: u32,
    /// Free I/O slots of this worker (indices into the slab).
    free: Vec<u32>,
    /// Open loop: the next scheduled issue time, and whether its arrival event is queued.
    next_due: u64,
    armed: bool,
    /// Measured I/Os and bytes issued (for --ops/--bytes quotas).
    issued: u64,
    issued_bytes: u64,
    quota_ios: u64,
    quota_bytes: u64,
    /// Open loop: the longest an I/O waited past its scheduled time for a free slot.
    lag_ns: u64,
}

/// What the simulation measured.
pub struct Measured {
    pub read: DirTotals,
    pub write: DirTotals,
    /// Virtual seconds from the end of the ramp to the last completion.
    pub wall_s: f64,
    /// I/Os issued while measuring.
    pub issued: u64,
    /// Open loop: the device could not keep up with the rate (I/Os waited for a free slot).
    pub behind: bool,
    pub interrupted: bool,
    /// How settling went, with `--steady`.
    pub steady: Option<SteadyState>,
    /// Each worker's reads and writes.
    pub threads: Vec<ThreadStats>,
}

/// Settling to a steady state (`--steady`): per-second samples of the completions after the
/// ramp, judged at each whole second.
struct Settling {
    steady: Steady,
    /// When settling began (the end of the ramp), its cap, and the end of the current second.
    from: u64,
    cap: u64,
    next: u64,
    /// Completions and bytes of the current second.
    ios: u64,
    bytes: u64,
    window: VecDeque<f64>,
    settled: bool,
}

/// The simulation state.
struct Sim<'a> {
    dev: &'a SimDevice,
    rng: Rng,
    now: u64,
    /// Events keyed by [`key`]: time first, then kind and id, so ties fall in a fixed order.
    events: BinaryHeap<Reverse<u128>>,
    slab: Vec<Io>,
    loads: Vec<Load>,
    qd: u32,
    /// Open loop: mean gap between one worker's I/Os, and Poisson or even spacing.
    pace: Option<Duration>,
    poisson: bool,
    free_channels: u32,
    channel_queue: VecDeque<u32>,
    /// The link, one lane per direction (full duplex): [reads, writes].
    link_busy: [bool; 2],
    link_queue: [VecDeque<u32>; 2],
    /// Where measuring starts (u64::MAX while settling), and ends for a timed run.
    measure_from: u64,
    measure_until: Option<u64>,
    /// The run's length in ns when timed (measure_until once measuring starts).
    measure_ns: Option<u64>,
    /// `--burst` in ns: I/O during the first `.0` of every `.1`.
    burst: Option<(u64, u64)>,
    settling: Option<Settling>,
    stopping: bool,
    totals: [DirTotals; 2],
    /// Per worker: [reads, writes].
    moments: Vec<[Moments; 2]>,
    /// Per worker, in a run of several: its [reads, writes] latency histograms.
    thread_hists: Vec<[Histogram<u64>; 2]>,
    interval: Histogram<u64>,
    encoder: Encoder,
    /// Where the seconds' histograms wait until the result is written.
    spill: Option<Spill>,
    iv_index: u32,
    iv: (u64, u64, u64),
    points: Vec<TimePoint>,
}

/// Simulates `spec` on `dev` over the region `start..end` (offsets are drawn as in a real
/// run, though the model ignores them); `stop` ends issuing early. Returns the outcome and
/// the time series in virtual seconds.
pub fn simulate(
    spec: &JobSpec,
    dev: &SimDevice,
    region: (u64, u64),
    stop: &AtomicBool,
) -> (Measured, Vec<TimePoint>) {
    let mut sim = Sim::new(spec, dev, region);
    for w in 0..spec.threads {
        sim.pump(w);
    }
    let interrupted = sim.run(stop);
    sim.outcome(interrupted)
}

/// Each worker's load: its pattern, free slots and share of the quota.
fn new_loads(spec: &JobSpec, region: (u64, u64)) -> Vec<Load> {
    let (threads, qd) = (spec.threads, spec.qd);
    let share = |n: u64, id: u32| n / threads as u64 + u64::from((id as u64) < n % threads as u64);
    let (quota_ios, quota_bytes) = match spec.stop {
        StopAfter::Seconds(_) => (u64::MAX, u64::MAX),
        StopAfter::Ops(n) => (n, u64::MAX),
        StopAfter::Bytes(b) => (u64::MAX, b),
    };
    (0..threads)
        .map(|id| Load {
            pattern: Pattern::new(spec, id, 1, region.0, region.1),
            inflight: 0,
            free: (id * qd..(id + 1) * qd).rev().collect(),
            next_due: 0,
            armed: false,
            issued: 0,
            issued_bytes: 0,
            quota_ios: if quota_ios == u64::MAX {
                u64::MAX
            } else {
                share(quota_ios, id)
            },
            quota_bytes: if quota_bytes == u64::MAX {
                u64::MAX
            } else {
                share(quota_bytes, id)
            },
            lag_ns: 0,
        })
        .collect()
}

/// Settling to a steady state (`--steady`), from the end of the ramp at `ramp_end`.
fn new_settling(spec: &JobSpec, ramp_end: u64) -> Option<Settling> {
    spec.steady.map(|steady| Settling {
        steady,
        from: ramp_end,
        cap: ramp_end + steady.max_secs as u64 * NS,
        next: ramp_end + NS,
        ios: 0,
        bytes: 0,
        window: VecDeque::with_capacity(steady.window_secs as usize + 1),
        settled: false,
    })
}

impl<'a> Sim<'a> {
    /// The simulation of `spec` on `dev` over `region`, at virtual time 0.
    fn new(spec: &JobSpec, dev: &'a SimDevice, region: (u64, u64)) -> Self {
        let threads = spec.threads;
        let qd = spec.qd;
        let ramp_end = (spec.ramp_secs * NS as f64).round() as u64;
        let measure_ns = match spec.stop {
            StopAfter::Seconds(s) => Some((s * NS as f64).round() as u64),
            _ => None,
        };
        let settling = new_settling(spec, ramp_end);
        let measure_from = if settling.is_some() {
            u64::MAX
        } else {
            ramp_end
        };
        Sim {
            dev,
            rng: Rng::with_seed(spec.seed ^ 0x5349_4D55_4C41_5445),
            now: 0,
            events: BinaryHeap::with_capacity((threads * qd) as usize * 2 + threads as usize),
            slab: vec![
                Io {
                    worker: 0,
                    read: true,
                    len: 0,
                    start: 0,
                    measured: false,
                };
                (threads * qd) as usize
            ],
            loads: new_loads(spec, region),
            qd,
            pace: spec
                .rate
                .map(|r| Duration::from_secs_f64(threads as f64 / r as f64)),
            poisson: spec.arrivals == Arrivals::Poisson,
            free_channels: dev.channels,
            channel_queue: VecDeque::with_capacity((threads * qd) as usize),
            link_busy: [false; 2],
            link_queue: [
                VecDeque::with_capacity((threads * qd) as usize),
                VecDeque::with_capacity((threads * qd) as usize),
            ],
            measure_from,
            measure_until: measure_ns
                .filter(|_| settling.is_none())
                .map(|n| ramp_end + n),
            measure_ns,
            burst: spec.burst.map(|b| {
                let ns = |s: f64| (s * NS as f64).round() as u64;
                (ns(b.on_secs), ns(b.period_secs))
            }),
            settling,
            stopping: false,
            totals: [DirTotals::new(), DirTotals::new()],
            moments: vec![[Moments::default(); 2]; threads as usize],
            thread_hists: (0..threads)
                .filter(|_| threads > 1)
                .map(|_| [new_histogram(), new_histogram()])
                .collect(),
            interval: new_histogram(),
            encoder: Encoder::default(),
            spill: Spill::new(),
            iv_index: 0,
            iv: (0, 0, 0),
            points: Vec::new(),
        }
    }

    /// Runs the events to the end (all I/O done, or stopped); true when `stop` ended it.
    fn run(&mut self, stop: &AtomicBool) -> bool {
        let sim = self;
        let dev = sim.dev;
        let mut interrupted = false;
        let mut steps = 0u32;
        while let Some(Reverse(k)) = sim.events.pop() {
            let (t, what) = unkey(k);
            sim.settle_until(t);
            sim.now = t;
            if sim.measure_until.is_some_and(|u| t >= u) {
                sim.stopping = true;
            }
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(1 << 16) && stop.load(Ordering::Relaxed) {
                (sim.stopping, interrupted) = (true, true);
            }
            match what {
                What::Arrival(w) => {
                    sim.loads[w as usize].armed = false;
                    sim.pump(w);
                }
                What::Served(io) => {
                    sim.release_channel();
                    if sim.slab[io as usize].read && dev.bw_bytes_s.is_some() {
                        sim.enter_link(io);
                    } else {
                        sim.finish(io);
                    }
                }
                What::Carried(io) => {
                    sim.release_link(usize::from(!sim.slab[io as usize].read));
                    if sim.slab[io as usize].read {
                        sim.finish(io);
                    } else {
                        sim.enter_channel(io);
                    }
                }
                What::Done(io) => sim.complete(io),
            }
        }
        interrupted
    }

    /// The outcome and time series once the events have run out.
    fn outcome(mut self, interrupted: bool) -> (Measured, Vec<TimePoint>) {
        if self.measure_from == u64::MAX {
            // Stopped while settling: nothing was measured.
            self.measure_from = self.now;
        }
        let measure_from = self.measure_from;
        let end = self.now.max(measure_from);
        // Whole seconds with no completion in them (between bursts) are in the series too.
        while measure_from + (self.iv_index as u64 + 1) * NS <= end {
            self.send_interval(1.0);
        }
        let base = measure_from + self.iv_index as u64 * NS;
        let last_secs = end.saturating_sub(base) as f64 / NS as f64;
        if last_secs > 0.0 || self.iv.0 + self.iv.1 > 0 {
            self.send_interval(last_secs.min(1.0));
        }
        let wall = end - measure_from;
        let behind = self.pace.is_some()
            && self.loads.iter().any(|l| {
                l.lag_ns as f64 > wall as f64 * 0.01 + self.pace.unwrap().as_nanos() as f64
            });
        let steady = self.settling.take().map(|s| {
            let settle_secs = measure_from.saturating_sub(s.from) as f64 / NS as f64;
            let mut window = s.window;
            state(&s.steady, s.settled, settle_secs, window.make_contiguous())
        });
        let [read, write] = self.totals;
        let outcome = Measured {
            read,
            write,
            wall_s: wall as f64 / NS as f64,
            issued: self.loads.iter().map(|l| l.issued).sum(),
            behind,
            interrupted,
            steady,
            threads: self
                .moments
                .iter()
                .enumerate()
                .map(|(i, [r, w])| {
                    let hist = |d: usize| {
                        let h = &self.thread_hists.get(i)?[d];
                        (!h.is_empty()).then(|| encode_compact(h))
                    };
                    ThreadStats {
                        read: ThreadDir {
                            histogram: hist(0),
                            ..r.dir()
                        },
                        write: ThreadDir {
                            histogram: hist(1),
                            ..w.dir()
                        },
                        ..ThreadStats::default()
                    }
                })
                .collect(),
        };
        (outcome, self.points)
    }
}

impl Sim<'_> {
    fn at(&mut self, t: u64, what: What) {
        self.events.push(Reverse(key(t, what)));
    }

    /// Settling: closes every whole second that ends by `t` (the time of the next event, so
    /// nothing happens in between), and starts measuring at the end of the first second
    /// whose window meets the criterion, or at the cap.
    fn settle_until(&mut self, t: u64) {
        let Some(s) = self.settling.as_mut() else {
            return;
        };
        if self.measure_from != u64::MAX {
            return;
        }
        let mut start = None;
        while s.next <= t && s.next <= s.cap {
            let v = match s.steady.metric {
                SteadyMetric::Iops => s.ios as f64,
                SteadyMetric::Bw => s.bytes as f64,
            };
            (s.ios, s.bytes) = (0, 0);
            s.window.push_back(v);
            if s.window.len() > s.steady.window_secs as usize {
                s.window.pop_front();
            }
            let full = s.window.len() == s.steady.window_secs as usize;
            let end = s.next;
            s.next += NS;
            if full
                && holds(
                    s.steady.test,
                    s.steady.limit_pct,
                    s.window.make_contiguous(),
                )
            {
                s.settled = true;
                start = Some(end);
                break;
            }
        }
        if start.is_none() && t >= s.cap {
            start = Some(s.cap);
        }
        if let Some(from) = start {
            self.measure_from = from;
            self.measure_until = self.measure_ns.map(|n| from + n);
        }
    }

    /// With `--burst`, the start of the next burst when `now` lies between bursts (counted
    /// from the start of measuring once it has begun, else from the start of the run).
    fn off_until(&self, now: u64) -> Option<u64> {
        let (on, period) = self.burst?;
        let anchor = if now >= self.measure_from {
            self.measure_from
        } else {
            0
        };
        let phase = (now - anchor) % period;
        (phase >= on).then(|| now + (period - phase))
    }

    /// Issues what worker `w` may issue now, and (open loop) arms its next arrival.
    fn pump(&mut self, w: u32) {
        let qd = self.qd;
        loop {
            let now = self.now;
            let measuring = now >= self.measure_from;
            let l = &self.loads[w as usize];
            if self.stopping
                || (measuring && (l.issued >= l.quota_ios || l.issued_bytes >= l.quota_bytes))
            {
                return;
            }
            if let Some(on) = self.off_until(now) {
                // Between bursts: nothing is issued; a paced schedule resumes at the burst.
                let l = &mut self.loads[w as usize];
                if self.pace.is_some() {
                    l.next_due = l.next_due.max(on);
                }
                if !l.armed {
                    l.armed = true;
                    self.at(on, What::Arrival(w));
                }
                return;
            }
            let start = match self.pace {
                Some(_) if l.next_due > now => {
                    if !l.armed {
                        let due = l.next_due;
                        self.loads[w as usize].armed = true;
                        self.at(due, What::Arrival(w));
                    }
                    return;
                }
                Some(_) => l.next_due,
                None => now,
            };
            if l.inflight == qd {
                return; // open loop: the due I/O waits for a slot, its latency growing
            }
            let io = self.loads[w as usize].pattern.next(&mut self.rng);
            let l = &mut self.loads[w as usize];
            let slot = l.free.pop().expect("a free slot while inflight < qd");
            l.inflight += 1;
            if measuring {
                l.issued += 1;
                l.issued_bytes += io.len as u64;
                l.lag_ns = l.lag_ns.max(now - start);
            }
            if let Some(mean) = self.pace {
                let gap = if self.poisson {
                    exp_gap(mean, &mut self.rng)
                } else {
                    mean
                };
                self.loads[w as usize].next_due += gap.as_nanos() as u64;
            }
            self.slab[slot as usize] = Io {
                worker: w,
                read: io.kind == OpKind::Read,
                len: io.len,
                start,
                measured: measuring,
            };
            if !self.slab[slot as usize].read && self.dev.bw_bytes_s.is_some() {
                self.enter_link(slot);
            } else {
                self.enter_channel(slot);
            }
        }
    }

    /// One service time of the I/O's direction, in ns.
    fn service(&mut self, read: bool) -> u64 {
        let mean = if read {
            self.dev.read_ns
        } else {
            self.dev.write_ns
        } as f64;
        let x = match self.dev.dist {
            ServiceDist::Const => mean,
            ServiceDist::Exp => -mean * (1.0 - self.rng.f64()).ln(),
            ServiceDist::Lognormal => {
                // σ = 1, μ = ln(mean) − σ²/2 so the mean stays `mean`; Z by Box–Muller.
                let (u1, u2) = (1.0 - self.rng.f64(), self.rng.f64());
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                mean * (z - 0.5).exp()
            }
        };
        x.round() as u64
    }

    fn enter_channel(&mut self, io: u32) {
        if self.free_channels > 0 {
            self.free_channels -= 1;
            let t = self.now + self.service(self.slab[io as usize].read);
            self.at(t, What::Served(io));
        } else {
            self.channel_queue.push_back(io);
        }
    }

    fn release_channel(&mut self) {
        match self.channel_queue.pop_front() {
            Some(next) => {
                let t = self.now + self.service(self.slab[next as usize].read);
                self.at(t, What::Served(next));
            }
            None => self.free_channels += 1,
        }
    }

    /// Transfer time of `len` bytes on the link, ns.
    fn transfer(&self, len: u32) -> u64 {
        let bw = self.dev.bw_bytes_s.unwrap_or(u64::MAX) as u128;
        ((len as u128 * NS as u128 + bw / 2) / bw) as u64
    }

    fn enter_link(&mut self, io: u32) {
        let lane = usize::from(!self.slab[io as usize].read);
        if self.link_busy[lane] {
            self.link_queue[lane].push_back(io);
        } else {
            self.link_busy[lane] = true;
            let t = self.now + self.transfer(self.slab[io as usize].len);
            self.at(t, What::Carried(io));
        }
    }

    fn release_link(&mut self, lane: usize) {
        match self.link_queue[lane].pop_front() {
            Some(next) => {
                let t = self.now + self.transfer(self.slab[next as usize].len);
                self.at(t, What::Carried(next));
            }
            None => self.link_busy[lane] = false,
        }
    }

    /// The device is done with the I/O; it completes after the fixed link latency.
    fn finish(&mut self, io: u32) {
        if self.dev.link_ns > 0 {
            let t = self.now + self.dev.link_ns;
            self.at(t, What::Done(io));
        } else {
            self.complete(io);
        }
    }

    fn complete(&mut self, slot: u32) {
        let io = self.slab[slot as usize];
        if let Some(s) = self.settling.as_mut() {
            if self.measure_from == u64::MAX && self.now >= s.from {
                s.ios += 1;
                s.bytes += io.len as u64;
            }
        }
        if io.measured {
            let second = ((self.now - self.measure_from) / NS) as u32;
            while self.iv_index < second {
                self.send_interval(1.0);
            }
            let lat = self.now - io.start;
            self.moments[io.worker as usize][usize::from(!io.read)].add(lat, io.len);
            if let Some(h) = self.thread_hists.get_mut(io.worker as usize) {
                h[usize::from(!io.read)].saturating_record(lat);
            }
            let t = &mut self.totals[usize::from(!io.read)];
            t.ios += 1;
            t.bytes += io.len as u64;
            t.hist.saturating_record(lat);
            self.interval.saturating_record(lat);
            if io.read {
                self.iv.0 += 1;
            } else {
                self.iv.1 += 1;
            }
            self.iv.2 += io.len as u64;
        }
        let l = &mut self.loads[io.worker as usize];
        l.inflight -= 1;
        l.free.push(slot);
        self.pump(io.worker);
    }

    /// Closes the current second of the time series. The histogram is reused: allocating
    /// one per virtual second costs more than the simulation itself on slow devices.
    fn send_interval(&mut self, secs: f64) {
        let counts = std::mem::take(&mut self.iv);
        self.points.push(point(
            self.iv_index,
            secs,
            counts,
            &self.interval,
            &mut self.encoder,
            self.spill.as_ref(),
        ));
        self.interval.reset();
        self.iv_index += 1;
    }
}
