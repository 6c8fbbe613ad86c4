//! How closely a replay kept its trace: the lag of each request behind its time, and each
//! second's achieved I/O against the captured (`dbio replay`'s fidelity).

use crate::worker::ReplayStats;
use dbio_model::histogram::new_histogram;
use dbio_model::replay::{ReplayReport, ReplaySpec};
use dbio_model::{LatencySummary, TimePoint, Warning};

/// How closely the workers of a replay kept its trace, and the warnings that follow.
pub(crate) fn fidelity(
    spec: &ReplaySpec,
    stats: &[&ReplayStats],
    timeseries: &[TimePoint],
) -> (ReplayReport, Vec<Warning>) {
    let mut lag = new_histogram();
    let (mut issued, mut on_time, mut folded, mut discards) = (0, 0, 0, 0);
    for s in stats {
        let _ = lag.add(&s.lag);
        (issued, on_time) = (issued + s.issued, on_time + s.on_time);
        (folded, discards) = (folded + s.folded, discards + s.discards);
    }
    let (within, worst) = per_second(spec, timeseries);
    let r = ReplayReport {
        trace: spec.trace.clone(),
        speed: spec.speed,
        as_fast_as_possible: spec.as_fast_as_possible,
        issued,
        requests: spec.requests,
        discards_skipped: discards,
        folded,
        on_time_pct: if issued > 0 {
            on_time as f64 * 100.0 / issued as f64
        } else {
            0.0
        },
        lag_ns: LatencySummary::of(&lag),
        seconds_within_5_pct: within,
        worst_second_ratio: worst,
    };
    let mut warnings = Vec::new();
    if let Some(e) = stats.iter().find_map(|s| s.error.as_ref()) {
        warnings.push(Warning {
            code: "trace-cut".into(),
            message: format!(
                "the trace could not be read to its end ({e}): the replay stopped there"
            ),
        });
    }
    if !spec.as_fast_as_possible && issued > 0 && r.on_time_pct < 90.0 {
        warnings.push(Warning {
            code: "replay-late".into(),
            message: format!(
                "only {:.1} % of the requests went within 100 µs of their captured time (lag p99 {:.0} µs): the target (or this host) could not keep the trace's load, and latency is measured from each request's scheduled time",
                r.on_time_pct,
                r.lag_ns.p99 as f64 / 1000.0
            ),
        });
    }
    (r, warnings)
}

/// The share of replayed seconds whose reads and writes were within 5 % of the captured
/// ones (at the replay's speed), and the worst such ratio among seconds of 100 or more.
fn per_second(spec: &ReplaySpec, timeseries: &[TimePoint]) -> (f64, Option<f64>) {
    if spec.as_fast_as_possible || timeseries.is_empty() {
        return (0.0, None);
    }
    let mut expected = vec![0u64; timeseries.len()];
    for (c, n) in spec.captured_per_second.iter().enumerate() {
        if let Some(e) = expected.get_mut((c as f64 / spec.speed) as usize) {
            *e += n;
        }
    }
    let (mut compared, mut within, mut worst) = (0, 0, None::<f64>);
    for (p, &e) in timeseries.iter().zip(&expected) {
        // A last part of a second is left out: its rate is not a whole second's count.
        if e == 0 || p.t.fract() > 0.0 {
            continue;
        }
        let got = p.read_iops + p.write_iops;
        compared += 1;
        let ratio = got / e as f64;
        within += u32::from((ratio - 1.0).abs() <= 0.05);
        if e >= 100 {
            worst = Some(worst.map_or(ratio, |w| w.min(ratio)));
        }
    }
    let pct = if compared > 0 {
        f64::from(within) * 100.0 / f64::from(compared)
    } else {
        0.0
    };
    (pct, worst)
}
