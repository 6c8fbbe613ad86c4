//! A run as fio's `--output-format=json+` writes it: `jobs[].read|write` with iops, bw
//! (KiB/s), runtime (ms), `clat_ns` with percentiles and `bins` (every non-empty bucket of
//! dbio's HDR histogram, keyed by the bucket's highest value in ns, so fio's
//! `fio_jsonplus_clat2csv` rebuilds dbio's own percentiles), `lat_ns`, `sync` and `disk_util`.
//!
//! dbio times an I/O from the submitting system call to its reaping: fio's total latency
//! (`lat_ns`). It is written as `clat_ns` too, because fio's tools read the bins there;
//! `slat_ns` is empty. `disk_util` is empty: dbio does not sample /proc/diskstats.
//!
//! `time` is fio's ctime form of the start, in UTC (dbio keeps the start in UTC; fio writes
//! local time). `iodepth_level` is not measured: a job is reported at its queue depth all
//! the time (100 % in the band of its `qd`, as fio reports a job held at its depth), and
//! `iodepth_submit`/`iodepth_complete` are all 0. `latency_*` are fio's values without a
//! `latency_target` (dbio's `sweep --target-latency` is that search).
//!
//! A run of several streams (fio's jobs run at once) is one entry per stream, named by it,
//! or with `group_reporting` one entry for all (see [`FioJobs`]); without it, a job or
//! stream of several threads (fio's `numjobs=N`) is an entry per thread, as fio writes
//! each clone (`fio_entries`). A stream's or thread's entry has no per-second samples
//! (`bw_samples` and `iops_samples` are 0), and its CPU is that of its own worker threads.

pub use crate::fio_entries::FioJobs;
use crate::fio_entries::{entries, Entry};
use crate::fio_percentiles::key;
use dbio_model::{DirStats, JobSpec, Outcome, RunResult, TimePoint};
use serde_json::{json, Map, Value};

/// The percentiles fio lists by default, in percent.
const PERCENTILES: [f64; 17] = [
    1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95,
    99.99,
];

/// The result as fio json+ text: a run of several streams as `jobs` says, `clat_ns`
/// listing `percentiles` (fio's percentile_list; empty: fio's default list).
pub fn to_fio_json(r: &RunResult, jobs: FioJobs, percentiles: &[f64]) -> String {
    let secs = started_secs(&r.started_at);
    let pct = if percentiles.is_empty() {
        &PERCENTILES[..]
    } else {
        percentiles
    };
    let jobs: Vec<Value> = entries(r, jobs).iter().map(|e| job(r, e, pct)).collect();
    let doc = json!({
        "fio version": format!("dbio-{}", r.dbio_version),
        "timestamp": secs,
        "timestamp_ms": secs * 1000,
        "time": ctime(&r.started_at, secs),
        "global options": {},
        "jobs": jobs,
        "disk_util": [],
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One `jobs[]` entry, its `clat_ns` listing the percentiles `pct`.
fn job(r: &RunResult, e: &Entry, pct: &[f64]) -> Value {
    let runtime_ms = (e.secs * 1000.0).round() as u64;
    let edges = [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000];
    json!({
        "jobname": e.name,
        "groupid": 0,
        "error": if matches!(r.outcome, Outcome::IoError(_)) { 5 } else { 0 },
        "eta": 0,
        "elapsed": e.secs.round() as u64,
        "job options": job_options(e.job),
        "read": dir(e.read.as_deref(), runtime_ms, e.seconds, |t| t.read_iops, pct),
        "write": dir(e.write.as_deref(), runtime_ms, e.seconds, |t| t.write_iops, pct),
        "trim": dir(None, 0, &[], |_| 0.0, pct),
        "sync": sync(e.flush.as_deref()),
        "job_runtime": runtime_ms,
        "usr_cpu": cpu_pct(e.cpu.0, e.secs),
        "sys_cpu": cpu_pct(e.cpu.1, e.secs),
        "ctx": 0,
        "majf": 0,
        "minf": 0,
        "iodepth_level": depth_level(e.job.qd),
        "iodepth_submit": no_batches(),
        "iodepth_complete": no_batches(),
        "latency_ns": latency_shares(e, 1, &edges),
        "latency_us": latency_shares(e, 1_000, &edges),
        "latency_ms": latency_ms(e),
        "latency_depth": e.job.qd,
        "latency_target": 0,
        "latency_percentile": 100.0,
        "latency_window": 0,
    })
}

/// fio's `iodepth_level` of a job held at depth `qd`: 100 % in its band (fio's bands start
/// at 1, 2, 4, 8, 16, 32 and 64).
fn depth_level(qd: u32) -> Value {
    let bands = [
        (1, "1"),
        (2, "2"),
        (4, "4"),
        (8, "8"),
        (16, "16"),
        (32, "32"),
        (64, ">=64"),
    ];
    let at = bands.iter().rposition(|(low, _)| qd >= *low).unwrap_or(0);
    let m: Map<String, Value> = bands
        .iter()
        .enumerate()
        .map(|(i, (_, k))| (k.to_string(), if i == at { 100.0 } else { 0.0 }.into()))
        .collect();
    Value::Object(m)
}

/// fio's `iodepth_submit`/`iodepth_complete` bands, all 0: dbio does not count its batches.
fn no_batches() -> Value {
    let keys = ["0", "4", "8", "16", "32", "64", ">=64"];
    Value::Object(keys.iter().map(|k| (k.to_string(), 0.0.into())).collect())
}

/// fio's `time`, C's ctime form without its newline (`Sun Nov 22 16:35:45 2026`), of the
/// RFC 3339 UTC time `t` that is `secs` after the epoch; `t` itself if unreadable.
fn ctime(t: &str, secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = t.get(5..7).and_then(|m| m.parse::<usize>().ok());
    let day = t.get(8..10).and_then(|d| d.parse::<u32>().ok());
    match (month, day, t.get(11..19), t.get(0..4)) {
        (Some(m @ 1..=12), Some(d), Some(hms), Some(y)) if secs > 0 || t.starts_with("1970") => {
            let wd = DAYS[(secs / 86_400 % 7) as usize];
            format!("{wd} {} {d:>2} {hms} {y}", MONTHS[m - 1])
        }
        _ => t.to_string(),
    }
}

/// Seconds since the epoch of an RFC 3339 UTC time (`2026-11-25T03:41:11Z`), 0 if unreadable.
fn started_secs(t: &str) -> u64 {
    let num = |a: usize, b: usize| t.get(a..b).and_then(|x| x.parse::<i64>().ok());
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(s)) = (
        num(0, 4),
        num(5, 7),
        num(8, 10),
        num(11, 13),
        num(14, 16),
        num(17, 19),
    ) else {
        return 0;
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (mo + if mo > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    (days * 86_400 + h * 3600 + mi * 60 + s).max(0) as u64
}

fn cpu_pct(cpu_s: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        cpu_s / secs * 100.0
    } else {
        0.0
    }
}

/// The job's settings in fio's option names, as fio lists them under "job options".
fn job_options(j: &JobSpec) -> Value {
    let mut m = Map::new();
    m.insert("rw".into(), crate::fio_job::fio_rw(j.rw).into());
    if j.rw.is_mixed() {
        m.insert("rwmixread".into(), j.read_pct.to_string().into());
    }
    m.insert("bs".into(), crate::fio_job::bs_option(j).1.into());
    m.insert("iodepth".into(), j.qd.to_string().into());
    m.insert("numjobs".into(), j.threads.to_string().into());
    m.insert("direct".into(), u8::from(j.direct).to_string().into());
    m.insert("filename".into(), j.targets.join(":").into());
    Value::Object(m)
}

/// One direction in fio's layout (all zeros when the run had none).
fn dir(
    d: Option<&DirStats>,
    runtime_ms: u64,
    seconds: &[TimePoint],
    iops_of: fn(&TimePoint) -> f64,
    pct: &[f64],
) -> Value {
    let empty = json!({"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0});
    let Some(d) = d else {
        return json!({
            "io_bytes": 0, "io_kbytes": 0, "bw_bytes": 0, "bw": 0, "iops": 0.0, "runtime": 0,
            "total_ios": 0, "short_ios": 0, "drop_ios": 0,
            "slat_ns": empty, "clat_ns": empty, "lat_ns": empty,
            "bw_min": 0, "bw_max": 0, "bw_agg": 0.0, "bw_mean": 0.0, "bw_dev": 0.0, "bw_samples": 0,
            "iops_min": 0, "iops_max": 0, "iops_mean": 0.0, "iops_stddev": 0.0, "iops_samples": 0,
        });
    };
    let bw_bytes = (d.bytes * 1000).checked_div(runtime_ms).unwrap_or(0);
    let iops: Vec<f64> = seconds.iter().map(iops_of).collect();
    let per_io = if d.ios > 0 {
        d.bytes as f64 / d.ios as f64
    } else {
        0.0
    };
    let bw_kib: Vec<f64> = iops.iter().map(|i| i * per_io / 1024.0).collect();
    let (bw_min, bw_max, bw_mean, bw_dev) = spread(&bw_kib);
    let (i_min, i_max, i_mean, i_dev) = spread(&iops);
    json!({
        "io_bytes": d.bytes,
        "io_kbytes": d.bytes / 1024,
        "bw_bytes": bw_bytes,
        "bw": bw_bytes / 1024,
        "iops": d.iops,
        "runtime": runtime_ms,
        "total_ios": d.ios,
        "short_ios": 0,
        "drop_ios": 0,
        "slat_ns": empty,
        "clat_ns": latency(d, pct),
        "lat_ns": latency(d, &[]),
        "bw_min": bw_min.round() as u64,
        "bw_max": bw_max.round() as u64,
        "bw_agg": 100.0,
        "bw_mean": bw_mean,
        "bw_dev": bw_dev,
        "bw_samples": bw_kib.len(),
        "iops_min": i_min.round() as u64,
        "iops_max": i_max.round() as u64,
        "iops_mean": i_mean,
        "iops_stddev": i_dev,
        "iops_samples": iops.len(),
    })
}

/// Min, max, mean and sample standard deviation (zeros for no samples).
fn spread(v: &[f64]) -> (f64, f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = if v.len() > 1 {
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (min, max, mean, var.sqrt())
}

/// Latency figures from the HDR histogram; with percentiles `pct` to list, those and the
/// bins (fio's clat_ns).
fn latency(d: &DirStats, pct: &[f64]) -> Value {
    let h = d.histogram.to_hdr();
    let mut v = json!({
        "min": d.latency_ns.min,
        "max": d.latency_ns.max,
        "mean": d.latency_ns.mean,
        "stddev": if h.is_empty() { 0.0 } else { h.stdev() },
        "N": h.len(),
    });
    if !pct.is_empty() && !h.is_empty() {
        let pct: Map<String, Value> = pct
            .iter()
            .map(|p| (key(*p), h.value_at_quantile(quantile(*p)).into()))
            .collect();
        let bins: Map<String, Value> = h
            .iter_recorded()
            .map(|b| {
                let top = h.highest_equivalent(b.value_iterated_to());
                (top.to_string(), b.count_at_value().into())
            })
            .collect();
        v["percentile"] = Value::Object(pct);
        v["bins"] = Value::Object(bins);
    }
    v
}

/// A percentile as the quantile dbio's own summary uses (99.9 is exactly 0.999, not
/// 99.9 / 100, which lands one rank further at some counts).
fn quantile(pct: f64) -> f64 {
    (pct * 1000.0).round() / 100_000.0
}

/// fio's `sync` block: the flushes of `--sync fsync:N|fdatasync:N`.
fn sync(f: Option<&DirStats>) -> Value {
    match f {
        Some(f) => json!({"total_ios": f.ios, "lat_ns": latency(f, &[])}),
        None => {
            json!({"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}})
        }
    }
}

/// Reads and writes of `e` as counts per latency range: each `(edge, count)` where the
/// count is of I/Os above the previous edge and at most this one (edges in ns).
fn counts_up_to(e: &Entry, edges_ns: &[u64]) -> (Vec<u64>, u64) {
    let mut counts = vec![0u64; edges_ns.len() + 1];
    let mut total = 0;
    for d in [&e.read, &e.write].into_iter().flatten() {
        for [v, c] in &d.histogram.buckets {
            let i = edges_ns
                .iter()
                .position(|e| v < e)
                .unwrap_or(edges_ns.len());
            counts[i] += c;
            total += c;
        }
    }
    (counts, total)
}

/// fio's latency_ns / latency_us shares: percent of I/Os under each edge (× `unit` ns) and
/// over the edge before it.
fn latency_shares(e: &Entry, unit: u64, edges: &[u64]) -> Value {
    let ns: Vec<u64> = edges.iter().map(|x| x * unit).collect();
    let (counts, total) = counts_up_to(e, &ns);
    let m: Map<String, Value> = edges
        .iter()
        .zip(&counts)
        .map(|(e, c)| (e.to_string(), share(*c, total).into()))
        .collect();
    Value::Object(m)
}

/// fio's latency_ms shares, with its last bucket `>=2000`.
fn latency_ms(e: &Entry) -> Value {
    let edges = [2u64, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000];
    let ns: Vec<u64> = edges.iter().map(|x| x * 1_000_000).collect();
    let (counts, total) = counts_up_to(e, &ns);
    let mut m: Map<String, Value> = edges
        .iter()
        .zip(&counts)
        .map(|(e, c)| (e.to_string(), share(*c, total).into()))
        .collect();
    m.insert(">=2000".into(), share(counts[edges.len()], total).into());
    Value::Object(m)
}

fn share(c: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        c as f64 * 100.0 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::{StreamResult, WorkerCpu};

    /// The committed fixture run as two streams: "data" with its reads and two threads,
    /// "log" with its writes and one; the workers' CPU 1+2 s, 3+4 s and 5+6 s in that order.
    fn two_streams() -> RunResult {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../tests/fixtures/run.json")).unwrap();
        let stream = |name: &str, threads, read: Option<DirStats>, write: Option<DirStats>| {
            let mut job = r.job.clone();
            job.threads = threads;
            StreamResult {
                name: name.into(),
                role: name.into(),
                job,
                targets: Vec::new(),
                measured_secs: 10.0,
                read,
                write,
                flush: None,
            }
        };
        r.streams = vec![
            stream("data", 2, r.read.clone(), None),
            stream("log", 1, None, r.write.clone()),
        ];
        r.cpu.workers = [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]
            .map(|(user_s, sys_s)| WorkerCpu {
                user_s,
                sys_s,
                busy_pct: 0.0,
                ios: 0,
            })
            .into();
        r
    }

    fn jobs(r: &RunResult, how: FioJobs) -> Vec<Value> {
        let doc: Value = serde_json::from_str(&to_fio_json(r, how, &[])).unwrap();
        doc["jobs"].as_array().unwrap().clone()
    }

    #[test]
    fn streams_are_an_entry_each_or_one_group_named_by_the_first() {
        let r = two_streams();
        let (reads, writes) = (r.read.as_ref().unwrap().ios, r.write.as_ref().unwrap().ios);
        let each = jobs(&r, FioJobs::PerJob);
        let names: Vec<&str> = each
            .iter()
            .map(|j| j["jobname"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["data", "log"]);
        assert_eq!(each[0]["read"]["total_ios"], reads);
        assert_eq!(each[0]["write"]["total_ios"], 0);
        assert_eq!(
            (
                each[1]["read"]["total_ios"].clone(),
                each[1]["write"]["total_ios"].clone()
            ),
            (0.into(), writes.into())
        );
        // CPU of each stream's own threads over its 10 s: data 1+3 s user, 2+4 s system.
        assert_eq!(
            (each[0]["usr_cpu"].as_f64(), each[0]["sys_cpu"].as_f64()),
            (Some(40.0), Some(60.0))
        );
        assert_eq!(
            (each[1]["usr_cpu"].as_f64(), each[1]["sys_cpu"].as_f64()),
            (Some(50.0), Some(60.0))
        );
        assert_eq!(each[0]["job options"]["numjobs"], "2");
        let group = jobs(&r, FioJobs::Group);
        assert_eq!(group.len(), 1);
        assert_eq!(group[0]["jobname"], "data");
        assert_eq!(
            (
                group[0]["read"]["total_ios"].clone(),
                group[0]["write"]["total_ios"].clone()
            ),
            (reads.into(), writes.into())
        );
        // A run of one stream is one entry whichever way.
        let mut one = r.clone();
        one.streams.clear();
        assert_eq!(jobs(&one, FioJobs::PerJob), jobs(&one, FioJobs::Group));
    }

    /// fio writes the percentiles and the bins in increasing order, and scripts that plot
    /// them read the keys in file order ("5.000000" after "1.000000", not after "40.000000").
    #[test]
    fn percentiles_and_bins_are_written_in_numeric_order() {
        let r = two_streams();
        let text = to_fio_json(&r, FioJobs::Group, &[]);
        let doc: Value = serde_json::from_str(&text).unwrap();
        let clat = &doc["jobs"][0]["read"]["clat_ns"];
        for what in ["percentile", "bins"] {
            let keys: Vec<f64> = clat[what]
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.parse().unwrap())
                .collect();
            assert!(keys.len() > 2, "{what}: {keys:?}");
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "{what}: {keys:?}");
        }
    }

    #[test]
    fn a_percentile_list_is_the_keys_and_depth_and_time_are_in_fio_s_form() {
        let r = two_streams();
        let doc: Value =
            serde_json::from_str(&to_fio_json(&r, FioJobs::Group, &[99.0, 99.9, 99.99])).unwrap();
        let p = doc["jobs"][0]["read"]["clat_ns"]["percentile"]
            .as_object()
            .unwrap();
        let keys: Vec<&str> = p.keys().map(String::as_str).collect();
        assert_eq!(keys, ["99.000000", "99.900000", "99.990000"]);
        // The fixture's start, 2026-11-22T16:35:45Z, was a Sunday.
        assert_eq!(doc["time"], "Sun Nov 22 16:35:45 2026");
        assert_eq!(doc["timestamp_ms"], 1_795_365_345_000u64);
        assert_eq!(ctime("1970-01-01T00:00:00Z", 0), "Thu Jan  1 00:00:00 1970");
        let levels = |qd| {
            let v = depth_level(qd);
            v.as_object()
                .unwrap()
                .iter()
                .filter(|(_, x)| x.as_f64() == Some(100.0))
                .map(|(k, _)| k.clone())
                .collect::<Vec<_>>()
        };
        // fio's bands by their lowest depth: 3 is in 2's, 32 and 63 in 32's.
        assert_eq!(levels(1), ["1"]);
        assert_eq!(levels(3), ["2"]);
        assert_eq!(levels(32), ["32"]);
        assert_eq!(levels(63), ["32"]);
        assert_eq!(levels(64), [">=64"]);
        assert_eq!(doc["jobs"][0]["latency_depth"], r.job.qd);
        assert_eq!(doc["jobs"][0]["latency_percentile"], 100.0);
    }

    #[test]
    fn epoch_seconds_of_rfc3339() {
        assert_eq!(started_secs("1970-01-01T00:00:00Z"), 0);
        assert_eq!(started_secs("2026-11-25T03:41:11Z"), 1_795_578_071);
        assert_eq!(started_secs("garbage"), 0);
    }
}
