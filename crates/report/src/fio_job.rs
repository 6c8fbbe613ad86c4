//! `dbio run … --as-fio`: the fio job file that runs the same workload as a validated job, for
//! a side-by-side check with fio. What fio cannot do the same way is refused, not
//! approximated in silence; a difference fio can live with is a comment in the file.

use crate::error::ReportError;
use dbio_model::{Arrivals, DataKind, EngineKind, JobSpec, Rw, Skew, StopAfter, SyncMode};
use std::fmt::Write;

/// fio's block-size option for the job: `("bs", "8k")` or `("bssplit", "8k/70:64k/30")`.
pub fn bs_option(j: &JobSpec) -> (&'static str, String) {
    if let [one] = j.bs.as_slice() {
        return ("bs", size(one.size));
    }
    let total: u32 = j.bs.iter().map(|b| b.weight).sum();
    let mut pcts: Vec<u32> = j.bs.iter().map(|b| b.weight * 100 / total.max(1)).collect();
    // Whole percents that add up to 100: the remainder goes to the first largest share.
    let short = 100 - pcts.iter().sum::<u32>();
    if let Some(i) = (0..pcts.len()).rev().max_by_key(|&i| pcts[i]) {
        pcts[i] += short;
    }
    let parts: Vec<String> =
        j.bs.iter()
            .zip(pcts)
            .map(|(b, p)| format!("{}/{p}", size(b.size)))
            .collect();
    ("bssplit", parts.join(":"))
}

/// A byte count in fio's binary units (`8k`, `1m`, `10g`), or bytes.
fn size(bytes: u64) -> String {
    for (shift, unit) in [(40, "t"), (30, "g"), (20, "m"), (10, "k")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

/// What fio cannot run the same way: named, with the reason.
fn refuse(j: &JobSpec) -> Result<(), ReportError> {
    let why = if j.engine == EngineKind::Sim {
        "a simulated run (--engine sim) does no I/O, so fio has nothing to run against"
    } else if j.session.is_some() {
        "session mode (--sessions) is dbio's SLOB model with its own log writer; fio has no such job"
    } else if j.verify.is_some() {
        "--verify: fio's verify= checks its own header after its write phase; it has no lost, misdirected or never-written blocks and no journal, so dbio's check cannot be run by fio"
    } else if j.burst.is_some() {
        "--burst has no fio counterpart (fio's thinktime pauses after I/Os, not in time windows)"
    } else if matches!(j.data, DataKind::Reducible(r) if r.dedupe > 1.0 && r.compress > 1.0) {
        "--data with both dedupe and compression: fio's dedupe_percentage and buffer_compress_percentage do not combine to dbio's ratios"
    } else {
        return Ok(());
    };
    Err(ReportError::NotForFio(why))
}

/// fio's name of an access pattern (`rw=`).
pub(crate) fn fio_rw(rw: Rw) -> &'static str {
    match rw {
        Rw::ReadWrite => "rw",
        other => other.name(),
    }
}

/// The fio job file of `j`, or why fio cannot run it the same way.
pub fn to_fio_job(j: &JobSpec) -> Result<String, ReportError> {
    refuse(j)?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "; fio job file written by dbio run --as-fio: the same workload as dbio's job"
    );
    let _ = writeln!(s, "; run: fio THIS_FILE --output-format=json+");
    let _ = writeln!(s, "{}", latency_note(j));
    let _ = writeln!(s, "[global]");
    let mut kv = |k: &str, v: String| {
        let _ = writeln!(s, "{k}={v}");
    };
    kv("rw", fio_rw(j.rw).into());
    if j.rw.is_mixed() {
        kv("rwmixread", j.read_pct.to_string());
    }
    let (key, bs) = bs_option(j);
    kv(key, bs);
    if j.bs.len() > 1 || j.align != j.bs[0].size {
        kv("blockalign", size(j.align));
    }
    // fio's io_uring engine cannot hand its submissions to offload threads (`--rate`).
    let offload = j.rate.is_some() && j.engine == EngineKind::Uring;
    kv(
        "ioengine",
        match j.engine {
            EngineKind::Psync => "psync",
            EngineKind::Null => "null",
            _ if offload && j.direct => "libaio",
            _ if offload => "psync",
            _ => "io_uring",
        }
        .into(),
    );
    kv("iodepth", j.qd.to_string());
    kv("numjobs", j.threads.to_string());
    kv("thread", "1".into());
    kv("group_reporting", "1".into());
    kv("direct", u8::from(j.direct).to_string());
    if !j.direct {
        // fio drops a buffered job's pages at its start and each time it wraps round.
        kv("invalidate", u8::from(j.invalidate).to_string());
    }
    if j.engine == EngineKind::Uring && !offload {
        kv("fixedbufs", "1".into());
        kv("registerfiles", "1".into());
        if j.hipri {
            kv("hipri", "1".into());
        }
        if j.sqpoll {
            kv("sqthread_poll", "1".into());
        }
    }
    kv("randrepeat", "1".into());
    kv("randseed", j.seed.to_string());
    if j.rw.is_random() {
        kv("norandommap", "1".into());
    }
    let mut body = s;
    if offload {
        let _ = writeln!(
            body,
            "; fio cannot offload io_uring's submissions: {} stands in for dbio's io_uring",
            if j.direct { "libaio" } else { "psync" }
        );
    }
    region(j, &mut body);
    amount(j, &mut body);
    workload_extras(j, &mut body);
    let _ = writeln!(body, "\n[dbio]");
    Ok(body)
}

/// The header line saying which of fio's latencies is dbio's.
fn latency_note(j: &JobSpec) -> &'static str {
    if j.rate.is_some() {
        "; with --rate dbio's latency runs from each I/O's scheduled start; fio's closest is its total latency (lat, not clat), whose clock starts when an I/O slot is free: on a device that cannot keep the rate, fio's figure is the lower"
    } else {
        "; fio's clat is submission to completion, as dbio's latency"
    }
}

/// Targets and the region of each.
fn region(j: &JobSpec, s: &mut String) {
    let names: Vec<String> = j.targets.iter().map(|t| t.replace(':', "\\:")).collect();
    let _ = writeln!(s, "filename={}", names.join(":"));
    if j.region.offset > 0 {
        let _ = writeln!(s, "offset={}", size(j.region.offset));
    }
    let region = j
        .region
        .range
        .or(j.file_size.map(|f| f.saturating_sub(j.region.offset)));
    match region {
        Some(r) => {
            if let (Some(f), Some(_)) = (j.file_size, j.region.range) {
                // fio's filesize would widen the region to the whole file: say it instead.
                let _ = writeln!(
                    s,
                    "; dbio makes the file {} (--size); a file fio makes ends at offset + size",
                    size(f)
                );
            }
            if !j.rw.is_random() && j.threads > 1 {
                // dbio gives each sequential thread its own slice of the region.
                let slice = r / u64::from(j.threads) / j.align * j.align;
                let _ = writeln!(
                    s,
                    "; dbio's sequential threads each walk their own slice of the region"
                );
                let _ = writeln!(s, "offset_increment={}", size(slice));
                let _ = writeln!(s, "size={}", size(slice));
            } else {
                let _ = writeln!(s, "size={}", size(r));
            }
        }
        None => {
            let _ = writeln!(
                s,
                "; the region is the whole target (dbio's default 1 GiB file when it creates one)"
            );
        }
    }
}

/// How long or how much: runtime or counts (fio counts per job clone).
fn amount(j: &JobSpec, s: &mut String) {
    let threads = u64::from(j.threads);
    if j.ramp_secs > 0.0 {
        let _ = writeln!(s, "ramp_time={}", secs(j.ramp_secs));
    }
    match j.stop {
        StopAfter::Seconds(t) => {
            let _ = writeln!(s, "runtime={}", secs(t));
            let _ = writeln!(s, "time_based=1");
        }
        StopAfter::Ops(n) => {
            // fio stops at the end of the region unless io_size allows more.
            let per_job = n.div_ceil(threads);
            let max_bs = j.bs.iter().map(|b| b.size).max().unwrap_or(4096);
            let _ = writeln!(s, "number_ios={per_job}");
            let _ = writeln!(s, "io_size={}", size(per_job * max_bs));
        }
        StopAfter::Bytes(b) => {
            let _ = writeln!(s, "io_size={}", b.div_ceil(threads));
        }
    }
}

fn secs(t: f64) -> String {
    if t.fract() == 0.0 {
        format!("{}s", t as u64)
    } else {
        format!("{}ms", (t * 1000.0).round() as u64)
    }
}

/// Skew, sync, rate, data and steady state.
fn workload_extras(j: &JobSpec, s: &mut String) {
    let mut kv = |k: &str, v: String| {
        let _ = writeln!(s, "{k}={v}");
    };
    match j.skew {
        Skew::Uniform => {}
        Skew::Zipf { theta } => kv("random_distribution", format!("zipf:{theta}")),
        Skew::Pareto { h } => kv("random_distribution", format!("pareto:{h}")),
        Skew::Hotspot { io_pct, region_pct } => kv(
            "random_distribution",
            format!(
                "zoned:{io_pct}/{region_pct}:{}/{}",
                100 - io_pct,
                100 - region_pct
            ),
        ),
    }
    match j.sync {
        SyncMode::None => {}
        SyncMode::Dsync => kv("sync", "dsync".into()),
        SyncMode::Fsync(n) => kv("fsync", n.to_string()),
        SyncMode::Fdatasync(n) => kv("fdatasync", n.to_string()),
    }
    if let Some(rate) = j.rate {
        kv("rate_iops", rate.div_ceil(u64::from(j.threads)).to_string());
        // Submission at the rate whatever the device does, so an I/O that waits for a free
        // slot is late from its scheduled time, as dbio counts it.
        kv("io_submit_mode", "offload".into());
        let process = match j.arrivals {
            Arrivals::Poisson => "poisson",
            _ => "linear",
        };
        kv("rate_process", process.into());
    }
    match &j.data {
        DataKind::Random => kv("refill_buffers", "1".into()),
        DataKind::Zeros => kv("zero_buffers", "1".into()),
        DataKind::Pattern(p) => kv("buffer_pattern", p.clone()),
        DataKind::Reducible(r) if r.dedupe > 1.0 => kv(
            "dedupe_percentage",
            format!("{}", (100.0 - 100.0 / r.dedupe).round()),
        ),
        DataKind::Reducible(r) => {
            kv(
                "buffer_compress_percentage",
                format!("{}", (100.0 - 100.0 / r.compress).round()),
            );
            kv("buffer_compress_chunk", "4k".into());
        }
    }
    if let Some(st) = &j.steady {
        let metric = match (st.metric, st.test) {
            (dbio_model::SteadyMetric::Iops, dbio_model::SteadyTest::Spread) => "iops",
            (dbio_model::SteadyMetric::Iops, dbio_model::SteadyTest::Slope) => "iops_slope",
            (dbio_model::SteadyMetric::Bw, dbio_model::SteadyTest::Spread) => "bw",
            (dbio_model::SteadyMetric::Bw, dbio_model::SteadyTest::Slope) => "bw_slope",
        };
        kv("steadystate", format!("{metric}:{}%", st.limit_pct));
        kv("steadystate_duration", format!("{}s", st.window_secs));
        let _ = writeln!(
            s,
            "; fio ends the job once steady; dbio measures for the duration after it settles"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::BsWeight;

    #[test]
    fn bssplit_shares_add_up_to_100() {
        let mut j = spec();
        j.bs = vec![
            BsWeight {
                size: 8192,
                weight: 1,
            },
            BsWeight {
                size: 65536,
                weight: 1,
            },
            BsWeight {
                size: 262144,
                weight: 1,
            },
        ];
        assert_eq!(
            bs_option(&j),
            ("bssplit", "8k/34:64k/33:256k/33".to_string())
        );
    }

    /// fio drops a buffered job's pages (at its start and each wrap) unless told invalidate=0:
    /// the job says which dbio did; a direct job leaves it to fio's default, which is moot.
    #[test]
    fn a_buffered_job_says_whether_dbio_dropped_the_cache() {
        let line = |direct: bool, invalidate: bool| {
            let mut j = spec();
            (j.direct, j.invalidate) = (direct, invalidate);
            let job = to_fio_job(&j).unwrap();
            job.lines()
                .find(|l| l.starts_with("invalidate="))
                .map(str::to_string)
        };
        assert_eq!(line(false, true).as_deref(), Some("invalidate=1"));
        assert_eq!(line(false, false).as_deref(), Some("invalidate=0"));
        assert_eq!(line(true, false), None);
    }

    /// A plain job for tests.
    fn spec() -> JobSpec {
        serde_json::from_value(serde_json::json!({
            "profile": "t", "targets": ["/tmp/t"], "file_size": null, "rw": "randread",
            "read_pct": 100, "bs": [{"size": 4096, "weight": 1}], "align": 4096, "qd": 8,
            "threads": 1, "ramp_secs": 0.0, "stop": {"seconds": 1.0},
            "region": {"offset": 0, "range": null}, "skew": {"kind": "uniform"},
            "sync": {"mode": "none"}, "rate": null, "engine": "uring", "direct": true,
            "hipri": false, "sqpoll": false, "data": "random", "destroy_data": false, "seed": 1
        }))
        .unwrap()
    }
}
