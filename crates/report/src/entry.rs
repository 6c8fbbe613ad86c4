//! The history entry of each kind of result: its JSON and summary as written and printed,
//! with the headline figures (IOPS, MB/s, p99) `dbio history` lists beside them.

use dbio_analyze::slo::{latency, Dir};
use dbio_model::advise::AdviseResult;
use dbio_model::reduce::ReduceResult;
use dbio_model::spill::sweep::SpilledSweep;
use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_store::NewEntry;

/// Read + write IOPS, MB/s and the p99 latency (µs) of all I/Os of a run.
fn headline(r: &RunResult) -> (f64, f64, f64) {
    let p99 = latency(r, Dir::All).value_at_quantile(0.99) as f64 / 1000.0;
    (r.total_iops(), r.total_mb_s(), p99)
}

/// Where a run ran, in one line.
fn targets(r: &RunResult) -> String {
    if r.targets.is_empty() {
        crate::text::place(&r.job)
    } else {
        r.targets
            .iter()
            .map(|t| t.path.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The history entry of a run, with its JSON and summary exactly as written and printed.
pub fn run_entry(r: &RunResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let (iops, mb_s, p99_us) = headline(r);
    NewEntry {
        kind: "run".into(),
        started_at: r.started_at.clone(),
        label: label.map(Into::into),
        profile: r.job.profile.clone(),
        targets: targets(r),
        host: r.host.hostname.clone(),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}

/// The history entry of a sweep: its headline is the knee, else its busiest step.
pub fn sweep_entry(s: &SweepResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let top = headline_step(s).map_or((0.0, 0.0, 0.0), |i| headline(&s.steps[i]));
    sweep_entry_of(s, top, json, summary, label)
}

/// The history entry of a sweep whose steps wait in spill files, as [`sweep_entry`] of the
/// whole sweep; its JSON left out, for [`crate::deliver::keep_streamed`] to write. The
/// headline step is read back for its latency (none if it cannot be: the JSON, which reads
/// every step back, then fails to be stored).
pub fn spilled_sweep_entry(s: &SpilledSweep, summary: &str, label: Option<&str>) -> NewEntry {
    let step = headline_step(&s.outline).and_then(|i| s.steps[i].with(headline).ok());
    sweep_entry_of(&s.outline, step.unwrap_or_default(), "", summary, label)
}

/// The step a sweep's entry shows: the knee, else the step with the most IOPS.
fn headline_step(s: &SweepResult) -> Option<usize> {
    s.knee.as_ref().map(|k| k.step).or_else(|| {
        (0..s.steps.len())
            .max_by(|&a, &b| s.steps[a].total_iops().total_cmp(&s.steps[b].total_iops()))
    })
}

/// A sweep's entry with the headline figures `(iops, mb_s, p99_us)` of its headline step;
/// the rest from its first step (an outline will do).
fn sweep_entry_of(
    s: &SweepResult,
    (iops, mb_s, p99_us): (f64, f64, f64),
    json: &str,
    summary: &str,
    label: Option<&str>,
) -> NewEntry {
    let first = s.steps.first();
    NewEntry {
        kind: "sweep".into(),
        started_at: first.map_or(String::new(), |r| r.started_at.clone()),
        label: label.map(Into::into),
        profile: first.map_or(String::new(), |r| {
            format!("{} (vary {})", r.job.profile, s.vary)
        }),
        targets: first.map_or(String::new(), targets),
        host: first.map_or(String::new(), |r| r.host.hostname.clone()),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}

/// The history entry of an assessment: its headline is the knee of the oltp-read ramp.
pub fn suite_entry(s: &SuiteResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let ramp = s.oltp_read.as_ref();
    let knee = ramp.and_then(|w| w.knee.as_ref().map(|k| &w.steps[k.step]));
    let first = ramp.and_then(|w| w.steps.first());
    let (iops, mb_s, p99_us) = knee.map_or((0.0, 0.0, 0.0), headline);
    NewEntry {
        kind: "suite".into(),
        started_at: first.map_or(String::new(), |r| r.started_at.clone()),
        label: label.map(Into::into),
        profile: if s.quick { "suite --quick" } else { "suite" }.into(),
        targets: first.map_or(String::new(), targets),
        host: first.map_or(String::new(), |r| r.host.hostname.clone()),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}

/// The history entry of an advice: I/O rate and MB/s over the interval as its headline.
pub fn advise_entry(r: &AdviseResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let secs = r.source.interval_secs;
    let per_sec = |v: f64| if secs > 0.0 { v / secs } else { 0.0 };
    let t = &r.totals;
    NewEntry {
        kind: "advise".into(),
        started_at: r.made_at.clone(),
        label: label.map(Into::into),
        profile: format!("advise {}", r.source.system),
        targets: r.source.name.clone(),
        iops: per_sec((t.reads + t.writes) as f64),
        mb_s: per_sec((t.bytes_read + t.bytes_written) as f64) / 1e6,
        json: json.into(),
        summary: summary.into(),
        ..Default::default()
    }
}

/// The history entry of a reduce estimate of `paths`, made at `made_at` (RFC 3339): its
/// headline is the reading speed.
pub struct ReduceEntry<'a> {
    pub paths: &'a [String],
    pub made_at: String,
    pub label: Option<String>,
}

impl<'a> ReduceEntry<'a> {
    /// The entry of an estimate of `paths` made now, under `label`.
    pub fn now(paths: &'a [String], label: Option<&str>) -> Self {
        ReduceEntry {
            paths,
            made_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            label: label.map(str::to_string),
        }
    }

    /// The entry, with the JSON and summary as written and printed.
    pub fn entry(self, r: &ReduceResult, json: &str, summary: &str) -> NewEntry {
        NewEntry {
            kind: "reduce".into(),
            started_at: self.made_at,
            label: self.label,
            profile: "reduce".into(),
            targets: self.paths.join(", "),
            mb_s: if r.elapsed_secs > 0.0 {
                r.bytes_read as f64 / r.elapsed_secs / 1e6
            } else {
                0.0
            },
            json: json.into(),
            summary: summary.into(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduce_entry_made_now_carries_its_paths_label_and_time() {
        let paths = vec!["/a".to_string(), "/b".to_string()];
        let e = ReduceEntry::now(&paths, Some("base"));
        assert_eq!(e.paths, paths.as_slice());
        assert_eq!(e.label.as_deref(), Some("base"));
        // RFC 3339 in whole seconds, UTC: 2026-11-27T04:50:19Z.
        assert_eq!(e.made_at.len(), 20, "{}", e.made_at);
        assert!(e.made_at.ends_with('Z') && e.made_at.as_bytes()[10] == b'T');
        assert!(humantime::parse_rfc3339(&e.made_at).is_ok());
    }
}
