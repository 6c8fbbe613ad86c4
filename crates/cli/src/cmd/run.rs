//! `dbio run`: validate, run, then print and write the result (also when interrupted).

use crate::args::{RunArgs, StoreArgs};
use crate::cmd::report::write_html;
use crate::exit::Exit;
use crate::formats::FormatArgs;
use crate::history;
use crate::job::{job_spec, load_profile};
use crate::output::{check_outputs, emit_json, print_out};
use crate::progress::Progress;
use crate::signals::stop_flag;
use crate::streams::stream_specs;
use dbio_model::{JobSpec, Outcome, RunResult, StreamSpec};
use dbio_orchestrate::judge::judged;
use dbio_report::item::Item;
use dbio_runner::RunError;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// What `run` and `sweep` read or measure, which no output may overwrite: the targets,
/// the profile file and the history.
pub fn inputs(a: &RunArgs) -> Vec<String> {
    let mut v = measured(&a.targets, &a.store);
    v.extend(a.profile_file.clone());
    v
}

/// The targets (also without their `role=`; the default test file when none is given) and
/// the history a measuring command writes to.
pub fn measured(targets: &[String], store: &StoreArgs) -> Vec<String> {
    let mut v = Vec::new();
    for t in targets {
        v.push(t.clone());
        if let Some((_, path)) = t.split_once('=') {
            v.push(path.to_string());
        }
    }
    if targets.is_empty() {
        v.push(crate::job::DEFAULT_TARGET.to_string());
    }
    v.extend(history::stored_in(store));
    v
}

/// Runs `dbio run` and returns its exit status; `formats` may ask for other tools' layouts.
pub fn run(a: RunArgs, formats: &FormatArgs) -> Exit {
    if let Some(exit) = crate::formats::before_run(&a, formats) {
        return exit;
    }
    if !a.fleet.hosts.is_empty() || a.fleet.hosts_file.is_some() {
        return crate::cmd::fleet::run(a);
    }
    let outputs = [
        ("--json", a.out.json.as_deref()),
        ("--html", a.html.as_deref()),
    ];
    let checked = check_outputs(&outputs, &inputs(&a))
        .and_then(|()| plan(&a))
        .and_then(|p| Ok((p, start_at(&a)?)));
    let (plan, start_at) = match checked {
        Ok(p) => p,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    // The history is opened first: a bad --db stops the run before any I/O.
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    let stop = stop_flag();
    if a.fleet.stop_on_eof {
        stop_on_eof(stop.clone());
    }
    let mut progress = Progress::new(a.out.quiet).line_mode(a.fleet.progress_lines);
    let result = match plan {
        Plan::Single(spec) => dbio_runner::run_at(&spec, stop, &mut |ev| progress.on(ev), start_at),
        Plan::Streams(streams, notices) => {
            if !a.out.quiet {
                notices.iter().for_each(|n| eprintln!("dbio run: {n}"));
            }
            dbio_runner::run_streams(&streams, stop, &mut |ev| progress.on(ev))
        }
    };
    progress.finish();
    let mut r = match result {
        Ok(r) => judged(r),
        Err(RunError::Interrupted) => {
            return Exit::Interrupted
                .with("dbio run: interrupted before measuring began; nothing was measured")
        }
        Err(e) => return Exit::usage(format!("dbio run: {e}")),
    };
    r.label = a.store.label.clone();
    deliver_as(r, &Delivery::of(&a), store.as_ref(), "dbio run", formats)
}

/// Where a finished result goes: the history, JSON, HTML, the summary on the terminal.
pub struct Delivery<'a> {
    pub json: Option<&'a str>,
    pub html: Option<&'a str>,
    pub label: Option<&'a str>,
    pub quiet: bool,
}

impl<'a> Delivery<'a> {
    /// The outputs `dbio run` was given.
    pub fn of(a: &'a RunArgs) -> Self {
        Delivery {
            json: a.out.json.as_deref(),
            html: a.html.as_deref(),
            label: a.store.label.as_deref(),
            quiet: a.out.quiet,
        }
    }
}

/// Stores, writes and prints a run's result; the exit status follows its outcome.
pub fn deliver(r: RunResult, d: &Delivery, store: Option<&dbio_store::Store>, cmd: &str) -> Exit {
    deliver_as(r, d, store, cmd, &FormatArgs::default())
}

/// [`deliver`], printing and writing in the layouts `formats` asks for (the history keeps
/// dbio's own JSON and summary).
fn deliver_as(
    r: RunResult,
    d: &Delivery,
    store: Option<&dbio_store::Store>,
    cmd: &str,
    formats: &FormatArgs,
) -> Exit {
    let json_to_stdout = d.json == Some("-");
    let json = dbio_report::json::to_json(&r);
    let summary = dbio_report::text::summary(&r);
    if let Some(store) = store {
        let entry = history::run_entry(&r, &json, &summary, d.label);
        history::keep(store, &entry, d.quiet, cmd);
    }
    if let Some(path) = d.json {
        if let Err(e) = emit_json(path, &formats.json(&r, &json)) {
            eprintln!("{cmd}: cannot write the JSON result to {path}: {e}");
            eprint!("{summary}");
            return Exit::Failure;
        }
    }
    if let Some(path) = d.html {
        let name = d.label.map_or_else(|| r.started_at.clone(), str::to_string);
        let item = Item {
            name,
            result: dbio_report::item::Result::Run(Box::new(r.clone())),
        };
        if let Err(m) = write_html(path, item) {
            eprintln!("{cmd}: {m}");
            eprint!("{summary}");
            return Exit::Failure;
        }
    }
    if d.quiet {
        for w in &r.warnings {
            eprintln!("warning: {}", w.message);
        }
    } else if json_to_stdout {
        eprint!("{}", formats.summary(&r, &summary));
    } else {
        print_out(&formats.summary(&r, &summary));
    }
    if let Some(v) = r.verify.as_ref().filter(|v| v.corrupt()) {
        if let Outcome::IoError(e) = &r.outcome {
            eprintln!("{cmd}: {e}");
        }
        return Exit::Corrupt.with(format!(
            "{cmd}: verify found {} bad blocks (exit status 3)",
            v.corrupt.total()
        ));
    }
    match r.outcome {
        Outcome::Complete if r.partial => Exit::Failure,
        Outcome::Complete => Exit::Ok,
        Outcome::Interrupted => Exit::Interrupted,
        Outcome::IoError(e) => Exit::Failure.with(format!("{cmd}: {e}")),
    }
}

/// `--start-at`: the instant measuring starts (RFC 3339); refused when it is malformed or
/// more than a day away (a typo in the date would wait for months).
pub fn start_at(a: &RunArgs) -> Result<Option<SystemTime>, String> {
    let Some(t) = a.fleet.start_at.as_deref() else {
        return Ok(None);
    };
    let at = humantime::parse_rfc3339_weak(t)
        .ok()
        .filter(|_| t.ends_with('Z'))
        .ok_or_else(|| {
            format!("--start-at {t}: write an RFC 3339 UTC time, e.g. 2026-12-01T10:00:00Z")
        })?;
    if at.duration_since(SystemTime::now()).unwrap_or_default() > Duration::from_secs(86_400) {
        return Err(format!(
            "--start-at {t}: that is more than a day away; give a time within the next 24 h"
        ));
    }
    Ok(Some(at))
}

/// Sets `stop` when standard input closes: a remote dbio started over ssh stops with the
/// session that started it, and no process of dbio's outlives it.
fn stop_on_eof(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut sink = [0u8; 256];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        stop.store(true, Ordering::Relaxed);
    });
}

/// What `dbio run` runs: one job, or several streams with notices about their targets.
pub enum Plan {
    Single(Box<JobSpec>),
    Streams(Vec<StreamSpec>, Vec<String>),
}

pub fn plan(a: &RunArgs) -> Result<Plan, String> {
    if let Some(j) = &a.fleet.job_json {
        // Sent by a launching dbio that validated it; the targets' safety rules apply here.
        return serde_json::from_str::<JobSpec>(j)
            .map(|s| Plan::Single(Box::new(s)))
            .map_err(|e| format!("--job-json: not a job of this dbio: {e}"));
    }
    let (name, p) = load_profile(a)?;
    if p.stream.is_empty() {
        return job_spec(a).map(|s| Plan::Single(Box::new(s)));
    }
    if a.sessions.is_some() {
        return Err(format!(
            "--sessions: profile {name} runs several streams; session mode runs one workload with its own log writer, so use a single-stream profile such as slob or oltp-read"
        ));
    }
    let (streams, notices) = stream_specs(a, &name, &p)?;
    Ok(Plan::Streams(streams, notices))
}
