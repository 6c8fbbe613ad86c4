//! `dbio compare` as text: what differs in the conditions first, then each direction's
//! metrics side by side with B/A, the spread and a verdict where the difference is real.

use dbio_analyze::compare::{differences, direction, per_device};
use dbio_model::RunResult;
use std::fmt::Write;

/// Renders the comparison of `b` against `a`; `names` are how the user named them, and
/// `devices` the device counts behind A and B (`--devices A=75,B=6`).
pub fn compare(
    a: &RunResult,
    b: &RunResult,
    names: (&str, &str),
    devices: Option<(f64, f64)>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "A = {} ({}, {}), B = {} ({}, {})",
        names.0, a.job.profile, a.started_at, names.1, b.job.profile, b.started_at
    );
    let diffs = differences(a, b);
    if diffs.is_empty() {
        let _ = writeln!(
            s,
            "conditions: the same workload, engine, data, host and targets"
        );
    } else {
        let _ = writeln!(
            s,
            "conditions that differ (A → B): read these before the figures"
        );
        for d in &diffs {
            let _ = writeln!(s, "  {}: {} → {}", d.key, d.a, d.b);
        }
    }
    for dir in ["read", "write"] {
        let metrics = direction(dir, a, b);
        if metrics.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "\n{dir:<10} {:>12} {:>12} {:>8} {:>8}  verdict",
            "A", "B", "B/A", "spread"
        );
        for m in &metrics {
            let ratio = m.ratio.map_or("-".into(), |r| format!("{r:.3}"));
            let spread = m
                .spread
                .map_or("-".into(), |x| format!("{:.1} %", x * 100.0));
            let _ = writeln!(
                s,
                "{:<10} {:>12.1} {:>12.1} {:>8} {:>8}  {}",
                m.name,
                m.a,
                m.b,
                ratio,
                spread,
                m.verdict.unwrap_or("")
            );
        }
        if let (Some((na, nb)), Some(r)) = (devices, metrics[0].ratio) {
            let _ = writeln!(
                s,
                "{dir} IOPS per device ({na} behind A, {nb} behind B): B does {:.2}× what A does per device",
                per_device(r, na, nb)
            );
        }
    }
    let _ = writeln!(
        s,
        "\nA verdict is given only where B/A lies outside 1 ± the spread of the two runs' per-second series."
    );
    s
}
