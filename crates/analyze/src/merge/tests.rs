//! Merging against hand-built hosts: every figure below is worked out from the values the
//! test records, not from dbio's output.

use super::*;
use dbio_model::histogram::{encode_compact, histogram_of, HistogramSum, SECOND_SIGFIG};
use dbio_model::TimePoint;

const SEC: u64 = 1_000_000_000;
/// 2026-12-01T10:00:00Z.
const T0: u64 = 1_796_119_200 * SEC;

fn hist_of(values: &[(u64, u64)]) -> Histogram<u64> {
    let mut h = new_histogram();
    for &(v, n) in values {
        h.record_n(v, n).unwrap();
    }
    h
}

fn dir(values: &[(u64, u64)], secs: f64) -> DirStats {
    let h = hist_of(values);
    let ios: u64 = values.iter().map(|v| v.1).sum();
    DirStats {
        ios,
        bytes: ios * 8192,
        iops: ios as f64 / secs,
        mb_s: ios as f64 * 8192.0 / secs / 1e6,
        mib_s: ios as f64 * 8192.0 / secs / 1_048_576.0,
        latency_ns: LatencySummary::of(&h),
        histogram: LatencyHistogram::from_hdr(&h),
    }
}

/// A host that read `per_sec[k]` I/Os of latency `lat_ns[k]` in its second k, starting at
/// `start` (ns since the epoch).
fn host(name: &str, start: u64, per_sec: &[u64], lat_ns: &[u64]) -> HostResult {
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../../report/tests/fixtures/run.json")).unwrap();
    let secs = per_sec.len() as f64;
    let all: Vec<(u64, u64)> = lat_ns
        .iter()
        .copied()
        .zip(per_sec.iter().copied())
        .collect();
    r.read = Some(dir(&all, secs));
    r.write = None;
    r.flush = None;
    r.measured_secs = secs;
    r.started_unix_ns = start;
    r.host.hostname = format!("{name}.example");
    r.timeseries = per_sec
        .iter()
        .zip(lat_ns)
        .enumerate()
        .map(|(k, (&n, &l))| TimePoint {
            t: k as f64 + 1.0,
            read_iops: n as f64,
            write_iops: 0.0,
            mb_s: n as f64 * 8192.0 / 1e6,
            p99_us: l as f64 / 1e3,
            hist: Some(encode_compact(&hist_of(&[(l, n)])).into()),
        })
        .collect();
    HostResult {
        name: name.into(),
        result: r,
    }
}

fn three() -> Vec<HostResult> {
    vec![
        host("a", T0, &[100, 100, 100], &[1_000, 2_000, 3_000]),
        host(
            "b",
            T0 + 2_000_000,
            &[50, 50, 50],
            &[10_000, 20_000, 30_000],
        ),
        host(
            "c",
            T0 + 1_000_000,
            &[10, 10, 10],
            &[500_000, 500_000, 500_000],
        ),
    ]
}

#[test]
fn totals_are_the_sums_and_the_histogram_adds_bucket_for_bucket() {
    let m = merge(&three(), MergeOptions::default()).unwrap();
    let read = m.read.as_ref().unwrap();
    assert_eq!(read.ios, 300 + 150 + 30);
    assert_eq!(read.bytes, 480 * 8192);
    let expected = hist_of(&[
        (1_000, 100),
        (2_000, 100),
        (3_000, 100),
        (10_000, 50),
        (20_000, 50),
        (30_000, 50),
        (500_000, 30),
    ]);
    assert_eq!(read.histogram.to_hdr(), expected);
    // 480 I/Os: the 99th percentile is the 476th smallest, one of c's 500 µs reads; the
    // median is the 240th, one of a's 3 µs reads.
    assert_eq!(read.latency_ns.p99, expected.highest_equivalent(500_000));
    assert_eq!(read.latency_ns.p50, expected.highest_equivalent(3_000));
    assert!((read.iops - (100.0 + 50.0 + 10.0)).abs() < 1e-9);
}

#[test]
fn a_row_per_host_and_the_slowest_named() {
    let m = merge(&three(), MergeOptions::default()).unwrap();
    let c = m.cluster.unwrap();
    let names: Vec<&str> = c.hosts.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    assert_eq!(c.hosts[1].read.as_ref().unwrap().ios, 150);
    assert!((c.hosts[1].start_offset_ms - 2.0).abs() < 1e-9);
    assert!((c.start_skew_ms - 2.0).abs() < 1e-9);
    assert_eq!(c.spread.slowest, "c");
    // Mean IOPS 160/3; c's 10 is 81.25 % below it.
    assert!((c.spread.slowest_below_mean_pct - 81.25).abs() < 1e-9);
    assert_eq!(c.spread.worst_p99, "c");
    // The common window starts with the last host (b, +2 ms) and ends with the first (a).
    assert_eq!(c.window_start_unix_ns, T0 + 2_000_000);
    assert!((c.window_secs - 2.998).abs() < 1e-9);
}

#[test]
fn seconds_line_up_by_wall_clock_and_p99_comes_from_merged_histograms() {
    // b started 1 s after a: a's seconds 1 and 2 meet b's 0 and 1.
    let hosts = vec![
        host("a", T0, &[100, 200, 300], &[1_000, 2_000, 3_000]),
        host("b", T0 + SEC, &[7, 8, 9], &[700_000, 800_000, 900_000]),
    ];
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let iops: Vec<f64> = m.timeseries.iter().map(|p| p.read_iops).collect();
    assert_eq!(iops, [207.0, 308.0]);
    // Second 0: 200 reads at 2 µs and 7 at 700 µs: the 99th percentile (205th of 207) is 700 µs,
    // within the 1 % of the seconds' two significant digits.
    assert!((m.timeseries[0].p99_us - 700.0).abs() < 7.0);
    assert!(m.timeseries[0].p99_us >= 699.0);
    // Second 1: 300 at 3 µs and 8 at 800 µs: the 305th of 308 is 800 µs.
    assert!((m.timeseries[1].p99_us - 800.0).abs() < 8.0);
}

/// b's clock runs 1 s ahead of the launcher's: by its own clock it started 1 s after a, so
/// without its offset the seconds would pair wrongly and the skew read 1,000 ms; with the
/// offset measured at start they are one start, 0 ms apart, second for second.
#[test]
fn a_measured_clock_offset_puts_a_host_on_the_launchers_clock() {
    let hosts = vec![
        host("a", T0, &[100, 200, 300], &[1_000, 2_000, 3_000]),
        host("b", T0 + SEC, &[7, 8, 9], &[700_000, 800_000, 900_000]),
    ];
    let skew = |m: &RunResult| m.cluster.as_ref().unwrap().start_skew_ms;
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    assert_eq!(skew(&m), 1000.0);
    let offset = |host: &str, offset_ms: f64| ClockOffset {
        host: host.into(),
        offset_ms,
        rtt_ms: 0.1,
    };
    let opts = MergeOptions {
        clock_offsets: vec![offset("a", 0.0), offset("b", 1000.0)],
        ..MergeOptions::default()
    };
    let m = merge(&hosts, opts).unwrap();
    assert_eq!(skew(&m), 0.0);
    let iops: Vec<f64> = m.timeseries.iter().map(|p| p.read_iops).collect();
    assert_eq!(iops, [107.0, 208.0, 309.0]);
}

#[test]
fn different_workloads_are_refused_naming_the_host_and_field() {
    let mut hosts = three();
    hosts[2].result.job.qd = 7;
    let e = merge(&hosts, MergeOptions::default()).unwrap_err();
    assert!(e.starts_with("c: job.qd is 7"), "{e}");
    assert!(e.contains("--allow-different"), "{e}");
    let m = merge(
        &hosts,
        MergeOptions {
            allow_different: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert!(m.cluster.unwrap().different_workloads);
    // The summary says which hosts ran what.
    let w = m
        .warnings
        .iter()
        .find(|w| w.code == "different-workloads")
        .expect("a different-workloads warning");
    let qd = hosts[0].result.job.qd;
    assert!(
        w.message.contains(&format!("job.qd: {qd} on a, b; 7 on c")),
        "{}",
        w.message
    );
}

#[test]
fn windows_that_do_not_overlap_are_refused() {
    let hosts = vec![
        host("a", T0, &[1, 1], &[1_000, 1_000]),
        host("late", T0 + 10 * SEC, &[1, 1], &[1_000, 1_000]),
    ];
    let e = merge(&hosts, MergeOptions::default()).unwrap_err();
    assert!(e.starts_with("late: measured from"), "{e}");
    assert!(e.contains("do not overlap"), "{e}");
}

#[test]
fn newer_schemas_merged_results_and_missing_start_times_are_refused() {
    let mut hosts = three();
    hosts[1].result.schema = "dbio.run/2".into();
    let e = merge(&hosts, MergeOptions::default()).unwrap_err();
    assert!(e.starts_with("b: schema is \"dbio.run/2\""), "{e}");
    let merged = merge(&three(), MergeOptions::default()).unwrap();
    let again = vec![HostResult {
        name: "m".into(),
        result: merged,
    }];
    assert!(merge(&again, MergeOptions::default())
        .unwrap_err()
        .contains("already a merged result"));
    let mut old = three();
    old[0].result.started_unix_ns = 0;
    assert!(merge(&old, MergeOptions::default())
        .unwrap_err()
        .starts_with("a: the result has no started_unix_ns"));
}

#[test]
fn skew_over_a_tenth_of_the_window_and_missing_hosts_are_warned_and_partial() {
    let hosts = vec![
        host("a", T0, &[1; 10], &[1_000; 10]),
        host("b", T0 + 1_500_000_000, &[1; 10], &[1_000; 10]),
    ];
    let m = merge(
        &hosts,
        MergeOptions {
            failed: vec![HostFailure {
                name: "down".into(),
                reason: "ssh: connect refused".into(),
            }],
            ..Default::default()
        },
    )
    .unwrap();
    let codes: Vec<&str> = m.warnings.iter().map(|w| w.code.as_str()).collect();
    assert!(codes.contains(&"start-skew"), "{codes:?}");
    assert!(codes.contains(&"hosts-missing"), "{codes:?}");
    assert!(m.partial);
}

/// Many seconds (more than one merging thread's share) of several latencies each: every
/// merged second's histogram, decoded by the `hdrhistogram` crate, is the bucket-for-bucket
/// sum of the hosts' seconds built here from the recorded values.
#[test]
fn each_merged_second_is_the_sum_of_the_hosts_seconds_bucket_for_bucket() {
    let secs = 40;
    let lat = |h: u64, k: u64| [1_000 + 37 * k + h, 50_000 + 911 * k * h, 3_000_000 + k];
    let mut hosts: Vec<HostResult> = (0..3u64)
        .map(|h| {
            host(
                &format!("h{h}"),
                T0 + h * 1_000_000,
                &vec![3; secs],
                &vec![1; secs],
            )
        })
        .collect();
    for (h, hr) in hosts.iter_mut().enumerate() {
        for (k, p) in hr.result.timeseries.iter_mut().enumerate() {
            let values: Vec<(u64, u64)> =
                lat(h as u64, k as u64).map(|v| (v, k as u64 + 1)).to_vec();
            p.hist = Some(encode_compact(&hist_of(&values)).into());
        }
    }
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    assert_eq!(m.timeseries.len(), secs);
    // Seconds are kept at two significant digits: the sum is exact at that precision.
    let mut sum = HistogramSum::new(SECOND_SIGFIG);
    for (j, p) in m.timeseries.iter().enumerate() {
        let mut want = histogram_of(SECOND_SIGFIG);
        for h in 0..3u64 {
            for v in lat(h, j as u64) {
                want.record_n(v, j as u64 + 1).unwrap();
            }
        }
        sum.clear();
        sum.add_compact(&p.hist.as_ref().unwrap().text().unwrap())
            .unwrap();
        assert_eq!(sum.to_histogram(), want, "second {j}");
        assert_eq!(p.p99_us, want.value_at_quantile(0.99) as f64 / 1e3);
    }
}

/// A warning every host gave is one line naming all hosts; one only some gave names them;
/// each host keeps its own in its row.
#[test]
fn warnings_are_grouped_by_kind_and_kept_per_host() {
    let mut hosts = three();
    let w = |code: &str, message: &str| Warning {
        code: code.into(),
        message: message.into(),
    };
    for h in &mut hosts {
        h.result.warnings = vec![w("simulated", "simulated: no device was measured")];
    }
    hosts[0]
        .result
        .warnings
        .push(w("generator-bound", "worker 0 at 99 % CPU"));
    hosts[2]
        .result
        .warnings
        .push(w("generator-bound", "worker 1 at 97 % CPU"));
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let lines: Vec<&str> = m.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        lines,
        [
            "all 3 hosts: simulated: no device was measured",
            "a, c: worker 0 at 99 % CPU (as on a; each host's own figures are in its row)",
        ]
    );
    let rows = &m.cluster.unwrap().hosts;
    assert_eq!(rows[2].warnings, hosts[2].result.warnings);
    assert_eq!(rows[1].warnings.len(), 1);
}
