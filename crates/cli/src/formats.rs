//! Other tools' output formats for `dbio run`: `--output-format sqlio|diskspd` (their text
//! layouts), `--json-format fio` (fio's json+), and `--as-fio` (the fio job file of the run).
//! The layouts themselves are dbio-report's exporters, the flags are in `tool_formats.rs`;
//! this holds what `dbio run` does with them before running.

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::output::print_out;
pub use crate::tool_formats::FormatArgs;

/// What `dbio run` does before running: `--as-fio` prints the job file and ends the command
/// (Some), flag combinations that would print nothing of what was asked are refused (Some),
/// else the run goes on (None).
pub fn before_run(a: &RunArgs, f: &FormatArgs) -> Option<Exit> {
    if f.as_fio {
        return Some(print_as_fio(a));
    }
    let other = f.output_format != "dbio" || f.json_format != "dbio";
    if other && (!a.fleet.hosts.is_empty() || a.fleet.hosts_file.is_some()) {
        return Some(Exit::usage(
            "dbio run: --output-format and --json-format apply to a run on this host; merge the hosts' results (dbio merge) first",
        ));
    }
    if f.json_format != "dbio" && a.out.json.is_none() {
        return Some(Exit::usage(format!(
            "dbio run: --json-format {}: give --json FILE (or --json - for stdout) to write it",
            f.json_format
        )));
    }
    None
}

/// `dbio run … --as-fio`: prints the fio job file of the run's workload; nothing runs.
pub fn print_as_fio(a: &RunArgs) -> Exit {
    let spec = match crate::raw::job_spec(a) {
        Ok(s) => s,
        Err(e) => return e.map(|m| format!("dbio run: {m}")).into(),
    };
    match dbio_report::fio_job::to_fio_job(&spec) {
        Ok(text) => {
            print_out(&text);
            Exit::Ok
        }
        Err(m) => Exit::usage(format!("dbio run --as-fio: {m}")),
    }
}
