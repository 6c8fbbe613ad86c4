//! A trace's summary, read record by record in one pass (flat memory but for each
//! device's per-second counts and its spatial buckets).

use crate::event::Op;
use crate::format::{Record, TraceReader};
use crate::TraceError;
use dbio_model::capture::*;
use dbio_model::histogram::{new_histogram, LatencySummary};
use hdrhistogram::Histogram;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::BufRead;

/// Spatial buckets per device for the skew shares.
const BUCKETS: u64 = 1000;

/// One operation's running figures on one device.
struct OpAcc {
    ios: u64,
    bytes: u64,
    sequential: u64,
    /// Where the previous request of this operation ended, in sectors.
    end: Option<u64>,
    sizes: HashMap<u32, u64>,
    buckets: Vec<u64>,
    latency: Histogram<u64>,
    /// Requests and bytes issued in each second from the start.
    per_second: Vec<(u64, u64)>,
}

impl OpAcc {
    fn new() -> Self {
        OpAcc {
            ios: 0,
            bytes: 0,
            sequential: 0,
            end: None,
            sizes: HashMap::new(),
            buckets: vec![0; BUCKETS as usize],
            latency: new_histogram(),
            per_second: Vec::new(),
        }
    }

    fn add(&mut self, r: &Record, device_sectors: u64, second: Option<usize>) {
        count_second(&mut self.per_second, second, r.bytes());
        self.ios += 1;
        self.bytes += r.bytes();
        if self.end == Some(r.sector) && r.sectors > 0 {
            self.sequential += 1;
        }
        self.end = Some(r.sector + u64::from(r.sectors));
        *self.sizes.entry(r.sectors).or_default() += 1;
        let b = (u128::from(r.sector) * u128::from(BUCKETS) / u128::from(device_sectors.max(1)))
            .min(u128::from(BUCKETS - 1));
        self.buckets[b as usize] += 1;
        self.latency.saturating_record(r.latency_ns.max(1));
    }

    /// The figures, with rates over `secs` when the trace has times and the latency when it
    /// has latencies.
    fn summary(mut self, secs: Option<f64>, latencies: bool) -> Option<OpCapture> {
        let rates = secs.map_or_else(Rates::default, |_| rates(&self.per_second));
        if self.ios == 0 {
            return None;
        }
        let pct = |n: u64| n as f64 * 100.0 / self.ios as f64;
        let mut sizes: Vec<(u32, u64)> = self.sizes.drain().collect();
        sizes.sort_by_key(|&(s, n)| (Reverse(n), s));
        self.buckets.sort_unstable_by(|a, b| b.cmp(a));
        let hottest = |share: u64| {
            let n = (BUCKETS * share / 100).max(1) as usize;
            pct(self.buckets[..n].iter().sum())
        };
        Some(OpCapture {
            ios: self.ios,
            bytes: self.bytes,
            rates,
            iops: secs.map(|s| self.ios as f64 / s),
            mb_s: secs.map(|s| self.bytes as f64 / s / 1e6),
            sequential_pct: pct(self.sequential),
            sizes: sizes
                .iter()
                .take(8)
                .map(|&(s, n)| SizeShare {
                    bytes: u64::from(s) * 512,
                    ios: n,
                    pct: pct(n),
                })
                .collect(),
            hottest_1_pct: hottest(1),
            hottest_5_pct: hottest(5),
            hottest_20_pct: hottest(20),
            latency_ns: latencies.then(|| LatencySummary::of(&self.latency)),
        })
    }
}

/// One device's running figures.
struct DeviceAcc {
    sectors: u64,
    ops: [OpAcc; 4],
    fua: u64,
    preflush: u64,
    /// Completion times of the requests in flight.
    completions: BinaryHeap<Reverse<u64>>,
    in_flight: Histogram<u64>,
    /// Requests and bytes issued in each second from the start.
    per_second: Vec<(u64, u64)>,
}

impl DeviceAcc {
    fn add(&mut self, r: &Record, start_ns: u64) {
        let k = match r.op {
            Op::Read => 0,
            Op::Write => 1,
            Op::Discard => 2,
            Op::Flush => 3,
        };
        let second = (r.issue_ns.saturating_sub(start_ns) / 1_000_000_000) as usize;
        let second = (second < 10_000_000).then_some(second);
        self.ops[k].add(r, self.sectors, second);
        if r.op == Op::Write {
            self.fua += u64::from(r.fua);
            self.preflush += u64::from(r.preflush);
        }
        while self.completions.peek().is_some_and(|c| c.0 <= r.issue_ns) {
            self.completions.pop();
        }
        self.completions
            .push(Reverse(r.issue_ns.saturating_add(r.latency_ns)));
        self.in_flight
            .saturating_record(self.completions.len() as u64);
        count_second(&mut self.per_second, second, r.bytes());
    }
}

/// Counts a request of `bytes` in its second (none past ten million seconds).
fn count_second(per_second: &mut Vec<(u64, u64)>, second: Option<usize>, bytes: u64) {
    let Some(second) = second else { return };
    if per_second.len() <= second {
        per_second.resize(second + 1, (0, 0));
    }
    let s = &mut per_second[second];
    *s = (s.0 + 1, s.1 + bytes);
}

/// The summary of the trace file at `path`; the message names the file and what is wrong.
pub fn of_file(path: &str) -> Result<CaptureSummary, String> {
    summarise(crate::format::open_file(path)?).map_err(|e| format!("{path}: {e}"))
}

/// Reads the whole trace and summarises it. A trace cut short is summarised up to its
/// last whole record, and says it is not complete; a damaged one is an error.
pub fn summarise<R: BufRead>(mut rd: TraceReader<R>) -> Result<CaptureSummary, TraceError> {
    let h = rd.header.clone();
    let mut devices: Vec<DeviceAcc> = h
        .devices
        .iter()
        .map(|d| DeviceAcc {
            sectors: d.size_bytes / 512,
            ops: std::array::from_fn(|_| OpAcc::new()),
            fua: 0,
            preflush: 0,
            completions: BinaryHeap::new(),
            in_flight: new_histogram(),
            per_second: Vec::new(),
        })
        .collect();
    let (mut requests, mut last_ns, mut first_ns) = (0u64, h.start_ns, None);
    loop {
        match rd.next_record() {
            Ok(Some(r)) => {
                requests += 1;
                first_ns.get_or_insert(r.issue_ns);
                last_ns = last_ns.max(r.issue_ns);
                devices[r.device as usize].add(&r, h.start_ns);
            }
            Ok(None) => break,
            Err(TraceError::Truncated(_)) => break,
            Err(e) => return Err(e),
        }
    }
    let trailer = rd.trailer.clone();
    let end_ns = trailer.as_ref().map_or(last_ns, |t| t.end_ns.max(last_ns));
    let secs = ((end_ns - h.start_ns) as f64 / 1e9).max(1e-9);
    let t = trailer.clone().unwrap_or_default();
    Ok(CaptureSummary {
        schema: CAPTURE_SCHEMA.into(),
        dbio_version: h.dbio_version.clone(),
        started_at: h.started_at.clone(),
        active_seconds: last_ns.saturating_sub(first_ns.unwrap_or(last_ns)) as f64 / 1e9,
        requests,
        complete: trailer.is_some(),
        interrupted: t.interrupted,
        lost_events: t.lost_events,
        unmatched_completions: t.unmatched_completions,
        in_flight_at_end: t.in_flight_at_end,
        devices: h
            .devices
            .iter()
            .zip(devices)
            .map(|(d, acc)| device(d, acc, secs, h.imported.as_ref()))
            .collect(),
        imported: h.imported,
        files: None,
        seconds: secs,
    })
}

/// One device's figures; rates need the trace's times and the in-flight counts and
/// latencies its device latencies (an imported trace may lack them).
fn device(
    d: &crate::format::TraceDevice,
    acc: DeviceAcc,
    secs: f64,
    imported: Option<&Imported>,
) -> DeviceCapture {
    let times = imported.is_none_or(|i| i.times);
    let latencies = imported.is_none_or(|i| i.latencies);
    let [read, write, discard, flush] = acc.ops;
    let (r, w) = (read.ios, write.ios);
    let skew_curve = skew_curve(&read.buckets, &write.buckets);
    let in_flight_counts = match latencies {
        true => (acc.in_flight.iter_recorded())
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect(),
        false => Vec::new(),
    };
    let q = |h: &Histogram<u64>, p: f64| {
        if h.is_empty() {
            0
        } else {
            h.value_at_quantile(p)
        }
    };
    let secs = times.then_some(secs);
    DeviceCapture {
        name: d.name.clone(),
        dev: d.dev.clone(),
        size_bytes: d.size_bytes,
        read_pct: if r + w == 0 {
            0.0
        } else {
            r as f64 * 100.0 / (r + w) as f64
        },
        read: read.summary(secs, latencies),
        write: write.summary(secs, latencies),
        discard: discard.summary(secs, latencies),
        flush: flush.summary(secs, latencies),
        fua_writes: acc.fua,
        preflush_writes: acc.preflush,
        in_flight: latencies.then(|| InFlight {
            mean: if acc.in_flight.is_empty() {
                0.0
            } else {
                acc.in_flight.mean()
            },
            p50: q(&acc.in_flight, 0.5),
            p99: q(&acc.in_flight, 0.99),
            max: acc.in_flight.max(),
        }),
        rates: match times {
            true => rates(&acc.per_second),
            false => Rates::default(),
        },
        skew_curve,
        in_flight_counts,
    }
}

/// The rates of requests counted second by second.
fn rates(per_second: &[(u64, u64)]) -> Rates {
    let mut counts: Vec<u64> = per_second.iter().map(|s| s.0).collect();
    counts.sort_unstable();
    let p95 = counts
        .get(((counts.len() as f64 * 0.95).ceil() as usize).saturating_sub(1))
        .copied()
        .unwrap_or(0);
    let (iops_series, mb_s_series, series_step_s) = series(per_second);
    Rates {
        peak_iops: Some(counts.last().copied().unwrap_or(0)),
        p95_iops: Some(p95),
        peak_minute: peak_minute(per_second),
        iops_series,
        mb_s_series,
        series_step_s,
    }
}

/// Points of the series: each second's requests and MB/s, or, over an hour, the means of
/// equal steps (at most 3,600 points); the step in seconds.
fn series(per_second: &[(u64, u64)]) -> (Vec<f64>, Vec<f64>, u64) {
    let step = per_second.len().div_ceil(3600).max(1);
    let (iops, mb): (Vec<f64>, Vec<f64>) = per_second
        .chunks(step)
        .map(|c| {
            let (n, b) = c.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
            (n as f64 / c.len() as f64, b as f64 / c.len() as f64 / 1e6)
        })
        .unzip();
    (iops, mb, step as u64)
}

/// The skew curve of reads and writes together: at shares of the device (hottest places
/// first), the share of the requests landing there, both in percent.
fn skew_curve(read: &[u64], write: &[u64]) -> Vec<(f64, f64)> {
    let mut b: Vec<u64> = read.iter().zip(write).map(|(r, w)| r + w).collect();
    let total: u64 = b.iter().sum();
    if total == 0 {
        return Vec::new();
    }
    b.sort_unstable_by(|x, y| y.cmp(x));
    [0, 1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        .iter()
        .map(|&pct| {
            let n = b.len() * pct / 100;
            (
                pct as f64,
                b[..n].iter().sum::<u64>() as f64 * 100.0 / total as f64,
            )
        })
        .collect()
}

/// The 60 seconds with the most requests (the whole trace when shorter), from the
/// requests and bytes of each second.
fn peak_minute(per_second: &[(u64, u64)]) -> Option<PeakMinute> {
    let window = per_second.len().clamp(1, 60);
    let sums = |w: &[(u64, u64)]| w.iter().fold((0, 0), |a, s| (a.0 + s.0, a.1 + s.1));
    let (start, (ios, bytes)) = per_second
        .windows(window)
        .map(sums)
        .enumerate()
        .max_by_key(|&(k, (ios, _))| (ios, std::cmp::Reverse(k)))?;
    Some(PeakMinute {
        start_s: start as u64,
        iops: ios as f64 / window as f64,
        mb_s: bytes as f64 / window as f64 / 1e6,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::tests::{header, rec};
    use crate::format::{TraceWriter, Trailer};

    /// A trace of `recs` on one 1 GiB device, starting at 0 ns.
    fn trace(recs: &[Record], trailer: Option<Trailer>) -> Vec<u8> {
        let mut w = TraceWriter::new(Vec::new(), &header(1, 0)).unwrap();
        for r in recs {
            w.record(r).unwrap();
        }
        match trailer {
            Some(t) => w.finish(&t).unwrap(),
            None => w.out,
        }
    }

    #[test]
    fn figures_by_hand_of_a_small_trace() {
        // Three sequential 8 KiB reads, one 4 KiB write far away, a flush; 2 s long.
        let recs = [
            rec(0, Op::Read, 0, 16, 100_000),
            rec(50_000, Op::Read, 16, 16, 100_000),
            rec(1_000_000_000, Op::Read, 32, 16, 1_000),
            rec(1_000_000_100, Op::Write, 1 << 20, 8, 5_000),
            rec(1_500_000_000, Op::Flush, 0, 0, 2_000_000),
        ];
        let trailer = Trailer {
            requests: 5,
            end_ns: 2_000_000_000,
            ..Trailer::default()
        };
        let bytes = trace(&recs, Some(trailer));
        let s = summarise(TraceReader::new(&bytes[..]).unwrap()).unwrap();
        assert!(s.complete);
        assert_eq!((s.requests, s.seconds, s.active_seconds), (5, 2.0, 1.5));
        let d = &s.devices[0];
        let read = d.read.as_ref().unwrap();
        assert_eq!((read.ios, read.bytes), (3, 3 * 8192));
        assert_eq!(read.iops, Some(1.5));
        assert!((read.sequential_pct - 200.0 / 3.0).abs() < 1e-9);
        assert_eq!(read.sizes[0].bytes, 8192);
        assert_eq!(read.hottest_1_pct, 100.0, "all in the first 1 %");
        assert_eq!(d.write.as_ref().unwrap().ios, 1);
        assert_eq!(d.flush.as_ref().unwrap().ios, 1);
        assert_eq!(d.read_pct, 75.0);
        // The second read is issued while the first is in flight: 2 at once.
        assert_eq!(d.in_flight.as_ref().unwrap().max, 2);
        assert_eq!((d.rates.peak_iops, d.rates.p95_iops), (Some(3), Some(3)));
        // Two seconds of requests (3 and 2, the flush with them): the "minute" is both.
        let m = d.rates.peak_minute.as_ref().unwrap();
        assert_eq!((m.start_s, m.iops), (0, 2.5));
        // The reads and the write land in two of the device's 1,000 places: the hottest 1 %
        // (ten places) holds all four.
        assert_eq!(d.skew_curve[1], (1.0, 100.0));
        assert_eq!(
            (d.rates.iops_series.clone(), d.rates.series_step_s),
            (vec![2.0, 3.0], 1)
        );
        // The reads alone: two in the first second, one in the second.
        assert_eq!(read.rates.iops_series, vec![2.0, 1.0]);
        // In flight as each was issued: 1, 2 (the second read), 1, 2 (the write, while the
        // third read is still in flight), 1.
        assert_eq!(d.in_flight_counts, vec![(1, 3), (2, 2)]);
        let lat = read.latency_ns.as_ref().unwrap();
        assert!(lat.max >= 99_000 && lat.max <= 101_000, "{lat:?}");
    }

    #[test]
    fn the_peak_minute_is_the_busiest_60_seconds() {
        // 200 s of one request a second, with 5 a second from 100 s to 159 s.
        let recs: Vec<Record> = (0..200u64)
            .flat_map(|s| {
                let n = if (100..160).contains(&s) { 5 } else { 1 };
                (0..n).map(move |k| rec(s * 1_000_000_000 + k, Op::Read, s * 8, 8, 1_000))
            })
            .collect();
        let s = summarise(TraceReader::new(&trace(&recs, None)[..]).unwrap()).unwrap();
        let m = s.devices[0].rates.peak_minute.clone().unwrap();
        assert_eq!((m.start_s, m.iops), (100, 5.0));
        assert!((m.mb_s - 5.0 * 4096.0 / 1e6).abs() < 1e-12);
    }

    #[test]
    fn a_trace_cut_short_is_summarised_to_its_cut_and_says_so() {
        let recs: Vec<Record> = (0..100)
            .map(|i| rec(i * 1_000_000, Op::Read, i * 8, 8, 1_000))
            .collect();
        let bytes = trace(&recs, None);
        let s = summarise(TraceReader::new(&bytes[..bytes.len() - 2]).unwrap()).unwrap();
        assert!(!s.complete);
        assert_eq!(s.requests, 99);
    }
}
