//! `dbio run`: validate, run, then print and write the result (also when interrupted).

use crate::args::{RunArgs, StoreArgs};
use crate::cmd::report::write_html;
use crate::exit::Exit;
use crate::history;
use crate::job::{job_spec, load_profile};
use crate::output::{check_outputs, emit_json, print_out};
use crate::progress::Progress;
use crate::signals::stop_flag;
use crate::streams::stream_specs;
use dbio_model::{JobSpec, Outcome, RunResult, StreamSpec};
use dbio_report::item::Item;
use dbio_runner::RunError;

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

/// Runs `dbio run` and returns its exit status.
pub fn run(a: RunArgs) -> Exit {
    let outputs = [("--json", a.json.as_deref()), ("--html", a.html.as_deref())];
    let plan = match check_outputs(&outputs, &inputs(&a)).and_then(|()| plan(&a)) {
        Ok(p) => p,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    // The history is opened first: a bad --db stops the run before any I/O.
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    let stop = stop_flag();
    let mut progress = Progress::new(a.quiet);
    let result = match plan {
        Plan::Single(spec) => dbio_runner::run(&spec, stop, &mut |ev| progress.on(ev)),
        Plan::Streams(streams, notices) => {
            if !a.quiet {
                notices.iter().for_each(|n| eprintln!("dbio run: {n}"));
            }
            dbio_runner::run_streams(&streams, stop, &mut |ev| progress.on(ev))
        }
    };
    progress.finish();
    let r = match result {
        Ok(r) => judged(r),
        Err(RunError::Interrupted) => {
            return Exit::Interrupted
                .with("dbio run: interrupted before measuring began; nothing was measured")
        }
        Err(e) => return Exit::usage(format!("dbio run: {e}")),
    };
    let json_to_stdout = a.json.as_deref() == Some("-");
    let json = dbio_report::json::to_json(&r);
    let summary = dbio_report::text::summary(&r);
    if let Some(store) = &store {
        let entry = history::run_entry(&r, &json, &summary, a.store.label.as_deref());
        history::keep(store, &entry, a.quiet, "dbio run");
    }
    if let Some(path) = a.json.as_deref() {
        if let Err(e) = emit_json(path, &json) {
            eprintln!("dbio run: cannot write the JSON result to {path}: {e}");
            eprint!("{summary}");
            return Exit::Failure;
        }
    }
    if let Some(path) = a.html.as_deref() {
        let name = a
            .store
            .label
            .clone()
            .unwrap_or_else(|| r.started_at.clone());
        let item = Item {
            name,
            result: dbio_report::item::Result::Run(Box::new(r.clone())),
        };
        if let Err(m) = write_html(path, item) {
            eprintln!("dbio run: {m}");
            eprint!("{summary}");
            return Exit::Failure;
        }
    }
    if a.quiet {
        for w in &r.warnings {
            eprintln!("warning: {}", w.message);
        }
    } else if json_to_stdout {
        eprint!("{summary}");
    } else {
        print_out(&summary);
    }
    match r.outcome {
        Outcome::Complete => Exit::Ok,
        Outcome::Interrupted => Exit::Interrupted,
        Outcome::IoError(e) => Exit::Failure.with(format!("dbio run: {e}")),
    }
}

/// The result with the verdict on what limited it.
pub fn judged(mut r: RunResult) -> RunResult {
    r.verdict = dbio_analyze::verdict::verdict(&r);
    r
}

/// What `dbio run` runs: one job, or several streams with notices about their targets.
enum Plan {
    Single(Box<JobSpec>),
    Streams(Vec<StreamSpec>, Vec<String>),
}

fn plan(a: &RunArgs) -> Result<Plan, String> {
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
