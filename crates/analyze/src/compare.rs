//! Comparing runs: what differs in their settings (so nobody compares apples with oranges
//! unknowingly), each metric's ratio B/A, and whether a difference exceeds the spread the
//! runs' own per-second time series show.

use dbio_model::{DirStats, RunResult, TimePoint};
use serde_json::Value;

/// A setting that differs between two runs: its path in the result and both values.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub key: String,
    pub a: String,
    pub b: String,
}

/// Result fields that describe the conditions of a run (not what it measured).
const CONDITIONS: [&str; 5] = ["job", "host", "targets", "engine", "data"];
/// Fields that differ between any two runs and say nothing about their conditions.
const IGNORED: [&str; 3] = ["job.seed", "host.memory_bytes", "data.prefill"];

fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, v)| flatten(&format!("{prefix}.{k}"), v, out)),
        Value::Array(a) if a.iter().all(|x| !x.is_object()) => {
            out.push((prefix.into(), v.to_string()))
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, v)| flatten(&format!("{prefix}[{i}]"), v, out)),
        Value::String(s) => out.push((prefix.into(), s.clone())),
        other => out.push((prefix.into(), other.to_string())),
    }
}

/// The workload, host, target, engine and data settings in which `a` and `b` differ.
pub fn differences(a: &RunResult, b: &RunResult) -> Vec<Difference> {
    let conditions = |r: &RunResult| {
        let v = serde_json::to_value(r).expect("a result serialises");
        let mut out = Vec::new();
        for k in CONDITIONS {
            flatten(k, &v[k], &mut out);
        }
        out.retain(|(k, _)| !IGNORED.iter().any(|i| k.starts_with(i)));
        out
    };
    let (ca, cb) = (conditions(a), conditions(b));
    let mut keys: Vec<&String> = ca.iter().chain(&cb).map(|(k, _)| k).collect();
    keys.sort();
    keys.dedup();
    let get = |c: &[(String, String)], k: &str| {
        c.iter()
            .find(|(x, _)| x == k)
            .map_or("(none)".to_string(), |(_, v)| v.clone())
    };
    keys.into_iter()
        .filter_map(|k| {
            let (va, vb) = (get(&ca, k), get(&cb, k));
            (va != vb).then(|| Difference {
                key: k.clone(),
                a: va,
                b: vb,
            })
        })
        .collect()
}

/// Relative spread (standard deviation / mean) of a per-second series; None with fewer than
/// two whole seconds or a zero mean.
pub fn spread(samples: &[f64]) -> Option<f64> {
    if samples.len() < 2 {
        return None;
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    if mean <= 0.0 {
        return None;
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some(var.sqrt() / mean)
}

/// The per-second samples of a run's series, whole seconds only (the last partial second of
/// a run is left out).
pub fn series(ts: &[TimePoint], f: fn(&TimePoint) -> f64) -> Vec<f64> {
    let mut prev = 0.0;
    ts.iter()
        .filter(|p| {
            let whole = p.t - prev > 0.999;
            prev = p.t;
            whole
        })
        .map(f)
        .collect()
}

/// One metric of two runs: both values, the ratio B/A, and the verdict when the difference
/// is larger than the runs' own spread.
#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub a: f64,
    pub b: f64,
    /// B / A (None when A is zero).
    pub ratio: Option<f64>,
    /// Relative spread the two runs' time series show for this metric, combined:
    /// sqrt(sA² + sB²); a ratio within 1 ± this is not called a difference.
    pub spread: Option<f64>,
    /// "B higher", "B lower", or None when within the spread (or no spread is known).
    pub verdict: Option<&'static str>,
}

impl Metric {
    /// Builds a metric; `higher_is_better` picks the wording of the verdict.
    pub fn new(
        name: &str,
        a: f64,
        b: f64,
        sa: Option<f64>,
        sb: Option<f64>,
        higher_is_better: bool,
    ) -> Self {
        let ratio = (a > 0.0).then(|| b / a);
        let spread = match (sa, sb) {
            (Some(x), Some(y)) => Some((x * x + y * y).sqrt()),
            _ => None,
        };
        let verdict = match (ratio, spread) {
            (Some(r), Some(s)) if (r - 1.0).abs() > s => Some(match (r > 1.0, higher_is_better) {
                (true, true) | (false, false) => "B better",
                _ => "B worse",
            }),
            _ => None,
        };
        Metric {
            name: name.into(),
            a,
            b,
            ratio,
            spread,
            verdict,
        }
    }
}

/// The metrics of one direction ("read" or "write") of two runs.
pub fn direction(dir: &str, a: &RunResult, b: &RunResult) -> Vec<Metric> {
    let pick = |r: &RunResult| -> Option<DirStats> {
        if dir == "read" {
            r.read.clone()
        } else {
            r.write.clone()
        }
    };
    let (Some(da), Some(db)) = (pick(a), pick(b)) else {
        return Vec::new();
    };
    let iops_series = |r: &RunResult| {
        let f: fn(&TimePoint) -> f64 = if dir == "read" {
            |p| p.read_iops
        } else {
            |p| p.write_iops
        };
        spread(&series(&r.timeseries, f))
    };
    let mb_series = |r: &RunResult| spread(&series(&r.timeseries, |p| p.mb_s));
    let p99_series = |r: &RunResult| spread(&series(&r.timeseries, |p| p.p99_us));
    let (ia, ib) = (iops_series(a), iops_series(b));
    let (la, lb) = (p99_series(a), p99_series(b));
    let us = |ns: u64| ns as f64 / 1000.0;
    let (sa, sb) = (&da.latency_ns, &db.latency_ns);
    vec![
        Metric::new("IOPS", da.iops, db.iops, ia, ib, true),
        Metric::new("MB/s", da.mb_s, db.mb_s, mb_series(a), mb_series(b), true),
        Metric::new("mean µs", sa.mean / 1000.0, sb.mean / 1000.0, la, lb, false),
        Metric::new("p50 µs", us(sa.p50), us(sb.p50), la, lb, false),
        Metric::new("p99 µs", us(sa.p99), us(sb.p99), la, lb, false),
        Metric::new("p99.9 µs", us(sa.p99_9), us(sb.p99_9), la, lb, false),
    ]
}

/// Seed 002's per-device efficiency: with `na` devices behind A and `nb` behind B, B's
/// performance per device relative to A's is (na / nb) × (B / A).
pub fn per_device(ratio: f64, na: f64, nb: f64) -> f64 {
    na / nb * ratio
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_and_verdicts_by_hand() {
        // mean 100, sample standard deviation sqrt((4+0+4)/2) = 2: 2 %.
        assert!((spread(&[98.0, 100.0, 102.0]).unwrap() - 0.02).abs() < 1e-12);
        assert_eq!(spread(&[5.0]), None);
        // Spreads 3 % and 4 % combine to 5 %: +4 % is noise, +6 % is a difference.
        let m = Metric::new("IOPS", 100.0, 104.0, Some(0.03), Some(0.04), true);
        assert_eq!(
            (m.verdict, m.spread.map(|s| (s * 1e9).round() / 1e9)),
            (None, Some(0.05))
        );
        let m = Metric::new("IOPS", 100.0, 106.0, Some(0.03), Some(0.04), true);
        assert_eq!(m.verdict, Some("B better"));
        let m = Metric::new("p99 µs", 100.0, 106.0, Some(0.03), Some(0.04), false);
        assert_eq!(m.verdict, Some("B worse"));
        // Seed 002: 75 spinning disks against 6 flash drives at 1.2× the IOPS is 15× per device.
        assert!((per_device(1.2, 75.0, 6.0) - 15.0).abs() < 1e-12);
    }
}
