//! Where a finished result goes, for every command that finishes one: the history, `--json`,
//! `--html`, the summary on the terminal, and the exit status that follows from it.

use crate::args::RunArgs;
use crate::cmd::report::write_html;
use crate::exit::Exit;
use crate::formats::FormatArgs;
use crate::history;
use crate::out_args::{Outputs, StoreArgs};
use crate::output::{emit_json, print_summary};
use dbio_model::RunResult;
use dbio_report::item::Item;
use dbio_store::{NewEntry, Store};

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
        Delivery::new(&a.out, a.html.as_deref(), &a.store)
    }

    /// The outputs of the shared flags `out` and `store`, and `--html` (a command's own).
    pub fn new(out: &'a Outputs, html: Option<&'a str>, store: &'a StoreArgs) -> Self {
        Delivery {
            json: out.json.as_deref(),
            html,
            label: store.label.as_deref(),
            quiet: out.quiet,
        }
    }

    /// The files written, as the output checks take them: `--json` and `--html`.
    pub fn outputs(&self) -> [(&'static str, Option<&'a str>); 2] {
        [("--json", self.json), ("--html", self.html)]
    }
}

/// Stores, writes and prints a run's result; the exit status follows its outcome.
pub fn deliver(r: RunResult, d: &Delivery, store: Option<&Store>, cmd: &str) -> Exit {
    deliver_as(r, d, store, cmd, &FormatArgs::default())
}

/// [`deliver`], printing and writing in the layouts `formats` asks for (the history keeps
/// dbio's own JSON and summary). The result carries the delivery's label.
pub fn deliver_as(
    mut r: RunResult,
    d: &Delivery,
    store: Option<&Store>,
    cmd: &str,
    formats: &FormatArgs,
) -> Exit {
    r.label = d.label.map(str::to_string);
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
    }
    print_summary(&formats.summary(&r, &summary), d.json, d.quiet);
    Exit::of_run(&r, cmd)
}

/// Keeps `entry` in `store` (if any) and writes `json` to `--json` (if given): the common
/// end of a database run, a sweep and a suite. Err is status 1 after saying why the JSON
/// could not be written.
pub fn keep_and_write(
    store: Option<&Store>,
    entry: impl FnOnce() -> NewEntry,
    json: &str,
    d: &Delivery,
    cmd: &str,
) -> Result<(), Exit> {
    if let Some(store) = store {
        history::keep(store, &entry(), d.quiet, cmd);
    }
    if let Some(path) = d.json {
        if let Err(e) = emit_json(path, json) {
            return Err(Exit::Failure.with(format!(
                "{cmd}: cannot write the JSON result to {path}: {e}"
            )));
        }
    }
    Ok(())
}

/// Writes the HTML report of `item` to `--html` (if given). Err is status 1 after saying why.
pub fn html(d: &Delivery, item: impl FnOnce() -> Item, cmd: &str) -> Result<(), Exit> {
    match d.html {
        Some(path) => {
            write_html(path, item()).map_err(|m| Exit::Failure.with(format!("{cmd}: {m}")))
        }
        None => Ok(()),
    }
}
