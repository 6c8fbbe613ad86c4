//! The cluster's per-second series: each host's seconds lined up by wall clock, their
//! histograms summed bucket for bucket, seconds merged in parallel.

use super::host::HostResult;
use dbio_model::histogram::{histogram_of, Encoder, HistogramSum, SECOND_SIGFIG};
use dbio_model::TimePoint;
use hdrhistogram::Histogram;

/// The cluster's seconds over the common window: each host's second k (which began k s
/// after its own start) goes to the cluster second its wall-clock start falls nearest to;
/// only seconds every host measured are kept. Rates add up; p99 comes from the hosts'
/// per-second histograms summed (the slowest host's p99 where a host has none).
pub fn series(hosts: &[HostResult], start: u64, end: u64) -> Vec<TimePoint> {
    let slots = aligned(hosts, start, end);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, slots.len().max(1));
    let chunk = slots.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let workers: Vec<_> = slots
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut m = SecondMerger::default();
                    part.iter()
                        .map(|(j, ps)| m.point(*j, ps))
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

/// The cluster seconds every host measured, with each host's point for it, in order: as
/// many as the window holds whole seconds, to the nearest (a sliver of a second after the
/// last one, in which a host's final interval ends, is not a second of its own).
fn aligned(hosts: &[HostResult], start: u64, end: u64) -> Vec<(usize, Vec<&TimePoint>)> {
    let n = (((end - start) as f64 / 1e9).round() as usize).max(1);
    let mut slots: Vec<Vec<&TimePoint>> = vec![Vec::with_capacity(hosts.len()); n];
    for h in hosts {
        let s = h.result.started_unix_ns as i64;
        for (k, p) in began(&h.result.timeseries) {
            let at = s + k * 1_000_000_000 - start as i64;
            let j = (at as f64 / 1e9).round() as i64;
            if j >= 0 && (j as usize) < n {
                slots[j as usize].push(p);
            }
        }
    }
    slots
        .into_iter()
        .enumerate()
        .filter(|(_, ps)| ps.len() == hosts.len())
        .collect()
}

/// Each point with the whole second its interval began at. A point's `t` is where its
/// interval ends, and a run's last interval runs on to the end of the run (t = 5.0006 for the
/// fifth second of a 5 s run), so it is the previous point's end that says which second it is.
fn began(points: &[TimePoint]) -> impl Iterator<Item = (i64, &TimePoint)> {
    let ends = std::iter::once(0.0).chain(points.iter().map(|p| p.t));
    ends.zip(points).map(|(from, p)| (from.round() as i64, p))
}

/// What merging one second needs, kept from second to second.
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
    /// Cluster second `j` from every host's point for it.
    fn point(&mut self, j: usize, ps: &[&TimePoint]) -> TimePoint {
        self.sum.clear();
        let summed = ps.iter().all(|p| {
            p.hist
                .as_ref()
                .and_then(|h| h.text().ok())
                .is_some_and(|s| self.sum.add_compact(&s).is_ok())
        });
        let (p99_us, hist) = if !summed {
            (ps.iter().map(|p| p.p99_us).fold(0.0, f64::max), None)
        } else if self.sum.is_empty() {
            (0.0, None)
        } else {
            self.sum.write_into(&mut self.hist);
            let p99 = self.hist.value_at_quantile(0.99) as f64 / 1000.0;
            (p99, Some(self.encoder.encode(&self.hist).into()))
        };
        TimePoint {
            t: j as f64 + 1.0,
            read_iops: ps.iter().map(|p| p.read_iops).sum(),
            write_iops: ps.iter().map(|p| p.write_iops).sum(),
            mb_s: ps.iter().map(|p| p.mb_s).sum(),
            p99_us,
            hist,
        }
    }
}
