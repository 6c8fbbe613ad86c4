//! The series made host by host against the series made with every host's seconds at hand
//! (the way it was made before, kept here as the oracle): the same points, byte for byte.

use super::*;
use dbio_model::histogram::{encode_compact, new_histogram};
use dbio_model::RunResult;

const SEC: u64 = 1_000_000_000;
const T0: u64 = 1_796_119_200 * SEC;

/// The oracle: every host's point for each cluster second gathered first, then merged.
fn oracle(hosts: &[HostResult], start: u64, end: u64) -> Vec<TimePoint> {
    let n = (((end - start) as f64 / 1e9).round() as usize).max(1);
    let mut slots: Vec<Vec<&TimePoint>> = vec![Vec::new(); n];
    for h in hosts {
        let s = h.result.started_unix_ns as i64;
        let ends = std::iter::once(0.0).chain(h.result.timeseries.iter().map(|p| p.t));
        for (from, p) in ends.zip(&h.result.timeseries) {
            let at = s + (from.round() as i64) * 1_000_000_000 - start as i64;
            let j = (at as f64 / 1e9).round() as i64;
            if j >= 0 && (j as usize) < n {
                slots[j as usize].push(p);
            }
        }
    }
    let mut sum = HistogramSum::new(SECOND_SIGFIG);
    let mut hist = histogram_of(SECOND_SIGFIG);
    let mut encoder = Encoder::default();
    let kept = slots.into_iter().enumerate();
    let kept = kept.filter(|(_, ps)| ps.len() == hosts.len());
    kept.map(|(j, ps)| {
        sum.clear();
        let summed = ps.iter().all(|p| {
            p.hist
                .as_ref()
                .and_then(|h| h.text().ok())
                .is_some_and(|s| sum.add_compact(&s).is_ok())
        });
        let (p99_us, h) = if !summed {
            (ps.iter().map(|p| p.p99_us).fold(0.0, f64::max), None)
        } else if sum.is_empty() {
            (0.0, None)
        } else {
            sum.write_into(&mut hist);
            let p99 = hist.value_at_quantile(0.99) as f64 / 1000.0;
            (p99, Some(encoder.encode(&hist).into()))
        };
        TimePoint {
            t: j as f64 + 1.0,
            read_iops: ps.iter().map(|p| p.read_iops).sum(),
            write_iops: ps.iter().map(|p| p.write_iops).sum(),
            mb_s: ps.iter().map(|p| p.mb_s).sum(),
            p99_us,
            hist: h,
        }
    })
    .collect()
}

/// A small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Host `i` of a varied cluster: its own start (up to 0.7 s late), length, rates that do not
/// add exactly in binary, and some seconds without a histogram, with one that does not
/// decode, or with an empty one.
fn varied(i: usize, rng: &mut Rng) -> HostResult {
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../../../report/tests/fixtures/run.json")).unwrap();
    let secs = 20 + rng.below(6) as usize;
    r.started_unix_ns = T0 + rng.below(700) * 1_000_000;
    r.measured_secs = secs as f64 + 0.000_6;
    r.timeseries = (0..secs)
        .map(|k| {
            let mut h = new_histogram();
            let n = rng.below(4);
            for _ in 0..n {
                h.record_n(1_000 + rng.below(5_000_000), 1 + rng.below(900))
                    .unwrap();
            }
            let hist = match rng.below(40) {
                0 => None,
                1 => Some("not a histogram".to_string().into()),
                _ => Some(encode_compact(&h).into()),
            };
            TimePoint {
                t: k as f64 + 1.0 + if k + 1 == secs { 0.000_6 } else { 0.0 },
                read_iops: rng.below(100_000) as f64 * 0.1,
                write_iops: rng.below(3) as f64 / 3.0,
                mb_s: rng.below(1_000) as f64 * 0.01,
                p99_us: rng.below(9_000) as f64 * 0.7,
                hist,
            }
        })
        .collect();
    HostResult {
        name: format!("h{i}"),
        result: r,
    }
}

/// The common window of `hosts`.
fn window(hosts: &[HostResult]) -> (u64, u64) {
    let span = |r: &RunResult| {
        let s = r.started_unix_ns;
        (s, s + (r.measured_secs * 1e9) as u64)
    };
    let start = hosts.iter().map(|h| span(&h.result).0).max().unwrap();
    let end = hosts.iter().map(|h| span(&h.result).1).min().unwrap();
    (start, end)
}

/// Where a test's series reads its hosts' seconds.
type Held<'a> = Box<dyn Fn(usize, &mut dyn FnMut(&TimePoint)) -> Result<(), String> + Sync + 'a>;

/// The seconds of `hosts` handed on as a file's would be.
fn held(hosts: &[HostResult]) -> Held<'_> {
    Box::new(|i, each| {
        hosts[i].result.timeseries.iter().for_each(each);
        Ok(())
    })
}

#[test]
fn the_series_made_host_by_host_is_the_one_made_with_every_second_at_hand() {
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let hosts: Vec<HostResult> = (0..1 + seed as usize)
            .map(|i| varied(i, &mut rng))
            .collect();
        let (start, end) = window(&hosts);
        let got = series(&hosts, start, end, held(&hosts)).unwrap();
        let want = oracle(&hosts, start, end);
        assert!(!want.is_empty());
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&want).unwrap(),
            "seed {seed}"
        );
    }
}

/// Two points of a host in one cluster second (a short interval) count as two, as before.
#[test]
fn a_host_with_two_points_in_one_second_is_merged_as_before() {
    let mut rng = Rng(77);
    let mut hosts: Vec<HostResult> = (0..3).map(|i| varied(i, &mut rng)).collect();
    hosts[1].result.timeseries[4].t = 4.3;
    let (start, end) = window(&hosts);
    let got = series(&hosts, start, end, held(&hosts)).unwrap();
    assert_eq!(
        serde_json::to_string(&got).unwrap(),
        serde_json::to_string(&oracle(&hosts, start, end)).unwrap()
    );
}

/// Hosts whose seconds cannot be read fail the series, the first of them by order named.
#[test]
fn the_first_host_whose_seconds_do_not_read_is_named() {
    let mut rng = Rng(5);
    let hosts: Vec<HostResult> = (0..9).map(|i| varied(i, &mut rng)).collect();
    let (start, end) = window(&hosts);
    let failing = |i: usize, each: &mut dyn FnMut(&TimePoint)| {
        if i == 3 || i == 7 {
            return Err(format!("host {i}"));
        }
        hosts[i].result.timeseries.iter().for_each(each);
        Ok(())
    };
    assert_eq!(series(&hosts, start, end, failing).unwrap_err(), "host 3");
}
