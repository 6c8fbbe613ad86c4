//! Other tools' output formats for `dbio run`: `--output-format sqlio|diskspd` (their text
//! layouts), `--json-format fio` (fio's json+), and `--as-fio` (the fio job file of the run).
//! The layouts themselves are dbio-report's exporters, the flags are in `tool_formats.rs`;
//! this holds what `dbio run` does with them before running.

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::output::print_out;
use crate::prologue::usage;
pub use crate::tool_formats::FormatArgs;

/// What `dbio run` does before running: `--as-fio` prints the job file and ends the command
/// (Some), flag combinations that would print nothing of what was asked are refused (Some,
/// see `dbio_report::formats`), else the run goes on (None).
pub fn before_run(a: &RunArgs, f: &FormatArgs) -> Option<Exit> {
    if f.as_fio {
        return Some(print_as_fio(a));
    }
    let on_hosts = crate::cmd::fleet::wanted(&a.fleet);
    let checked = f.layouts().check(on_hosts, a.out.json.is_some());
    checked.err().map(usage("dbio run"))
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
