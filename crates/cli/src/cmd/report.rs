//! `dbio report`: stored runs and sweeps (or JSON result files) as one HTML page, Markdown
//! or CSV, written by dbio-report's `report_files`.

use crate::args::ReportArgs;
use crate::exit::Exit;
use crate::output::print_out;
use crate::prologue::{failure, usage};
use dbio_report::item::found;
use dbio_report::report_files::ReportFiles;

/// Runs `dbio report` and returns its exit status.
pub fn run(a: ReportArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio report";
    let files = ReportFiles {
        html: a.html.as_deref(),
        md: a.md.as_deref(),
        csv: a.csv.as_deref(),
        hlog: a.hlog.as_deref(),
    };
    files.asked().map_err(usage(CMD))?;
    let names: Vec<&str> = a.runs.iter().map(String::as_str).collect();
    let inputs = crate::history::lookup_inputs(&names, a.history.db.as_deref());
    crate::output::check_outputs(&files.outputs(), &inputs).map_err(usage(CMD))?;
    let items = found(a.history.db.as_deref(), &a.runs).map_err(usage(CMD))?;
    let written = files.write(&items, &print_out);
    written.map_err(|e| match e.is_usage() {
        true => usage(CMD)(e),
        false => failure(CMD)(e),
    })?;
    Ok(Exit::Ok)
}
