//! Several hosts' results of one workload merged into one result: totals from histograms
//! merged bucket for bucket (never averaged percentiles), a row per host, the per-second
//! series lined up by wall clock over the window every host measured, and the spread.

use dbio_model::cluster::{ClockOffset, Cluster, HostDir, HostFailure, HostRow, Spread};
use dbio_model::histogram::new_histogram;
use dbio_model::{
    CpuStats, DirStats, HostFacts, LatencyHistogram, LatencySummary, Outcome, RunResult, TimePoint,
    Warning, RUN_SCHEMA,
};
use hdrhistogram::Histogram;

use crate::error::{AnalyzeError, MergeError};

pub use host::HostResult;

/// What a merge is given besides the results.
#[derive(Default)]
pub struct MergeOptions {
    /// Hosts that produced no result.
    pub failed: Vec<HostFailure>,
    /// Clock offsets measured before a fleet start.
    pub clock_offsets: Vec<ClockOffset>,
    /// Merge different workloads on purpose.
    pub allow_different: bool,
}

/// The name a host's result goes by: its label where it has one, else its host name.
pub fn host_name(label: Option<&str>, r: &RunResult) -> String {
    label.map_or_else(|| r.host.hostname.clone(), str::to_string)
}

/// Merges `hosts` (at least one). Refuses results of a newer schema, already merged ones,
/// different workloads (unless allowed) and windows that do not overlap, naming the host
/// and the field. Hosts with a measured clock offset are placed on the launcher's clock.
pub fn merge(hosts: &[HostResult], opts: MergeOptions) -> Result<RunResult, AnalyzeError> {
    let held = |i: usize, each: &mut dyn FnMut(&TimePoint)| {
        hosts[i].result.timeseries.iter().for_each(each);
        Ok::<(), std::convert::Infallible>(())
    };
    merge_streamed(hosts, opts, held).map_err(|e| match e {
        MergeError::Refused(e) => e,
        MergeError::Seconds(never) => match never {},
    })
}

/// [`merge`] of hosts whose seconds are read one host at a time: `hosts` are their results
/// without them (their `timeseries` is not looked at), `seconds(i, each)` hands host i's
/// points to `each` in order (it is called once a host, from several threads). Memory stays
/// within the hosts' heads, the seconds being read and the window's per-second sums.
pub fn merge_streamed<E, F>(
    hosts: &[HostResult],
    opts: MergeOptions,
    seconds: F,
) -> Result<RunResult, MergeError<E>>
where
    E: std::error::Error + Send,
    F: Fn(usize, &mut dyn FnMut(&TimePoint)) -> Result<(), E> + Sync,
{
    let given: Vec<&RunResult> = hosts.iter().map(|h| &h.result).collect();
    let names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
    given_once(&given, &names)?;
    let placed = on_launcher_clock(hosts, &opts.clock_offsets);
    let hosts = &*placed;
    let first = hosts.first().ok_or(AnalyzeError::NothingToMerge)?;
    let different = checked(hosts, opts.allow_different)?;
    let (start, end) = common_window(hosts)?;
    let secs = (end - start) as f64 / 1e9;
    let earliest = hosts
        .iter()
        .map(|h| h.result.started_unix_ns)
        .min()
        .unwrap_or(start);
    let latest = hosts
        .iter()
        .map(|h| h.result.started_unix_ns)
        .max()
        .unwrap_or(start);
    let skew_ms = (latest - earliest) as f64 / 1e6;
    let warnings = warnings(hosts, different, &opts.failed, skew_ms, secs);
    let results: Vec<&RunResult> = hosts.iter().map(|h| &h.result).collect();
    let rows: Vec<HostRow> = hosts.iter().map(|h| row(h, earliest)).collect();
    let outcome = results
        .iter()
        .map(|r| r.outcome.clone())
        .find(|o| *o != Outcome::Complete)
        .unwrap_or(Outcome::Complete);
    let partial = !opts.failed.is_empty() || results.iter().any(|r| r.partial);
    let spread = spread(hosts);
    let timeseries = series::series(hosts, start, end, seconds).map_err(MergeError::Seconds)?;
    Ok(RunResult {
        schema: RUN_SCHEMA.into(),
        dbio_version: first.result.dbio_version.clone(),
        started_at: rfc3339(start),
        measured_secs: secs,
        partial,
        outcome,
        job: cluster_job(hosts),
        engine: first.result.engine.clone(),
        data: first.result.data.clone(),
        host: cluster_facts(hosts),
        targets: hosts
            .iter()
            .flat_map(|h| {
                h.result.targets.iter().cloned().map(|mut t| {
                    t.path = format!("{}:{}", h.name, t.path);
                    t
                })
            })
            .collect(),
        read: merge_dir(results.iter().map(|r| r.read.as_ref())),
        write: merge_dir(results.iter().map(|r| r.write.as_ref())),
        flush: merge_dir(results.iter().map(|r| r.flush.as_ref())),
        timeseries,
        cpu: merge_cpu(&results),
        threads: Vec::new(),
        warnings,
        session: None,
        steady: None,
        streams: Vec::new(),
        verdict: None,
        started_unix_ns: start,
        label: None,
        cluster: Some(Cluster {
            hosts: rows,
            failed: opts.failed,
            window_start_unix_ns: start,
            window_secs: secs,
            start_skew_ms: skew_ms,
            clock_offsets: opts.clock_offsets,
            different_workloads: different,
            spread,
        }),
        verify: None,
        db: None,
        replay: None,
        device_latency: None,
    })
}

/// Checks each host's result on its own, then that they ran one workload: the first
/// difference is refused unless `allow_different` (then true: the workloads differ).
fn checked(hosts: &[HostResult], allow_different: bool) -> Result<bool, AnalyzeError> {
    for h in hosts {
        check_one(h)?;
    }
    match differing_workload(hosts) {
        Some(difference) if !allow_different => Err(AnalyzeError::DifferentWorkload { difference }),
        different => Ok(different.is_some()),
    }
}

/// The merged result's warnings: the hosts' own grouped by kind, hosts of one seed, the
/// workloads merged on purpose, a start skew over a tenth of the `secs` all measured, and the
/// hosts that gave no result.
fn warnings(
    hosts: &[HostResult],
    different: bool,
    failed: &[HostFailure],
    skew_ms: f64,
    secs: f64,
) -> Vec<Warning> {
    let mut warnings = host_warnings(hosts);
    warnings.extend(one_seed(hosts));
    warnings.extend(different.then(|| different::warning(hosts)).flatten());
    if skew_ms > secs * 1000.0 / 10.0 {
        warnings.push(Warning {
            code: "start-skew".into(),
            message: format!(
                "the hosts started measuring {skew_ms:.0} ms apart, more than a tenth of the {secs:.1} s they all measured: start them together (--hosts, or one --start-at) or measure longer"
            ),
        });
    }
    if !failed.is_empty() {
        let names: Vec<&str> = failed.iter().map(|f| f.name.as_str()).collect();
        warnings.push(Warning {
            code: "hosts-missing".into(),
            message: format!(
                "no result from {}: the totals are of the other hosts only",
                names.join(", ")
            ),
        });
    }
    warnings
}

/// True when `a` and `b` are one run: the same host started measuring at the same
/// nanosecond. A copy of a result, or a result relabelled, is still the run it was.
pub fn same_run(a: &RunResult, b: &RunResult) -> bool {
    a.host.hostname == b.host.hostname && a.started_unix_ns == b.started_unix_ns
}

/// Refuses one run given twice (a copy of a result, or one relabelled), naming both by
/// `names` (the hosts', or the files' they were read from): "LATER: the same run as EARLIER
/// (host H, measuring from T), so its host would count twice; merge each host's result once".
pub fn given_once(results: &[&RunResult], names: &[&str]) -> Result<(), AnalyzeError> {
    for j in 1..results.len() {
        if let Some(i) = (0..j).find(|&i| same_run(results[i], results[j])) {
            let r = results[j];
            return Err(AnalyzeError::GivenTwice {
                later: names[j].to_string(),
                earlier: names[i].to_string(),
                host: r.host.hostname.clone(),
                from: rfc3339(r.started_unix_ns),
            });
        }
    }
    Ok(())
}

/// Refuses a result of another schema, an already merged one, or one without its start.
fn check_one(h: &HostResult) -> Result<(), AnalyzeError> {
    let r = &h.result;
    if r.schema != RUN_SCHEMA {
        return Err(AnalyzeError::Schema {
            host: h.name.clone(),
            schema: r.schema.clone(),
        });
    }
    if r.cluster.is_some() {
        return Err(AnalyzeError::AlreadyMerged {
            host: h.name.clone(),
        });
    }
    if r.started_unix_ns == 0 {
        return Err(AnalyzeError::NoStart {
            host: h.name.clone(),
        });
    }
    Ok(())
}

/// The first difference between the hosts' workloads, as "HOST: job.FIELD is A, not B as on
/// FIRST". What is each host's own is no difference (see `different::workload`).
fn differing_workload(hosts: &[HostResult]) -> Option<String> {
    let base = different::workload(&hosts[0].result.job);
    for h in &hosts[1..] {
        let v = different::workload(&h.result.job);
        let keys = base
            .keys()
            .chain(v.keys().filter(|k| !base.contains_key(*k)));
        if let Some(k) = keys.into_iter().find(|k| base.get(*k) != v.get(*k)) {
            let show =
                |x: Option<&serde_json::Value>| x.map_or("absent".to_string(), |x| x.to_string());
            return Some(format!(
                "{}: job.{k} is {}, not {} as on {}",
                h.name,
                show(v.get(k)),
                show(base.get(k)),
                hosts[0].name
            ));
        }
    }
    None
}

/// `hosts` with each start moved from the host's own clock to the launcher's (its clock minus
/// the offset measured before the start), so that the skew, the common window and the seconds'
/// alignment are not a clock's error. Borrowed as they are when nothing was measured.
fn on_launcher_clock<'a>(
    hosts: &'a [HostResult],
    offsets: &[ClockOffset],
) -> std::borrow::Cow<'a, [HostResult]> {
    let offset_ns = |name: &str| {
        offsets
            .iter()
            .find(|o| o.host == name)
            .map(|o| (o.offset_ms * 1e6).round() as i64)
    };
    if hosts.iter().all(|h| offset_ns(&h.name).unwrap_or(0) == 0) {
        return std::borrow::Cow::Borrowed(hosts);
    }
    let moved = hosts
        .iter()
        .map(|h| {
            let mut h = h.clone();
            let ns = offset_ns(&h.name).unwrap_or(0);
            h.result.started_unix_ns = h.result.started_unix_ns.saturating_add_signed(-ns);
            h
        })
        .collect();
    std::borrow::Cow::Owned(moved)
}

/// The window every host measured, in ns since the epoch; Err names a host outside it.
fn common_window(hosts: &[HostResult]) -> Result<(u64, u64), AnalyzeError> {
    let span = |r: &RunResult| {
        let s = r.started_unix_ns;
        (s, s + (r.measured_secs * 1e9) as u64)
    };
    let (start, late) = hosts
        .iter()
        .map(|h| (span(&h.result).0, h))
        .max_by_key(|(s, _)| *s)
        .expect("at least one host");
    let (end, early) = hosts
        .iter()
        .map(|h| (span(&h.result).1, h))
        .min_by_key(|(e, _)| *e)
        .expect("at least one host");
    if start >= end {
        return Err(AnalyzeError::NoOverlap {
            late: late.name.clone(),
            start: rfc3339(start),
            early: early.name.clone(),
            end: rfc3339(end),
        });
    }
    Ok((start, end))
}

/// RFC 3339 with milliseconds, UTC.
fn rfc3339(ns: u64) -> String {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_nanos(ns);
    humantime::format_rfc3339_millis(t).to_string()
}

/// The sum of the directions that are there, with their histograms merged exactly.
fn merge_dir<'a>(dirs: impl Iterator<Item = Option<&'a DirStats>>) -> Option<DirStats> {
    let mut out: Option<(DirStats, Histogram<u64>)> = None;
    for d in dirs.flatten() {
        let (acc, h) = out.get_or_insert_with(|| {
            (
                DirStats {
                    ios: 0,
                    bytes: 0,
                    iops: 0.0,
                    mb_s: 0.0,
                    mib_s: 0.0,
                    latency_ns: LatencySummary::default(),
                    histogram: LatencyHistogram::default(),
                },
                new_histogram(),
            )
        });
        acc.ios += d.ios;
        acc.bytes += d.bytes;
        acc.iops += d.iops;
        acc.mb_s += d.mb_s;
        acc.mib_s += d.mib_s;
        h.add(d.histogram.to_hdr())
            .expect("histograms of one precision and range add");
    }
    out.map(|(mut d, h)| {
        d.latency_ns = LatencySummary::of(&h);
        d.histogram = LatencyHistogram::from_hdr(&h);
        d
    })
}

fn merge_cpu(results: &[&RunResult]) -> CpuStats {
    let user: f64 = results.iter().map(|r| r.cpu.process_user_s).sum();
    let sys: f64 = results.iter().map(|r| r.cpu.process_sys_s).sum();
    let ios: u64 = results.iter().map(|r| r.total_ios()).sum();
    CpuStats {
        process_user_s: user,
        process_sys_s: sys,
        host_busy_pct: results.iter().map(|r| r.cpu.host_busy_pct).sum::<f64>()
            / results.len() as f64,
        ios_per_cpu_s: if user + sys > 0.0 {
            ios as f64 / (user + sys)
        } else {
            0.0
        },
        workers: results
            .iter()
            .flat_map(|r| r.cpu.workers.iter().cloned())
            .collect(),
        cpus_allowed: results.iter().map(|r| r.cpu.cpus_allowed).sum(),
        per_cpu: Vec::new(),
    }
}

/// The job the cluster ran: the first host's, over the whole region when the hosts took
/// parts of it (each host's seed and part are in its row).
fn cluster_job(hosts: &[HostResult]) -> dbio_model::JobSpec {
    let mut job = hosts[0].result.job.clone();
    if hosts
        .iter()
        .any(|h| h.result.job.region.split != job.region.split)
    {
        job.region.split = None;
    }
    job
}

fn cluster_facts(hosts: &[HostResult]) -> HostFacts {
    let names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
    let first = &hosts[0].result.host;
    HostFacts {
        hostname: format!("{} hosts: {}", hosts.len(), names.join(", ")),
        cpu_model: first.cpu_model.clone(),
        cpus: hosts.iter().map(|h| h.result.host.cpus).sum(),
        memory_bytes: hosts.iter().map(|h| h.result.host.memory_bytes).sum(),
        kernel: first.kernel.clone(),
    }
}

/// The hosts' warnings, one per kind (code) naming the hosts it applies to, in the order
/// first seen; each host's own stay in its row.
fn host_warnings(hosts: &[HostResult]) -> Vec<Warning> {
    let mut kinds: Vec<(&Warning, Vec<&str>, bool)> = Vec::new();
    for h in hosts {
        for w in &h.result.warnings {
            match kinds.iter_mut().find(|(k, _, _)| k.code == w.code) {
                Some((k, names, same)) => {
                    if names.last() != Some(&h.name.as_str()) {
                        names.push(&h.name);
                    }
                    *same &= k.message == w.message;
                }
                None => kinds.push((w, vec![&h.name], true)),
            }
        }
    }
    kinds
        .into_iter()
        .map(|(w, names, same)| {
            let on = if names.len() == hosts.len() && hosts.len() > 1 {
                format!("all {} hosts", hosts.len())
            } else {
                name_list(&names)
            };
            let message = if same || names.len() == 1 {
                format!("{on}: {}", w.message)
            } else {
                format!(
                    "{on}: {} (as on {}; each host's own figures are in its row)",
                    w.message, names[0]
                )
            };
            Warning {
                code: w.code.clone(),
                message,
            }
        })
        .collect()
}

/// A warning naming the hosts that drew their offsets from one seed over one region (runs
/// started with --start-at and the default --seed): on a shared device they touch the same
/// blocks at the same instants.
fn one_seed(hosts: &[HostResult]) -> Option<Warning> {
    let same =
        |a: &RunResult, b: &RunResult| a.job.seed == b.job.seed && a.job.region == b.job.region;
    let (j, first) = hosts
        .iter()
        .enumerate()
        .find(|(j, h)| hosts[j + 1..].iter().any(|o| same(&h.result, &o.result)))?;
    let names: Vec<&str> = hosts[j..]
        .iter()
        .filter(|o| same(&first.result, &o.result))
        .map(|o| o.name.as_str())
        .collect();
    Some(Warning {
        code: "one-seed".into(),
        message: format!(
            "{} drew their offsets from one seed ({}): on a shared device they read and write the same blocks at the same instants, which an array's cache flatters; give each host its own --seed, or its own part with --split-region PART/PARTS",
            name_list(&names),
            first.result.job.seed
        ),
    })
}

/// Up to eight names, then how many more.
fn name_list(names: &[&str]) -> String {
    const SHOWN: usize = 8;
    if names.len() <= SHOWN {
        return names.join(", ");
    }
    format!(
        "{} and {} more hosts",
        names[..SHOWN].join(", "),
        names.len() - SHOWN
    )
}

fn host_dir(d: &Option<DirStats>) -> Option<HostDir> {
    d.as_ref().map(|d| HostDir {
        ios: d.ios,
        iops: d.iops,
        mb_s: d.mb_s,
        p50_us: d.latency_ns.p50 as f64 / 1e3,
        p99_us: d.latency_ns.p99 as f64 / 1e3,
        p99_9_us: d.latency_ns.p99_9 as f64 / 1e3,
    })
}

fn row(h: &HostResult, earliest: u64) -> HostRow {
    let r = &h.result;
    HostRow {
        name: h.name.clone(),
        label: r.label.clone(),
        hostname: r.host.hostname.clone(),
        read: host_dir(&r.read),
        write: host_dir(&r.write),
        cpu_pct: if r.measured_secs > 0.0 {
            (r.cpu.process_user_s + r.cpu.process_sys_s) / r.measured_secs * 100.0
        } else {
            0.0
        },
        verdict: r.verdict.as_ref().map(|v| v.limit.clone()),
        partial: r.partial,
        outcome: match &r.outcome {
            Outcome::Complete => "complete".into(),
            Outcome::Interrupted => "interrupted".into(),
            Outcome::IoError(e) => e.clone(),
        },
        outstanding: Some(crate::verdict::outstanding(r)),
        seed: Some(r.job.seed),
        split: r.job.region.split,
        start_offset_ms: (r.started_unix_ns - earliest) as f64 / 1e6,
        warnings: r.warnings.clone(),
        device_latency: r.device_latency.clone(),
    }
}

/// p99 of a host's reads and writes together, in µs.
fn host_p99_us(r: &RunResult) -> f64 {
    let mut h = new_histogram();
    for d in [&r.read, &r.write].into_iter().flatten() {
        let _ = h.add(d.histogram.to_hdr());
    }
    if h.is_empty() {
        0.0
    } else {
        h.value_at_quantile(0.99) as f64 / 1e3
    }
}

fn spread(hosts: &[HostResult]) -> Spread {
    let iops: Vec<f64> = hosts.iter().map(|h| h.result.total_iops()).collect();
    let mean = iops.iter().sum::<f64>() / iops.len() as f64;
    let (slow_i, slow) = iops
        .iter()
        .copied()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("at least one host");
    let p99s: Vec<f64> = hosts.iter().map(|h| host_p99_us(&h.result)).collect();
    let (worst_i, worst) = p99s
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("at least one host");
    Spread {
        slowest: hosts[slow_i].name.clone(),
        slowest_below_mean_pct: if mean > 0.0 {
            (mean - slow) / mean * 100.0
        } else {
            0.0
        },
        worst_p99: hosts[worst_i].name.clone(),
        worst_p99_us: worst,
    }
}

mod different;
pub mod files;
mod host;
mod series;
mod sums;
#[cfg(test)]
mod tests;
