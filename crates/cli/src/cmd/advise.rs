//! `dbio advise`: checks the flags, gets the counts (live snapshots or exports), has
//! dbio-analyze rank and place the objects, then prints, writes and stores the advice.

use crate::advise_args::AdviseArgs;
use crate::advise_source::{gather, read, Gathered, Outcome};
use crate::exit::Exit;
use crate::history::{self, find, lookup_inputs};
use crate::output::{check_outputs, emit_json, print_out, write_atomic_with, write_file_atomic};
use dbio_analyze::advise::devices::Device;
use dbio_analyze::advise::{advise, Latency, Options};
use dbio_model::advise::{AdviseResult, Placement, Skew, SkewPoint, SourceInfo};
use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::units::{parse_duration, parse_latency, parse_size};
use dbio_model::RunResult;
use std::time::Duration;

/// The checked flags.
pub(crate) struct Plan {
    budget: Option<u64>,
    flash_run: Option<String>,
    flash_ms: f64,
    io_wait: Option<f64>,
    interval: Duration,
}

/// Runs `dbio advise`.
pub fn run(a: AdviseArgs) -> Exit {
    if a.queries {
        print_out(dbio_db::queries::QUERIES);
        return Exit::Ok;
    }
    let fail = |m: String| Exit::usage(format!("dbio advise: {m}"));
    let plan = match plan(&a) {
        Ok(p) => p,
        Err(m) => return fail(m),
    };
    let runs: Vec<&str> = plan
        .flash_run
        .iter()
        .chain(a.current.iter())
        .map(String::as_str)
        .collect();
    let mut inputs = a.exports.clone();
    inputs.extend(a.since.iter().chain(a.sizes.iter()).cloned());
    inputs.extend(lookup_inputs(&runs, a.store.db.as_deref()));
    inputs.extend(history::stored_in(&a.store));
    let outs = [
        ("--json", a.json.as_deref()),
        ("--html", a.html.as_deref()),
        ("--snapshot", a.snapshot.as_deref()),
    ];
    if let Err(m) = check_outputs(&outs, &inputs) {
        return fail(m);
    }
    let store = match (a.snapshot.is_some(), history::store_unless(&a.store)) {
        (true, _) => None,
        (false, Ok(s)) => s,
        (false, Err(m)) => return fail(m),
    };
    let latency = match latency(&a, &plan) {
        Ok(l) => l,
        Err(m) => return fail(m),
    };
    let sizes = match a.sizes.as_deref().map(|f| {
        read(f, |head| dbio_db::sizes::check_start(head, f))
            .map_err(|e| e.1)
            .and_then(|t| dbio_db::sizes::parse(&t, f))
    }) {
        Some(Err(m)) => return fail(m),
        Some(Ok(s)) => Some(s),
        None => None,
    };
    let mut g = match gather(&a, plan.interval) {
        Ok(Outcome::Saved(msg)) => {
            if !a.quiet {
                eprintln!("dbio advise: {msg}");
            }
            return Exit::Ok;
        }
        Ok(Outcome::Counts(g)) => g,
        Err((code, m)) => return code.with(format!("dbio advise: {m}")),
    };
    if let Some(s) = &sizes {
        let missing = dbio_db::sizes::apply(&mut g.counts.objects, s);
        if !missing.is_empty() {
            g.counts.notes.push(format!(
                "{} object(s) have no size in {}: {}",
                missing.len(),
                a.sizes.as_deref().unwrap_or(""),
                missing.join(", ")
            ));
        }
    }
    if g.counts.objects.iter().all(|o| o.ios() == 0) {
        let secs = if g.counts.secs > 0.0 {
            format!(" ({:.0} s)", g.counts.secs)
        } else {
            String::new()
        };
        return Exit::Failure.with(format!(
            "dbio advise: no I/O in the interval{secs} of {}: nothing to rank; run the workload during the interval, or make it longer",
            g.name
        ));
    }
    let interrupted = g.interrupted;
    let r = analyse(&plan, latency, g);
    finish(&a, &r, store.as_ref(), interrupted)
}

/// The flags checked, before anything is read or connected to.
pub(crate) fn plan(a: &AdviseArgs) -> Result<Plan, String> {
    let sources =
        a.url.is_some() as usize + a.diskstats as usize + (!a.exports.is_empty()) as usize;
    if sources != 1 {
        return Err("give one source: --url URL, --diskstats, or one or two export files (see dbio advise --help)".into());
    }
    if a.exports.len() > 2 {
        return Err(format!("{} exports given: give one (counts since the server started) or two (before and after)", a.exports.len()));
    }
    let live = a.exports.is_empty();
    if !live && (a.interval.is_some() || a.snapshot.is_some() || a.since.is_some()) {
        return Err("--interval, --snapshot and --since are for live sources (--url, --diskstats); two exports give the difference".into());
    }
    if a.snapshot.as_deref() == Some("-") {
        return Err("--snapshot needs a file name (it is read again with --since), e.g. --snapshot before.json".into());
    }
    if a.partitions && a.url.is_some() {
        return Err("--partitions is for /proc/diskstats, not a database".into());
    }
    let interval = match &a.interval {
        Some(v) => match parse_duration(v) {
            Ok(d) if d >= Duration::from_secs(1) && d <= Duration::from_secs(7 * 86400) => d,
            _ => {
                return Err(format!(
                    "--interval {v}: give a time from 1s to 7d, e.g. 60s or 5m"
                ))
            }
        },
        None => Duration::from_secs(60),
    };
    let (mut budget, mut flash_run) = (None, None);
    for v in &a.flash {
        let is_size =
            v.chars().any(|c| c.is_ascii_alphabetic()) && !std::path::Path::new(v).exists();
        // Run ids start at 1: a zero is a budget of nothing, whatever else it could name.
        let zero = !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.');
        match parse_size(v) {
            Ok(0) if is_size || zero => {
                return Err(format!(
                    "--flash {v}: give a budget above zero, e.g. 500GiB"
                ))
            }
            Ok(b) if is_size && budget.is_none() => budget = Some(b),
            Ok(_) if is_size => {
                return Err(
                    "--flash: two budgets given; give one size (and at most one measured run)"
                        .into(),
                )
            }
            _ if flash_run.is_none() => flash_run = Some(v.clone()),
            _ => return Err(
                "--flash: two runs given; give one measured flash device (and at most one size)"
                    .into(),
            ),
        }
    }
    if a.current.is_some() && flash_run.is_none() {
        return Err(
            "--current RUN needs --flash RUN: the two measured devices give the latency ratio"
                .into(),
        );
    }
    if a.flash_latency.is_some() && flash_run.is_some() {
        return Err("--flash-latency is the assumption used without a measured flash device; give one or the other".into());
    }
    let flash_ms = match &a.flash_latency {
        Some(v) => match parse_latency(v) {
            Ok(d) if !d.is_zero() && d <= Duration::from_secs(10) => d.as_secs_f64() * 1000.0,
            _ => {
                return Err(format!(
                "--flash-latency {v}: give a latency above zero with its unit, e.g. 200us or 0.5ms"
            ))
            }
        },
        None => 0.2,
    };
    let io_wait = a.io_wait_share.as_deref().map(share).transpose()?;
    Ok(Plan {
        budget,
        flash_run,
        flash_ms,
        io_wait,
        interval,
    })
}

/// "0.4" or "40%" as a share in (0, 1].
pub(crate) fn share(v: &str) -> Result<f64, String> {
    let t = v.trim();
    let x = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => t.parse::<f64>(),
    };
    match x {
        Ok(p) if p > 0.0 && p <= 1.0 => Ok(p),
        _ => Err(format!(
            "--io-wait-share {v}: give a share of the time above 0 and at most 1, e.g. 0.4 or 40%"
        )),
    }
}

/// The latency model: measured devices from stored runs, or the assumed flash latency.
fn latency(a: &AdviseArgs, p: &Plan) -> Result<Latency, String> {
    let Some(flash) = &p.flash_run else {
        return Ok(Latency::Assumed {
            flash_ms: p.flash_ms,
        });
    };
    let db = a.store.db.as_deref();
    Ok(Latency::Measured {
        flash: device(db, flash, "--flash")?,
        current: a
            .current
            .as_deref()
            .map(|c| device(db, c, "--current"))
            .transpose()?,
    })
}

/// A measured device from a stored run, sweep or suite (or a JSON file of one).
fn device(db: Option<&str>, name: &str, flag: &str) -> Result<Device, String> {
    let found = find(db, name).map_err(|m| format!("{flag} {name}: {m}"))?;
    let runs: Vec<RunResult> = if let Ok(r) = serde_json::from_str::<RunResult>(&found.json) {
        vec![r]
    } else if let Ok(s) = serde_json::from_str::<SweepResult>(&found.json) {
        s.steps
    } else if let Ok(s) = serde_json::from_str::<SuiteResult>(&found.json) {
        let sweeps = [s.oltp_read, s.log, s.dss]
            .into_iter()
            .flatten()
            .flat_map(|w| w.steps);
        sweeps.chain(s.oltp_at_knee).chain(s.tempdb).collect()
    } else {
        return Err(format!(
            "{flag} {name}: not a run, sweep or suite result; give one measured on the device"
        ));
    };
    let refs: Vec<&RunResult> = runs.iter().collect();
    Device::from_runs(name, &refs).map_err(|m| format!("{flag} {m}"))
}

/// The analysis of the gathered counts.
fn analyse(p: &Plan, latency: Latency, g: Gathered) -> AdviseResult {
    let mut notes = g.counts.notes.clone();
    if let Some(secs) = g.interrupted {
        notes.push(format!("interrupted: the second snapshot was taken after {secs:.1} s instead of the full interval"));
    }
    let own = g.counts.io_wait.filter(|w| w.busy_ms > 0.0).map(|w| {
        (
            (w.io_ms / w.busy_ms).clamp(0.0, 1.0),
            "the database's own figure: I/O time / active time".to_string(),
        )
    });
    let io_wait = p
        .io_wait
        .map(|x| (x, "--io-wait-share".to_string()))
        .or(own);
    let o = Options {
        budget: p.budget,
        latency,
        io_wait_share: io_wait,
    };
    let source = SourceInfo {
        system: g.system.clone(),
        name: g.name.clone(),
        interval_secs: g.counts.secs,
        since_start: g.counts.since_start,
    };
    let made_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    advise(&g.counts.objects, source, notes, made_at, &o)
}

/// Prints, writes and stores the advice.
fn finish(
    a: &AdviseArgs,
    r: &AdviseResult,
    store: Option<&dbio_store::Store>,
    interrupted: Option<f64>,
) -> Exit {
    let to_json = dbio_report::json::to_json::<AdviseResult>;
    // The whole result as a string only for stdout or a history that keeps it whole: of
    // 100,000 objects it is about 100 MB, and a --json file is written as it is made.
    let kept = store.map(|_| kept(r, KEPT));
    let json = (a.json.as_deref() == Some("-") || matches!(kept, Some(None))).then(|| to_json(r));
    let summary = dbio_report::advise::summary(r, a.top);
    if let (Some(store), Some(kept)) = (store, &kept) {
        let stored = kept.as_ref().map(to_json);
        let stored = stored.as_deref().or(json.as_deref()).unwrap_or_default();
        history::keep(
            store,
            &entry(r, stored, &summary, a.store.label.as_deref()),
            a.quiet,
            "dbio advise",
        );
    }
    if let Some(path) = a.html.as_deref() {
        if let Err(e) = write_file_atomic(path, dbio_report::html::advise::page(r).as_bytes()) {
            return Exit::Failure.with(format!("dbio advise: cannot write {path}: {e}"));
        }
    }
    if let Some(path) = a.json.as_deref() {
        let written = match &json {
            Some(json) => emit_json(path, json),
            None => write_atomic_with(path, |w| {
                serde_json::to_writer_pretty(&mut *w, r)?;
                std::io::Write::write_all(w, b"\n")
            }),
        };
        if let Err(e) = written {
            return Exit::Failure.with(format!("dbio advise: cannot write {path}: {e}"));
        }
    }
    if !a.quiet {
        if a.json.as_deref() == Some("-") {
            eprint!("{summary}");
        } else {
            print_out(&summary);
        }
    }
    if interrupted.is_some() {
        Exit::Interrupted
    } else {
        Exit::Ok
    }
}

/// Objects, list entries and skew points the history keeps of one advice: the text and
/// HTML show fewer (the HTML 500 rows), and 100,000 objects made 103 MB of JSON per run.
const KEPT: usize = 1000;

/// The advice as the history keeps it when it has more than `keep` objects, list entries
/// or skew points (None when it has not): the first `keep` of each, the skew curve
/// through `keep` + 1 of its points, and a note saying so; totals, skew point and gain are
/// of the whole estate, and the summary is stored as printed.
fn kept(r: &AdviseResult, keep: usize) -> Option<AdviseResult> {
    let p = r.placement.as_ref();
    let lists = p.map_or(0, |p| p.to_move.len().max(p.to_leave.len()));
    let points = r.skew.as_ref().map_or(0, |k| k.points.len());
    if r.objects.len().max(lists) <= keep && points <= keep + 1 {
        return None;
    }
    let mut k = AdviseResult {
        schema: r.schema.clone(),
        dbio_version: r.dbio_version.clone(),
        made_at: r.made_at.clone(),
        source: r.source.clone(),
        notes: r.notes.clone(),
        ranked_by: r.ranked_by.clone(),
        totals: r.totals.clone(),
        objects: r.objects.iter().take(keep).cloned().collect(),
        skew: r.skew.as_ref().map(|s| Skew {
            points: through(&s.points, keep),
            sentence: s.sentence.clone(),
            ..*s
        }),
        placement: p.map(|p| Placement {
            to_move: p.to_move.iter().take(keep).cloned().collect(),
            to_leave: p.to_leave.iter().take(keep).cloned().collect(),
            method: p.method.clone(),
            gain: p.gain.clone(),
            ..*p
        }),
    };
    k.notes.push(format!(
        "the history keeps the first {keep} of the {} objects (and of each list) and the skew curve through {} points; totals, skew and gain are of all; write --json FILE for every object",
        r.objects.len(),
        keep + 1
    ));
    Some(k)
}

/// `keep` + 1 points of a curve, evenly spaced, its first and last among them.
fn through(points: &[SkewPoint], keep: usize) -> Vec<SkewPoint> {
    let n = points.len();
    if n <= keep + 1 {
        return points.to_vec();
    }
    (0..=keep).map(|i| points[i * (n - 1) / keep]).collect()
}

/// The history entry: I/O rate and MB/s over the interval as its headline.
fn entry(r: &AdviseResult, json: &str, summary: &str, label: Option<&str>) -> dbio_store::NewEntry {
    let secs = r.source.interval_secs;
    let per_sec = |v: f64| if secs > 0.0 { v / secs } else { 0.0 };
    let t = &r.totals;
    dbio_store::NewEntry {
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
