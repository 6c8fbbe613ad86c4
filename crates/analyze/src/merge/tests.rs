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

/// Three hosts of their own seeds.
fn three() -> Vec<HostResult> {
    let mut hosts = vec![
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
    ];
    for (i, h) in hosts.iter_mut().enumerate() {
        h.result.job.seed = i as u64 + 1;
    }
    hosts
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
    let e = merge(&hosts, MergeOptions::default())
        .unwrap_err()
        .to_string();
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
    let e = merge(&hosts, MergeOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("late: measured from"), "{e}");
    assert!(e.contains("do not overlap"), "{e}");
}

#[test]
fn newer_schemas_merged_results_and_missing_start_times_are_refused() {
    let mut hosts = three();
    hosts[1].result.schema = "dbio.run/2".into();
    let e = merge(&hosts, MergeOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("b: schema is \"dbio.run/2\""), "{e}");
    let merged = merge(&three(), MergeOptions::default()).unwrap();
    let again = vec![HostResult {
        name: "m".into(),
        result: merged,
    }];
    assert!(merge(&again, MergeOptions::default())
        .unwrap_err()
        .to_string()
        .contains("already a merged result"));
    let mut old = three();
    old[0].result.started_unix_ns = 0;
    assert!(merge(&old, MergeOptions::default())
        .unwrap_err()
        .to_string()
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

/// `h` as a real run writes it: its last interval runs on `tail` seconds past its last whole
/// second, to the end of the run (t = 5.0006 for a 5 s run).
fn ran_on(mut h: HostResult, tail: f64) -> HostResult {
    let last = h.result.timeseries.last_mut().unwrap();
    last.t += tail;
    h.result.measured_secs += tail;
    h
}

/// Every second of the common window is in the cluster's series, each the sum of the hosts'
/// same second: with the last interval running on past the fifth second, with one host
/// starting 3 ms later, and with a sliver of an interval after the last second (as the
/// simulated engine writes).
#[test]
fn every_second_of_the_common_window_is_in_the_series() {
    for late_ns in [0, 3_000_000] {
        let hosts = vec![
            ran_on(host("a", T0, &[10, 20, 30, 40, 50], &[1_000; 5]), 0.000_6),
            ran_on(
                host("b", T0 + late_ns, &[1, 2, 3, 4, 5], &[1_000; 5]),
                0.000_8,
            ),
        ];
        let m = merge(&hosts, MergeOptions::default()).unwrap();
        let t: Vec<f64> = m.timeseries.iter().map(|p| p.t).collect();
        assert_eq!(t, [1.0, 2.0, 3.0, 4.0, 5.0], "b {late_ns} ns later");
        let iops: Vec<f64> = m.timeseries.iter().map(|p| p.read_iops).collect();
        assert_eq!(iops, [11.0, 22.0, 33.0, 44.0, 55.0], "b {late_ns} ns later");
    }
    let mut hosts = vec![
        host("a", T0, &[10, 20, 30, 40, 50], &[1_000; 5]),
        host("b", T0, &[1, 2, 3, 4, 5], &[1_000; 5]),
    ];
    for h in &mut hosts {
        let mut sliver = h.result.timeseries[4].clone();
        sliver.t = 5.000_2;
        h.result.timeseries.push(sliver);
        h.result.measured_secs = 5.000_2;
    }
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let t: Vec<f64> = m.timeseries.iter().map(|p| p.t).collect();
    assert_eq!(
        t,
        [1.0, 2.0, 3.0, 4.0, 5.0],
        "the sliver is not a sixth second"
    );
}

/// One run given twice, as a copy or relabelled, would count its host twice: refused, naming
/// both names, the host and the start.
#[test]
fn one_run_given_twice_is_refused_by_name() {
    let mut hosts = three();
    let mut copy = hosts[1].clone();
    copy.name = "b-again".into();
    copy.result.label = Some("another label".into());
    hosts.push(copy);
    let e = merge(&hosts, MergeOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(
            "b-again: the same run as b (host b.example, measuring from 2026-12-01T10:00:00.002Z)"
        ),
        "{e}"
    );
    assert!(e.contains("count twice"), "{e}");
}

/// `hosts` with CPU figures that limit nothing, so the verdict comes from the queue or the
/// device.
fn idle(mut hosts: Vec<HostResult>) -> Vec<HostResult> {
    for h in &mut hosts {
        h.result.cpu.host_busy_pct = 20.0;
        h.result.cpu.cpus_allowed = 2;
    }
    hosts
}

/// Two hosts of 2 outstanding I/Os each (the fixture's QD 2 × 1 thread) are 4 outstanding
/// I/Os: Little's law over the merged mean latency gives the cluster's IOPS, not half of it,
/// and the slowest host is named.
#[test]
fn the_verdict_counts_every_hosts_outstanding_ios_and_names_the_slowest() {
    let hosts = idle(vec![
        host("a", T0, &[100, 100, 100], &[20_000; 3]),
        host("b", T0, &[50, 50, 50], &[20_000; 3]),
    ]);
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let v = crate::verdict::verdict(&m).unwrap();
    assert_eq!(v.limit, "queue-depth");
    // Every read took 20 µs (within the histogram's precision): 4 / 20 µs = 200,000 IOPS.
    let mean_us = m.read.as_ref().unwrap().histogram.to_hdr().mean() / 1e3;
    let little = 4.0 / (mean_us / 1e6);
    assert!((mean_us - 20.0).abs() < 0.1, "{mean_us}");
    assert!(
        v.message.contains(&format!(
            "4 outstanding I/Os (2 I/Os on each of 2 hosts) at 20 µs each give {little:.0} IOPS"
        )),
        "{}",
        v.message
    );
    // Mean 75 IOPS; b's 50 is 33.3 % below it.
    assert!(
        v.message
            .ends_with("; the slowest host was b, 33.3 % below the hosts' mean IOPS"),
        "{}",
        v.message
    );
}

/// Two hosts, each at 95 % of its own simulated device's 3,500 MB/s: together 95 % of the
/// two devices' 7,000 MB/s, never 190 % of one device's.
#[test]
fn each_host_brings_its_own_device_to_the_verdict() {
    let mut hosts = idle(vec![
        host("a", T0, &[100; 3], &[20_000; 3]),
        host("b", T0, &[100; 3], &[20_000; 3]),
    ]);
    let device = dbio_model::SimDevice::preset("nvme-gen3").unwrap();
    assert_eq!(device.bw_bytes_s, Some(3_500_000_000));
    for h in &mut hosts {
        h.result.job.sim = Some(device.clone());
        h.result.read.as_mut().unwrap().mb_s = 3_334.0;
    }
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let v = crate::verdict::verdict(&m).unwrap();
    assert_eq!(v.limit, "device-bandwidth");
    assert!(
        v.message
            .contains("6668 MB/s is 95 % of their 7000 MB/s (3500 MB/s on each of 2 hosts)"),
        "{}",
        v.message
    );
    // Under the links' ceiling, 4 outstanding I/Os leave 2 × 32 channels idle.
    for h in &mut hosts {
        h.result.read.as_mut().unwrap().mb_s = 100.0;
    }
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let v = crate::verdict::verdict(&m).unwrap();
    assert_eq!(v.limit, "queue-depth");
    assert!(
        v.message.contains(
            "4 outstanding I/Os (2 I/Os on each of 2 hosts) for 2 devices that serve 64 at once"
        ),
        "{}",
        v.message
    );
}

/// Each host's own seed and part of a split region are no difference of workload; they are
/// kept in its row, and the cluster's job covers the whole region. A different number of
/// parts is a different workload.
#[test]
fn own_seeds_and_parts_of_a_split_region_merge_and_are_kept_per_host() {
    let mut hosts = three();
    for (i, h) in hosts.iter_mut().enumerate() {
        h.result.job.seed = 100 + i as u64;
        h.result.job.region.split = Some(dbio_model::RegionSplit {
            part: i as u32 + 1,
            parts: 3,
        });
    }
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    assert_eq!(m.job.region.split, None);
    let rows = m.cluster.unwrap().hosts;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.seed, Some(100 + i as u64));
        assert_eq!(
            row.split.map(|s| (s.part, s.parts)),
            Some((i as u32 + 1, 3))
        );
    }
    hosts[2].result.job.region.split = Some(dbio_model::RegionSplit { part: 2, parts: 2 });
    let e = merge(&hosts, MergeOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("c: job.region is"), "{e}");
}

/// Hosts run with one seed (the default, on hosts started with --start-at) are warned of,
/// by name; hosts of their own seeds, or of their own parts of the region, are not.
#[test]
fn hosts_of_one_seed_are_named_in_a_warning() {
    let codes = |hosts: &[HostResult]| -> Vec<String> {
        let m = merge(hosts, MergeOptions::default()).unwrap();
        m.warnings.into_iter().map(|w| w.code).collect()
    };
    let mut hosts = three();
    assert!(!codes(&hosts).contains(&"one-seed".to_string()));
    hosts[2].result.job.seed = hosts[0].result.job.seed;
    let m = merge(&hosts, MergeOptions::default()).unwrap();
    let w = m.warnings.iter().find(|w| w.code == "one-seed").unwrap();
    assert!(
        w.message
            .starts_with("a, c drew their offsets from one seed (1)"),
        "{}",
        w.message
    );
    for (i, h) in hosts.iter_mut().enumerate() {
        h.result.job.region.split = Some(dbio_model::RegionSplit {
            part: i as u32 + 1,
            parts: 3,
        });
    }
    assert!(!codes(&hosts).contains(&"one-seed".to_string()));
}

/// With --allow-different, hosts of one split region that differ in another setting are
/// told apart by that setting only: their parts of the region are no difference.
#[test]
fn allowed_differences_leave_out_the_parts_of_a_split_region() {
    let mut hosts = three();
    for (i, h) in hosts.iter_mut().enumerate() {
        h.result.job.region.split = Some(dbio_model::RegionSplit {
            part: i as u32 + 1,
            parts: 3,
        });
    }
    hosts[2].result.job.qd = 7;
    let m = merge(
        &hosts,
        MergeOptions {
            allow_different: true,
            ..Default::default()
        },
    )
    .unwrap();
    let w = m
        .warnings
        .iter()
        .find(|w| w.code == "different-workloads")
        .expect("a different-workloads warning");
    assert!(w.message.contains("job.qd: "), "{}", w.message);
    assert!(!w.message.contains("job.region"), "{}", w.message);
}

/// A merge whose hosts' seconds are handed on one host at a time (as `dbio merge` reads them
/// from files) gives the merge in memory's result byte for byte, clock offsets, missing hosts
/// and all; the heads' own `timeseries` are not looked at.
#[test]
fn a_streamed_merge_equals_the_merge_in_memory() {
    let mut hosts = three();
    hosts.push(host(
        "d",
        T0 + SEC / 3,
        &[5, 6, 7, 8],
        &[9_000, 8_000, 7_000, 6_000],
    ));
    let opts = || MergeOptions {
        failed: vec![HostFailure {
            name: "e".into(),
            reason: "unreachable".into(),
        }],
        clock_offsets: vec![ClockOffset {
            host: "d".into(),
            offset_ms: 333.0,
            rtt_ms: 0.2,
        }],
        allow_different: false,
    };
    let whole = merge(&hosts, opts()).unwrap();
    let heads: Vec<HostResult> = hosts
        .iter()
        .map(|h| {
            let mut h = h.clone();
            h.result.timeseries.clear();
            h
        })
        .collect();
    let seconds = |i: usize, each: &mut dyn FnMut(&TimePoint)| {
        hosts[i].result.timeseries.iter().for_each(each);
        Ok::<(), std::fmt::Error>(())
    };
    let streamed = merge_streamed(&heads, opts(), seconds).unwrap();
    assert_eq!(whole.timeseries.len(), 3);
    assert_eq!(
        serde_json::to_string(&streamed).unwrap(),
        serde_json::to_string(&whole).unwrap()
    );
    let failing = |i: usize, _: &mut dyn FnMut(&TimePoint)| match i {
        2 => Err(std::fmt::Error),
        _ => Ok(()),
    };
    assert!(matches!(
        merge_streamed(&heads, opts(), failing),
        Err(MergeError::Seconds(std::fmt::Error))
    ));
}
