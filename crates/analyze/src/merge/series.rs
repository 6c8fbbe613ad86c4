//! The cluster's per-second series, made host by host: each host's seconds are read once, in
//! order, lined up by wall clock and added into the window's per-second sums (rates, the
//! slowest p99, the histograms bucket for bucket), so that no host's seconds are held past
//! their reading. Hosts are read on every CPU; the merged seconds are made in parallel.

use super::host::HostResult;
use super::sums::{Part, Rates, Sums, Window};
use dbio_model::histogram::{histogram_of, Encoder, HistogramSum, SECOND_SIGFIG};
use dbio_model::TimePoint;
use hdrhistogram::Histogram;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The cluster's seconds over the common window: each host's second k (which began k s
/// after its own start) goes to the cluster second its wall-clock start falls nearest to;
/// only seconds every host measured are kept. Rates add up; p99 comes from the hosts'
/// per-second histograms summed (the slowest host's p99 where a host has none).
/// `seconds(i, each)` hands host i's points to `each` in order; its first error (by host)
/// is returned.
pub fn series<E, F>(
    hosts: &[HostResult],
    start: u64,
    end: u64,
    seconds: F,
) -> Result<Vec<TimePoint>, E>
where
    E: Send,
    F: Fn(usize, &mut dyn FnMut(&TimePoint)) -> Result<(), E> + Sync,
{
    let n = (((end - start) as f64 / 1e9).round() as usize).max(1);
    let sums = Sums::new(n);
    let rates = Mutex::new(Rates::new(n));
    let failed: Mutex<Option<(usize, E)>> = Mutex::new(None);
    let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    std::thread::scope(|s| {
        for _ in 0..threads(hosts.len()) {
            s.spawn(|| {
                let mut lane = Lane::new(start, n, &sums);
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(h) = hosts.get(i) else { break };
                    lane.begin(h.result.started_unix_ns);
                    match seconds(i, &mut |p| lane.point(p)) {
                        Ok(()) => {
                            let parts = std::mem::take(&mut lane.parts);
                            lane.parts = lock(&rates).add(i, parts);
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            let mut f = lock(&failed);
                            if f.as_ref().is_none_or(|(j, _)| i < *j) {
                                *f = Some((i, e));
                            }
                        }
                    }
                }
            });
        }
    });
    if let Some((_, e)) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let rates = rates.into_inner().unwrap_or_else(|p| p.into_inner());
    Ok(points(rates, sums.into_seconds(), hosts.len()))
}

/// Threads to use for `work` items: every CPU, no more than the items.
fn threads(work: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, work.max(1))
}

/// The lock's contents, also after a panic elsewhere (the sums stay whole: a panic ends
/// the merge).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A reading thread's state: where the host's seconds fall, and its decoding buffers.
struct Lane<'a> {
    window_start: u64,
    n: usize,
    sums: &'a Sums,
    /// The host's start on the launcher's clock, ns since the epoch.
    host_start: i64,
    /// The end of the host's previous point (where this one began), s.
    from: f64,
    parts: Vec<Part>,
    decoded: HistogramSum,
}

impl<'a> Lane<'a> {
    fn new(window_start: u64, n: usize, sums: &'a Sums) -> Self {
        Lane {
            window_start,
            n,
            sums,
            host_start: 0,
            from: 0.0,
            parts: Vec::new(),
            decoded: HistogramSum::new(SECOND_SIGFIG),
        }
    }

    /// Starts on a host that began measuring at `start` (ns since the epoch).
    fn begin(&mut self, start: u64) {
        self.host_start = start as i64;
        self.from = 0.0;
        self.parts.clear();
    }

    /// The host's next point. A point's `t` is where its interval ends, and a run's last
    /// interval runs on to the end of the run (t = 5.0006 for the fifth second of a 5 s run),
    /// so it is the previous point's end that says which second it is.
    fn point(&mut self, p: &TimePoint) {
        let k = self.from.round() as i64;
        self.from = p.t;
        let at = self.host_start + k * 1_000_000_000 - self.window_start as i64;
        let j = (at as f64 / 1e9).round() as i64;
        if j < 0 || j as usize >= self.n {
            return;
        }
        let second = j as usize;
        let summed = self.add_hist(second, p);
        self.parts.push(Part {
            second,
            read_iops: p.read_iops,
            write_iops: p.write_iops,
            mb_s: p.mb_s,
            p99_us: p.p99_us,
            summed,
        });
    }

    /// Adds the point's histogram to cluster second `second`; false when it has none or it
    /// does not decode. Decoded first, then added under the second's lock.
    fn add_hist(&mut self, second: usize, p: &TimePoint) -> bool {
        let Some(text) = p.hist.as_ref().and_then(|h| h.text().ok()) else {
            return false;
        };
        self.decoded.clear();
        if self.decoded.add_compact(&text).is_err() {
            return false;
        }
        let (lo, counts) = self.decoded.counts();
        self.sums.add(second, lo, counts)
    }
}

/// The merged points of the seconds every host measured, made in parallel; each second's
/// sum is dropped once its point is made.
fn points(rates: Rates, sums: Vec<Window>, hosts: usize) -> Vec<TimePoint> {
    let mut kept: Vec<(usize, Window)> = sums
        .into_iter()
        .enumerate()
        .filter(|(j, _)| rates.points[*j] == hosts)
        .collect();
    let chunk = kept.len().div_ceil(threads(kept.len())).max(1);
    let mut parts = Vec::new();
    while kept.len() > chunk {
        parts.push(kept.split_off(kept.len() - chunk));
    }
    parts.push(kept);
    let rates = &rates;
    std::thread::scope(|s| {
        let workers: Vec<_> = parts
            .into_iter()
            .rev()
            .map(|part| {
                s.spawn(move || {
                    let mut m = SecondMerger::default();
                    part.into_iter()
                        .map(|(j, sum)| m.point(j, rates, sum))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("merging a second does not panic"))
            .collect()
    })
}

/// What making one merged second needs, kept from second to second.
struct SecondMerger {
    sum: HistogramSum,
    hist: Histogram<u64>,
    encoder: Encoder,
}

impl Default for SecondMerger {
    fn default() -> Self {
        SecondMerger {
            sum: HistogramSum::new(SECOND_SIGFIG),
            hist: histogram_of(SECOND_SIGFIG),
            encoder: Encoder::default(),
        }
    }
}

impl SecondMerger {
    /// Cluster second `j` from its rates and its histograms' sum.
    fn point(&mut self, j: usize, rates: &Rates, sum: Window) -> TimePoint {
        self.sum.clear();
        let (p99_us, hist) = if !rates.summed[j] {
            (rates.p99_us[j], None)
        } else if sum.is_empty() {
            (0.0, None)
        } else {
            for (i, c) in sum.buckets() {
                self.sum
                    .add_bucket(i, c)
                    .expect("the sums' buckets are of the seconds' layout");
            }
            self.sum.write_into(&mut self.hist);
            let p99 = self.hist.value_at_quantile(0.99) as f64 / 1000.0;
            (p99, Some(self.encoder.encode(&self.hist).into()))
        };
        TimePoint {
            t: j as f64 + 1.0,
            read_iops: rates.read_iops[j],
            write_iops: rates.write_iops[j],
            mb_s: rates.mb_s[j],
            p99_us,
            hist,
        }
    }
}

#[cfg(test)]
mod tests;
