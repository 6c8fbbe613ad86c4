//! `dbio run`: validate, run, then print and write the result (also when interrupted).

use crate::args::{RunArgs, StoreArgs};
use crate::deliver::deliver_as;
pub use crate::deliver::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::formats::FormatArgs;
use crate::history;
use crate::progress::Progress;
use crate::prologue::prologue;
use crate::raw::stream_specs;
use crate::raw::{job_spec, load_profile};
use dbio_model::{JobSpec, StreamSpec};
use dbio_orchestrate::executor::{self, Local};
use dbio_orchestrate::run_one;
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
        v.push(dbio_spec::raw::DEFAULT_TARGET.to_string());
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
    let ready = prologue("dbio run", &outputs, &inputs(&a), &a.store, || {
        Ok((plan(&a)?, start_at(&a)?))
    });
    let ready = match ready {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let ((work, start_at), stop) = (&ready.work, ready.stop.flag());
    if a.fleet.stop_on_eof {
        stop_on_eof(stop.clone());
    }
    if let (Workload::Streams(_, notices), false) = (work, a.out.quiet) {
        notices.iter().for_each(|n| eprintln!("dbio run: {n}"));
    }
    let mut progress = Progress::new(a.out.quiet).line_mode(a.fleet.progress_lines);
    let result = run_one(&mut Local, &work.plan().at(*start_at), &stop, &mut |ev| {
        progress.on(ev)
    });
    progress.finish();
    match result {
        Ok(r) => deliver_as(
            r,
            &Delivery::of(&a),
            ready.store.as_ref(),
            "dbio run",
            formats,
        ),
        Err(e) => Exit::no_result(&e, Ran::Here, "dbio run"),
    }
}

/// `--start-at`: the instant measuring starts (RFC 3339); refused when it is malformed or
/// more than a day away (a typo in the date would wait for months).
pub fn start_at(a: &RunArgs) -> Result<Option<SystemTime>, CliError> {
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
        )
        .into());
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
pub enum Workload {
    Single(Box<JobSpec>),
    Streams(Vec<StreamSpec>, Vec<String>),
}

impl Workload {
    /// The plan an executor runs, started as soon as it is ready.
    pub fn plan(&self) -> executor::Plan<'_> {
        match self {
            Workload::Single(j) => executor::Plan::job(j),
            Workload::Streams(s, _) => executor::Plan::streams(s),
        }
    }
}

/// What the flags of `dbio run` ask to run; the message says what is wrong.
pub fn plan(a: &RunArgs) -> Result<Workload, CliError> {
    if let Some(j) = &a.fleet.job_json {
        // Sent by a launching dbio that validated it; the targets' safety rules apply here.
        return serde_json::from_str::<JobSpec>(j)
            .map(|s| Workload::Single(Box::new(s)))
            .map_err(|e| CliError::from(format!("--job-json: not a job of this dbio: {e}")));
    }
    let (name, p) = load_profile(a)?;
    if p.stream.is_empty() {
        return Ok(Workload::Single(Box::new(job_spec(a)?)));
    }
    if a.sessions.is_some() {
        return Err(format!(
            "--sessions: profile {name} runs several streams; session mode runs one workload with its own log writer, so use a single-stream profile such as slob or oltp-read"
        ).into());
    }
    let (streams, notices) = stream_specs(a, &name, &p)?;
    Ok(Workload::Streams(streams, notices))
}
