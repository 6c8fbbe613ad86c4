//! The scorecard of an assessment: each part's deciding figure against its threshold.

use crate::slo::{latency, Dir};
use dbio_model::suite::{Score, SuiteResult};
use dbio_model::RunResult;

fn p99_us(r: &RunResult, dir: Dir) -> Option<f64> {
    let h = latency(r, dir);
    (!h.is_empty()).then(|| h.value_at_quantile(0.99) as f64 / 1000.0)
}

fn score(
    check: &str,
    value: Option<f64>,
    unit: &str,
    limit: f64,
    at_most: bool,
    detail: String,
) -> Score {
    Score {
        check: check.into(),
        value,
        unit: unit.into(),
        limit,
        at_most,
        pass: value.map(|v| if at_most { v <= limit } else { v >= limit }),
        detail,
    }
}

/// The scorecard of the parts of `s` that ran, against `s.thresholds`.
pub fn scorecard(s: &SuiteResult) -> Vec<Score> {
    let t = &s.thresholds;
    let mut out = Vec::new();
    if let Some(sw) = &s.oltp_read {
        let knee = sw.knee.as_ref().map(|k| &sw.steps[k.step]);
        let at = sw
            .knee
            .as_ref()
            .map_or("no step met the objective".into(), |k| {
                format!("oltp-read ramp, knee at {}={}", sw.vary, k.value)
            });
        out.push(score(
            "data read p99 at the knee",
            knee.and_then(|r| p99_us(r, Dir::Read)),
            "µs",
            t.data_read_p99_us,
            true,
            at.clone(),
        ));
        out.push(score(
            "IOPS at the knee",
            knee.map(RunResult::total_iops),
            "IOPS",
            t.knee_iops,
            false,
            at,
        ));
    }
    if let Some(r) = &s.oltp_at_knee {
        let at = format!("oltp (70 % reads) at QD {}", r.job.qd);
        out.push(score(
            "OLTP read p99",
            p99_us(r, Dir::Read),
            "µs",
            t.data_read_p99_us,
            true,
            at.clone(),
        ));
        out.push(score(
            "OLTP write p99",
            p99_us(r, Dir::Write),
            "µs",
            t.data_write_p99_us,
            true,
            at,
        ));
    }
    if let Some(sw) = &s.log {
        let one = sw.steps.first();
        out.push(score(
            "log write p99, 1 writer",
            one.and_then(|r| p99_us(r, Dir::Write)),
            "µs",
            t.log_write_p99_us,
            true,
            "log profile: sequential durable writes, one outstanding".into(),
        ));
        if let (Some(v), Some(r)) = (sw.values.last(), sw.steps.last()) {
            out.push(score(
                &format!("log write p99, {v} writers"),
                p99_us(r, Dir::Write),
                "µs",
                t.log_write_p99_us,
                true,
                "the same, several writers at once".into(),
            ));
        }
    }
    if let Some(r) = &s.tempdb {
        out.push(score(
            "TempDB p99",
            p99_us(r, Dir::All),
            "µs",
            t.tempdb_p99_us,
            true,
            "tempdb profile: 64 KiB random, 50 % reads".into(),
        ));
    }
    if let Some(sw) = &s.dss {
        let best = sw
            .steps
            .iter()
            .map(|r| r.read.as_ref().map_or(0.0, |d| d.mb_s))
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
        let at = sw.bandwidth_90.as_ref().map_or(String::new(), |p| {
            format!("; 90 % of it from bs={}", p.value)
        });
        out.push(score(
            "DSS bandwidth, best",
            best,
            "MB/s",
            t.dss_mb_s,
            false,
            format!("dss sequential reads, I/O size sweep{at}"),
        ));
    }
    out
}
