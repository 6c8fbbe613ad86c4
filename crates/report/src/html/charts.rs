//! The charts of a report, built from results: latency histogram and percentile curve per
//! direction, IOPS, MB/s and p99 over time, and for sweeps latency against IOPS and
//! bandwidth against I/O size.

use super::svg::{Axis, Chart, Mark, Series};
use dbio_analyze::slo::{Dir, Slo, Stat};
use dbio_model::sweep::SweepResult;
use dbio_model::{DirStats, RunResult};

/// Bins per decade of the latency histogram.
const BINS_PER_DECADE: f64 = 10.0;

/// The directions of a run that completed I/Os, by name.
pub fn directions(r: &RunResult) -> Vec<(&'static str, &DirStats)> {
    [("read", &r.read), ("write", &r.write), ("flush", &r.flush)]
        .into_iter()
        .filter_map(|(n, d)| d.as_ref().filter(|d| d.ios > 0).map(|d| (n, d)))
        .collect()
}

/// Share of I/Os (%) per log-spaced latency bin, from the first to the last non-empty bin,
/// with x the bin's geometric centre in µs.
pub fn histogram_points(d: &DirStats) -> Vec<(f64, f64)> {
    let buckets = &d.histogram.buckets;
    let total: u64 = buckets.iter().map(|b| b[1]).sum();
    if total == 0 {
        return Vec::new();
    }
    let bin = |ns: u64| ((ns.max(1) as f64).log10() * BINS_PER_DECADE).floor() as i64;
    let lo = bin(buckets[0][0]);
    let hi = bin(buckets[buckets.len() - 1][0]);
    let mut counts = vec![0u64; (hi - lo + 1) as usize];
    for [v, c] in buckets {
        counts[(bin(*v) - lo) as usize] += c;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let centre_ns = 10f64.powf((lo as f64 + i as f64 + 0.5) / BINS_PER_DECADE);
            (centre_ns / 1000.0, *c as f64 * 100.0 / total as f64)
        })
        .collect()
}

/// Percentiles the curve shows, as fractions.
const QUANTILES: [f64; 11] = [
    0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9995, 0.9999, 0.99999,
];

/// The percentile curve: x is the number of nines (−log10(1 − q)), y the latency in µs.
/// A percentile is shown only when there are enough I/Os to resolve it (1/(1 − q) ≤ I/Os).
pub fn percentile_points(d: &DirStats) -> Vec<(f64, f64)> {
    let h = d.histogram.to_hdr();
    let n = h.len() as f64;
    QUANTILES
        .iter()
        .filter(|q| 1.0 / (1.0 - **q) <= n)
        .map(|&q| (-(1.0 - q).log10(), h.value_at_quantile(q) as f64 / 1000.0))
        .collect()
}

/// The points of a run's time series that charts draw: a last interval much shorter than a
/// second (the window's tail) is left out, as its few I/Os scaled to a second would make a
/// spike or a drop that did not happen.
fn drawn_seconds(r: &RunResult) -> Vec<&dbio_model::TimePoint> {
    r.timeseries
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            let start = if *i == 0 { 0.0 } else { r.timeseries[i - 1].t };
            p.t - start >= 0.5
        })
        .map(|(_, p)| p)
        .collect()
}

/// The x axis of percentile curves: 0, 90, 99, 99.9 … evenly spaced ("nines").
fn percentile_axis() -> Axis {
    Axis {
        title: "percentile".into(),
        log: false,
        ticks: ["0", "90", "99", "99.9", "99.99", "99.999"]
            .iter()
            .enumerate()
            .map(|(i, l)| (i as f64, format!("{l} %")))
            .collect(),
    }
}

fn axis(title: &str, log: bool) -> Axis {
    Axis {
        title: title.into(),
        log,
        ticks: Vec::new(),
    }
}

/// The charts of one run, in reading order.
pub fn run_charts(r: &RunResult) -> Vec<Chart> {
    let dirs = directions(r);
    let mut out = vec![
        Chart {
            id: "latency-histogram",
            title: "Latency histogram (share of I/Os per bin, 10 bins per decade)".into(),
            x: axis("latency (µs, log scale)", true),
            y: axis("% of I/Os", false),
            series: dirs
                .iter()
                .map(|(n, d)| Series {
                    name: n.to_string(),
                    points: histogram_points(d),
                })
                .collect(),
            marks: vec![],
            limit: None,
        },
        Chart {
            id: "percentiles",
            title: "Latency by percentile".into(),
            x: percentile_axis(),
            y: axis("latency (µs, log scale)", true),
            series: dirs
                .iter()
                .map(|(n, d)| Series {
                    name: n.to_string(),
                    points: percentile_points(d),
                })
                .collect(),
            marks: vec![],
            limit: None,
        },
    ];
    // Runs shorter than half a second have no second to draw.
    if r.timeseries.first().is_some_and(|p| p.t >= 0.5) {
        let ts = drawn_seconds(r);
        let col = |f: fn(&dbio_model::TimePoint) -> f64| -> Vec<(f64, f64)> {
            ts.iter().map(|p| (p.t, f(p))).collect()
        };
        let mut iops = Vec::new();
        if r.read.as_ref().is_some_and(|d| d.ios > 0) {
            iops.push(Series {
                name: "read".into(),
                points: col(|p| p.read_iops),
            });
        }
        if r.write.as_ref().is_some_and(|d| d.ios > 0) {
            iops.push(Series {
                name: "write".into(),
                points: col(|p| p.write_iops),
            });
        }
        out.push(Chart {
            id: "iops-time",
            title: "IOPS per second".into(),
            x: axis("seconds into the measured window", false),
            y: axis("IOPS", false),
            series: iops,
            marks: vec![],
            limit: None,
        });
        out.push(Chart {
            id: "mbs-time",
            title: "MB/s per second (reads and writes)".into(),
            x: axis("seconds into the measured window", false),
            y: axis("MB/s", false),
            series: vec![Series {
                name: "MB/s".into(),
                points: col(|p| p.mb_s),
            }],
            marks: vec![],
            limit: None,
        });
        out.push(Chart {
            id: "p99-time",
            title: "p99 latency per second (reads and writes)".into(),
            x: axis("seconds into the measured window", false),
            y: axis("p99 latency (µs)", false),
            series: vec![Series {
                name: "p99".into(),
                points: col(|p| p.p99_us),
            }],
            marks: vec![],
            limit: None,
        });
    }
    out
}

/// Mean and p99 latency (µs) of all reads and writes of a run, from their merged histograms.
pub fn mean_p99_us(r: &RunResult) -> (f64, f64) {
    let mut h = dbio_model::histogram::new_histogram();
    for d in [&r.read, &r.write].into_iter().flatten() {
        // Both come from histograms of the same precision and range: adding cannot fail.
        let _ = h.add(d.histogram.to_hdr());
    }
    if h.is_empty() {
        return (0.0, 0.0);
    }
    (h.mean() / 1000.0, h.value_at_quantile(0.99) as f64 / 1000.0)
}

/// True when the I/Os of `dir` are every I/O of every step of `s` (all of them, or the
/// reads of a sweep that does no write, or the writes of one that does no read).
fn all_ios(dir: Dir, s: &SweepResult) -> bool {
    let none = |d: &Option<DirStats>| d.as_ref().is_none_or(|d| d.ios == 0);
    match dir {
        Dir::All => true,
        Dir::Read => s.steps.iter().all(|r| none(&r.write)),
        Dir::Write => s.steps.iter().all(|r| none(&r.read)),
    }
}

/// The figure an objective bounds, as a series name: "read p99.9", "write mean", "p99".
fn figure_name(o: &Slo) -> String {
    let dir = match o.dir {
        Dir::All => "",
        Dir::Read => "read ",
        Dir::Write => "write ",
    };
    match o.stat {
        Stat::Mean => format!("{dir}mean"),
        Stat::Pct(p) => format!("{dir}p{p}"),
    }
}

/// The charts of a sweep: latency against IOPS with the knee and saturation marked, and
/// bandwidth against I/O size for a block-size sweep.
pub fn sweep_charts(s: &SweepResult) -> Vec<Chart> {
    let lat: Vec<(f64, f64, f64)> = s
        .steps
        .iter()
        .map(|r| {
            let (mean, p99) = mean_p99_us(r);
            (r.total_iops(), mean, p99)
        })
        .collect();
    let mut series = vec![
        Series {
            name: "p99".into(),
            points: lat.iter().map(|p| (p.0, p.2)).collect(),
        },
        Series {
            name: "mean".into(),
            points: lat.iter().map(|p| (p.0, p.1)).collect(),
        },
    ];
    // The objective's own figure (e.g. read p99.9) as a series of its own, named by that
    // figure, unless it is one of the two above (a read objective on a ramp that only reads
    // is the p99 of all I/Os): a figure is drawn once. The knee is marked on that series.
    let slo = s.slo.as_deref().and_then(|t| Slo::parse(t).ok());
    let on = match slo {
        None => 0,
        Some(o) => match (o.stat, all_ios(o.dir, s)) {
            (Stat::Pct(99.0), true) => 0,
            (Stat::Mean, true) => 1,
            _ => {
                series.push(Series {
                    name: figure_name(&o),
                    points: s
                        .steps
                        .iter()
                        .zip(&lat)
                        .filter_map(|(r, p)| Some((p.0, o.value(r)? / 1000.0)))
                        .collect(),
                });
                2
            }
        },
    };
    let y_of = |step: usize| {
        series[on]
            .points
            .iter()
            .find(|p| p.0 == lat[step].0)
            .map_or(lat[step].2, |p| p.1)
    };
    let mut marks = Vec::new();
    let mut mark = |kind, what: &str, p: &Option<dbio_model::sweep::SweepPoint>| {
        if let Some(p) = p.as_ref().filter(|p| p.step < lat.len()) {
            marks.push(Mark {
                kind,
                label: format!("{what} {}={}", s.vary, p.value),
                x: lat[p.step].0,
                y: y_of(p.step),
            });
        }
    };
    mark("knee", "knee", &s.knee);
    mark("saturation", "saturation", &s.saturation);
    let mut out = vec![Chart {
        id: "latency-iops",
        title: format!("Latency against IOPS (one point per step of {})", s.vary),
        x: axis("IOPS (reads + writes)", false),
        y: axis("latency (µs, log scale)", true),
        limit: slo.map(|o| {
            (
                o.limit_ns as f64 / 1000.0,
                format!("objective {}", s.slo.as_deref().unwrap_or_default()),
            )
        }),
        series,
        marks,
    }];
    if s.vary == "bs" {
        out.push(bandwidth_chart(s));
    }
    out
}

/// A block-size sweep's bandwidth against I/O size, with 90 % of the best marked.
fn bandwidth_chart(s: &SweepResult) -> Chart {
    let bw: Vec<(f64, f64)> = s
        .steps
        .iter()
        .map(|r| {
            (
                r.job.bs.first().map_or(0, |b| b.size) as f64 / 1024.0,
                r.total_mb_s(),
            )
        })
        .collect();
    let marks = s
        .bandwidth_90
        .iter()
        .filter(|p| p.step < bw.len())
        .map(|p| Mark {
            kind: "bandwidth-90",
            label: format!("90 % of best at bs={}", p.value),
            x: bw[p.step].0,
            y: bw[p.step].1,
        })
        .collect();
    Chart {
        id: "bandwidth-bs",
        title: "Bandwidth against I/O size".into(),
        x: axis("I/O size (KiB, log scale)", true),
        y: axis("MB/s", false),
        series: vec![Series {
            name: "MB/s".into(),
            points: bw,
        }],
        marks,
        limit: None,
    }
}

/// The charts of two runs overlaid: each direction's latency histogram and percentile
/// curve, and IOPS over time, as "A read", "B read", ….
pub fn overlay_charts(a: (&str, &RunResult), b: (&str, &RunResult)) -> Vec<Chart> {
    let both = [a, b];
    let per_dir = |f: fn(&DirStats) -> Vec<(f64, f64)>| -> Vec<Series> {
        both.iter()
            .flat_map(|(name, r)| {
                directions(r).into_iter().map(move |(d, s)| Series {
                    name: format!("{name} {d}"),
                    points: f(s),
                })
            })
            .collect()
    };
    let iops: Vec<Series> = both
        .iter()
        .map(|(name, r)| Series {
            name: format!("{name} IOPS"),
            points: drawn_seconds(r)
                .iter()
                .map(|p| (p.t, p.read_iops + p.write_iops))
                .collect(),
        })
        .collect();
    vec![
        Chart {
            id: "compare-latency-histogram",
            title: "Latency histograms overlaid (share of I/Os per bin)".into(),
            x: axis("latency (µs, log scale)", true),
            y: axis("% of I/Os", false),
            series: per_dir(histogram_points),
            marks: vec![],
            limit: None,
        },
        Chart {
            id: "compare-percentiles",
            title: "Latency by percentile, overlaid".into(),
            x: percentile_axis(),
            y: axis("latency (µs, log scale)", true),
            series: per_dir(percentile_points),
            marks: vec![],
            limit: None,
        },
        Chart {
            id: "compare-iops",
            title: "IOPS per second, overlaid".into(),
            x: axis("seconds", false),
            y: axis("IOPS", false),
            series: iops,
            marks: vec![],
            limit: None,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::histogram::new_histogram;
    use dbio_model::{LatencyHistogram, LatencySummary};

    fn dir(values: &[(u64, u64)]) -> DirStats {
        let mut h = new_histogram();
        for &(v, n) in values {
            h.record_n(v, n).unwrap();
        }
        DirStats {
            ios: h.len(),
            bytes: 0,
            iops: 0.0,
            mb_s: 0.0,
            mib_s: 0.0,
            latency_ns: LatencySummary::of(&h),
            histogram: LatencyHistogram::from_hdr(&h),
        }
    }

    #[test]
    fn histogram_bins_hold_the_hand_counted_shares() {
        // 30 I/Os at 150 µs, 10 at 1.5 ms: log10 5.18 and 6.18 ns fall in bins 51 and 61
        // (bins start at 10^(k/10) ns), so 11 bins from the first to the last.
        let p = histogram_points(&dir(&[(150_000, 30), (1_500_000, 10)]));
        assert_eq!(p.len(), 11);
        assert!((p[0].1 - 75.0).abs() < 1e-9 && (p[10].1 - 25.0).abs() < 1e-9);
        assert!(p[1..10].iter().all(|q| q.1 == 0.0));
        // Centre of bin 51 is 10^5.15 ns = 141.25 µs.
        assert!((p[0].0 - 141.25).abs() < 0.01, "{}", p[0].0);
    }

    #[test]
    fn an_objective_on_another_figure_adds_its_series_and_line() {
        let mut s: SweepResult =
            serde_json::from_str(include_str!("../../tests/fixtures/sweep-bs.json")).unwrap();
        s.slo = Some("read:p99.9<2ms".into());
        let c = &sweep_charts(&s)[0];
        assert_eq!(c.series.len(), 3);
        assert_eq!(c.series[2].name, "read p99.9");
        // Each step's read p99.9 as the run recorded it in its summary.
        for (p, r) in c.series[2].points.iter().zip(&s.steps) {
            let want = r.read.as_ref().unwrap().latency_ns.p99_9 as f64 / 1000.0;
            assert_eq!(p.1, want);
        }
        assert_eq!(c.limit.as_ref().unwrap().0, 2000.0);
    }

    #[test]
    fn percentile_curve_only_resolvable_points() {
        // 100 I/Os resolve up to p99 (1/(1 − 0.99) = 100): 0, 50, 75, 90, 95, 99.
        let d = dir(&[(10_000, 99), (5_000_000, 1)]);
        let p = percentile_points(&d);
        assert_eq!(p.len(), 6);
        assert!((p[3].0 - 1.0).abs() < 1e-9); // p90: one nine
        assert!((p[3].1 - 10.0).abs() < 0.01); // 10 µs
        assert!((p[5].1 - 10.0).abs() < 0.01); // p99 is the 99th value: still 10 µs
    }
}
