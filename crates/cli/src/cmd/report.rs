//! `dbio report`: stored runs and sweeps (or JSON result files) as one HTML page, Markdown
//! or CSV.

use crate::args::ReportArgs;
use crate::exit::Exit;
use crate::output::emit_json;
use crate::prologue::usage;
use dbio_report::hlog_of::{interval_log_of, HlogError};
use dbio_report::item::{found, Item};

/// Runs `dbio report` and returns its exit status.
pub fn run(a: ReportArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio report";
    if a.html.is_none() && a.md.is_none() && a.csv.is_none() && a.hlog.is_none() {
        return Err(Exit::usage(
            "dbio report: say what to write: --html FILE, --md FILE, --csv FILE or --hlog FILE ('-' for stdout with --md, --csv and --hlog)",
        ));
    }
    let names: Vec<&str> = a.runs.iter().map(String::as_str).collect();
    let inputs = crate::history::lookup_inputs(&names, a.history.db.as_deref());
    let outputs = [
        ("--html", a.html.as_deref()),
        ("--md", a.md.as_deref()),
        ("--csv", a.csv.as_deref()),
        ("--hlog", a.hlog.as_deref()),
    ];
    crate::output::check_outputs(&outputs, &inputs).map_err(usage(CMD))?;
    let items = found(a.history.db.as_deref(), &a.runs).map_err(usage(CMD))?;
    if let Some(path) = a.hlog.as_deref() {
        write_hlog(path, &items)?;
    }
    let outputs = [
        (
            "--html",
            a.html.as_deref(),
            dbio_report::html::page as fn(&[Item]) -> String,
        ),
        ("--md", a.md.as_deref(), dbio_report::markdown::report),
        ("--csv", a.csv.as_deref(), dbio_report::csv::report),
    ];
    for (flag, path, render) in outputs {
        let Some(path) = path else { continue };
        if let Err(e) = emit_json(path, &render(&items)) {
            return Err(
                Exit::Failure.with(format!("dbio report: {flag}: cannot write {path}: {e}"))
            );
        }
    }
    Ok(Exit::Ok)
}

/// `--hlog`: the interval log of the one run given.
fn write_hlog(path: &str, items: &[Item]) -> Result<(), Exit> {
    let log = interval_log_of(items).map_err(|e| match e {
        HlogError::Unreadable { .. } => Exit::Failure.with(format!("dbio report: {e}")),
        _ => Exit::usage(format!("dbio report: {e}")),
    })?;
    emit_json(path, &log)
        .map_err(|e| Exit::Failure.with(format!("dbio report: --hlog: cannot write {path}: {e}")))
}
