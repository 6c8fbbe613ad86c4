//! The CSV report: one row per direction of every run and sweep step, for spreadsheets.

use crate::item::Item;
use std::fmt::Write;

/// The header of [`report`].
pub const HEADER: &str = "result,step,value,direction,ios,iops,mb_s,min_us,mean_us,p50_us,p90_us,p99_us,p99_9_us,p99_99_us,max_us,measured_s,started_at";

/// Quotes a field when it holds a comma, a quote or a line break (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// (step, "title: vary=value", run) for each step of a sweep.
fn sweep_rows<'a>(
    s: &'a dbio_model::sweep::SweepResult,
    title: &str,
) -> Vec<(String, String, &'a dbio_model::RunResult)> {
    let prefix = if title.is_empty() {
        String::new()
    } else {
        format!("{title}: ")
    };
    s.steps
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let v = s.values.get(i).cloned().unwrap_or_default();
            (i.to_string(), format!("{prefix}{}={v}", s.vary), r)
        })
        .collect()
}

/// One row per direction (read, write, flush) of each run, or of each step of a sweep
/// (`step` and `value` are empty for a run); latencies in µs from the HDR histogram.
pub fn report(items: &[Item]) -> String {
    let mut o = format!("{HEADER}\n");
    for it in items {
        let steps: Vec<(String, String, &dbio_model::RunResult)> = match &it.result {
            crate::item::Result::Run(r) => vec![(String::new(), String::new(), &**r)],
            crate::item::Result::Sweep(s) => sweep_rows(s, ""),
            crate::item::Result::Suite(s) => crate::item::parts(s)
                .into_iter()
                .flat_map(|p| match p {
                    crate::item::Part::Run(title, r) => vec![(String::new(), title.to_string(), r)],
                    crate::item::Part::Sweep(title, w) => sweep_rows(w, title),
                })
                .collect(),
        };
        for (step, value, r) in steps {
            for (dir, d) in [("read", &r.read), ("write", &r.write), ("flush", &r.flush)] {
                let Some(d) = d else { continue };
                let l = &d.latency_ns;
                let us = |ns: u64| ns as f64 / 1000.0;
                let _ = writeln!(
                    o,
                    "{},{step},{},{dir},{},{:.3},{:.3},{},{:.3},{},{},{},{},{},{},{:.3},{}",
                    field(&it.name),
                    field(&value),
                    d.ios,
                    d.iops,
                    d.mb_s,
                    us(l.min),
                    l.mean / 1000.0,
                    us(l.p50),
                    us(l.p90),
                    us(l.p99),
                    us(l.p99_9),
                    us(l.p99_99),
                    us(l.max),
                    r.measured_secs,
                    field(&r.started_at)
                );
            }
        }
    }
    o
}
