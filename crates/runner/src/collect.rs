//! Merges the workers' per-second intervals into the run's time series.

use crate::worker::Interval;
use dbio_model::histogram::{new_histogram, Encoder, SecondHist};
use dbio_model::spill::Spill;
use dbio_model::TimePoint;
use hdrhistogram::Histogram;
use std::collections::BTreeMap;

/// A last interval shorter than this (the drain after the clock ran out, often a few
/// milliseconds) is folded into the second before it: a rate over so short a time is noise.
const SHORT_TAIL_SECS: f64 = 0.5;

/// One second being gathered from all workers.
#[derive(Clone)]
struct Pending {
    reported: u32,
    secs: f64,
    read_ios: u64,
    write_ios: u64,
    bytes: u64,
    hist: Histogram<u64>,
}

impl Pending {
    /// Adds I/O counts, bytes and completion latencies (of another worker or another time).
    fn add_counts(&mut self, reads: u64, writes: u64, bytes: u64, hist: &Histogram<u64>) {
        self.read_ios += reads;
        self.write_ios += writes;
        self.bytes += bytes;
        self.hist
            .add(hist)
            .expect("histograms of equal bounds merge");
    }
}

/// Gathers intervals until every worker has reported a second, then yields its point.
pub struct Collector {
    workers: u32,
    pending: BTreeMap<u32, Pending>,
    /// Each second's index and point.
    points: Vec<(u32, TimePoint)>,
    /// The two latest seconds, kept to fold a short tail into the second before it.
    recent: Vec<(u32, Pending)>,
    encoder: Encoder,
    /// Where the seconds' histograms wait until the result is written (None: in memory).
    spill: Option<Spill>,
}

impl Collector {
    /// A collector for `workers` workers whose seconds' histograms go to `spill`.
    pub fn new(workers: u32, spill: Option<Spill>) -> Self {
        Collector {
            workers,
            pending: BTreeMap::new(),
            points: Vec::new(),
            recent: Vec::new(),
            encoder: Encoder::default(),
            spill,
        }
    }

    /// Adds one worker's interval; returns the second's point once all workers gave theirs.
    pub fn add(&mut self, iv: Interval) -> Option<TimePoint> {
        let p = self.pending.entry(iv.index).or_insert_with(|| Pending {
            reported: 0,
            secs: 0.0,
            read_ios: 0,
            write_ios: 0,
            bytes: 0,
            hist: new_histogram(),
        });
        p.reported += 1;
        p.secs = p.secs.max(iv.secs);
        p.add_counts(iv.read_ios, iv.write_ios, iv.bytes, &iv.hist);
        if p.reported < self.workers {
            return None;
        }
        let p = self.pending.remove(&iv.index)?;
        Some(self.complete(iv.index, p))
    }

    /// Makes second `index` a point, keeping it among the recent ones.
    fn complete(&mut self, index: u32, p: Pending) -> TimePoint {
        let point = to_point(index, &p, &mut self.encoder, self.spill.as_ref());
        self.points.push((index, point.clone()));
        self.recent.push((index, p));
        self.recent.sort_by_key(|(i, _)| *i);
        if self.recent.len() > 2 {
            self.recent.remove(0);
        }
        point
    }

    /// The whole series, including seconds that not every worker reached (the last one).
    pub fn finish(mut self) -> Vec<TimePoint> {
        for (i, p) in std::mem::take(&mut self.pending) {
            self.complete(i, p);
        }
        if let [(j, prev), (i, tail)] = &self.recent[..] {
            if *i == j + 1 && tail.secs < SHORT_TAIL_SECS {
                let (i, j) = (*i, *j);
                let mut merged = prev.clone();
                merged.secs += tail.secs;
                merged.add_counts(tail.read_ios, tail.write_ios, tail.bytes, &tail.hist);
                self.points.retain(|(k, _)| *k != i && *k != j);
                self.points.push((
                    j,
                    to_point(j, &merged, &mut self.encoder, self.spill.as_ref()),
                ));
            }
        }
        let mut points: Vec<TimePoint> = self.points.into_iter().map(|(_, p)| p).collect();
        points.sort_by(|a, b| a.t.total_cmp(&b.t));
        points
    }
}

/// The point of second `index` gathered in `p`.
fn to_point(index: u32, p: &Pending, encoder: &mut Encoder, spill: Option<&Spill>) -> TimePoint {
    point(
        index,
        p.secs,
        (p.read_ios, p.write_ios, p.bytes),
        &p.hist,
        encoder,
        spill,
    )
}

/// The point of second `index` (`secs` long; 0 counts as 1) from its read and write counts,
/// bytes, and the latency histogram of its completions; `encoder` is kept from second to
/// second; the histogram's text goes to `spill` (None: it stays in memory).
pub fn point(
    index: u32,
    secs: f64,
    (reads, writes, bytes): (u64, u64, u64),
    hist: &Histogram<u64>,
    encoder: &mut Encoder,
    spill: Option<&Spill>,
) -> TimePoint {
    let secs = if secs > 0.0 { secs } else { 1.0 };
    TimePoint {
        t: index as f64 + secs,
        read_iops: reads as f64 / secs,
        write_iops: writes as f64 / secs,
        mb_s: bytes as f64 / secs / 1e6,
        p99_us: if hist.is_empty() {
            0.0
        } else {
            hist.value_at_quantile(0.99) as f64 / 1000.0
        },
        // Out of memory until the result is written: an hour of seconds is megabytes of text.
        hist: (!hist.is_empty()).then(|| {
            let text = encoder.encode_second(hist);
            match spill {
                Some(spill) => SecondHist::spilled(text, spill),
                None => SecondHist::new(text),
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(worker: u32, index: u32, reads: u64, lat_ns: u64) -> Interval {
        let mut hist = new_histogram();
        for _ in 0..reads {
            hist.record(lat_ns).unwrap();
        }
        Interval {
            worker,
            index,
            settling: false,
            secs: 1.0,
            read_ios: reads,
            write_ios: 0,
            bytes: reads * 4096,
            hist,
        }
    }

    #[test]
    fn a_second_is_complete_when_every_worker_reported() {
        let mut c = Collector::new(2, None);
        assert!(c.add(iv(0, 0, 1000, 100_000)).is_none());
        let p = c.add(iv(1, 0, 3000, 200_000)).unwrap();
        assert_eq!(p.read_iops, 4000.0);
        assert!((p.mb_s - 4000.0 * 4096.0 / 1e6).abs() < 1e-9);
        // 75 % of the I/Os took 200 µs: p99 is 200 µs within the histogram's precision.
        assert!((p.p99_us - 200.0).abs() < 0.2);
        c.add(iv(0, 1, 10, 1000));
        let all = c.finish();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].read_iops, 10.0);
    }

    #[test]
    fn a_short_tail_joins_the_second_before_it_and_a_long_one_stands() {
        let tail = |secs: f64, reads: u64| Interval {
            secs,
            ..iv(0, 2, reads, 100_000)
        };
        let mut c = Collector::new(1, None);
        c.add(iv(0, 0, 4000, 100_000));
        c.add(iv(0, 1, 4000, 100_000));
        // 32 drained I/Os in 4 ms would read as 8,000 IOPS on their own.
        c.add(tail(0.004, 32));
        let all = c.finish();
        assert_eq!(all.len(), 2, "{all:?}");
        assert!((all[1].t - 2.004).abs() < 1e-9);
        assert!((all[1].read_iops - 4032.0 / 1.004).abs() < 1e-6);
        let mut c = Collector::new(1, None);
        c.add(iv(0, 0, 4000, 100_000));
        c.add(iv(0, 1, 4000, 100_000));
        c.add(tail(0.6, 2400));
        let all = c.finish();
        assert_eq!(all.len(), 3);
        assert!((all[2].read_iops - 4000.0).abs() < 1e-6);
    }
}
