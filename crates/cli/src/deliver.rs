//! Where a finished result goes, for every command that finishes one: the history, `--json`,
//! `--html`, the summary on the terminal, and the exit status that follows from it.

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::history;
use crate::output::{print_out, print_summary};
use crate::prologue::failure;
use crate::tool_formats::FormatArgs;
use dbio_model::RunResult;
use dbio_report::deliver::{Destination, FinishedRun};
use dbio_report::item::Item;
use dbio_report::json::ToJson;
use dbio_spec::out_args::{Outputs, StoreArgs};
use dbio_store::{NewEntry, Store};

/// Where a finished result goes (the history, JSON, HTML), and whether the terminal hears
/// of it (`--quiet`).
pub struct Delivery<'a> {
    pub to: Destination<'a>,
    pub quiet: bool,
}

impl<'a> Delivery<'a> {
    /// The outputs `dbio run` was given.
    pub fn of(a: &'a RunArgs) -> Self {
        Delivery::new(&a.out, a.html.as_deref(), &a.store)
    }

    /// The outputs of the shared flags `out` and `store`, and `--html` (a command's own).
    pub fn new(out: &'a Outputs, html: Option<&'a str>, store: &'a StoreArgs) -> Self {
        let to = Destination {
            json: out.json.as_deref(),
            html,
            label: store.label.as_deref(),
        };
        Delivery {
            to,
            quiet: out.quiet,
        }
    }

    /// The files written, as the output checks take them: `--json` and `--html`.
    pub fn outputs(&self) -> [(&'static str, Option<&'a str>); 2] {
        [("--json", self.to.json), ("--html", self.to.html)]
    }
}

/// Stores, writes and prints a run's result; the exit status follows its outcome.
pub fn deliver(r: RunResult, d: &Delivery, store: Option<&Store>, cmd: &str) -> Exit {
    deliver_as(r, d, store, cmd, &FormatArgs::default())
}

/// [`deliver`], printing and writing in the layouts `formats` asks for (the history keeps
/// dbio's own JSON and summary). The result carries the delivery's label.
pub fn deliver_as(
    r: RunResult,
    d: &Delivery,
    store: Option<&Store>,
    cmd: &str,
    formats: &FormatArgs,
) -> Exit {
    let run = FinishedRun::new(r, &d.to);
    let (r, layouts) = (&run.result, formats.layouts());
    if let Some(store) = store {
        history::said(store, run.keep(store, &d.to), d.quiet, cmd);
    }
    if let Err(e) = run.write(&d.to, &layouts, print_out) {
        eprintln!("{cmd}: {e}");
        eprint!("{}", run.summary);
        return Exit::Failure;
    }
    if d.quiet {
        for w in &r.warnings {
            eprintln!("warning: {}", w.message);
        }
    }
    print_summary(&run.summary_in(&layouts), d.to.json, d.quiet);
    Exit::of_run(r, cmd)
}

/// Keeps `entry` in `store` (if any) and writes `json` to `--json` (if given): the common
/// end of a database run, a sweep, a suite and a reduce estimate. Err is status 1 after
/// saying why the JSON could not be written.
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
    d.to.write_json(json, print_out).map_err(failure(cmd))
}

/// As [`keep_and_write`], the JSON of `r` streamed into the history and to `--json`, never
/// whole in memory (a long sweep's): the common end of a sweep and a suite.
pub fn keep_and_stream(
    store: Option<&Store>,
    entry: impl FnOnce() -> NewEntry,
    r: &dyn ToJson,
    d: &Delivery,
    cmd: &str,
) -> Result<(), Exit> {
    if let Some(store) = store {
        let kept = dbio_report::deliver::keep_streamed(store, &entry(), r);
        history::said(store, kept, d.quiet, cmd);
    }
    d.to.stream_json(r, print_out).map_err(failure(cmd))
}

/// Writes the HTML report of `item` to `--html` (if given). Err is status 1 after saying why.
pub fn html(d: &Delivery, item: impl FnOnce() -> Item, cmd: &str) -> Result<(), Exit> {
    d.to.write_html(item).map_err(failure(cmd))
}
