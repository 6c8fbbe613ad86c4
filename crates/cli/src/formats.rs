//! Other tools' output formats for `dbio run`: `--output-format sqlio|diskspd` (their text
//! layouts), `--json-format fio` (fio's json+), and `--as-fio` (the fio job file of the run).
//! The layouts themselves are dbio-report's exporters; this holds the flags.

use crate::args::RunArgs;
use crate::exit::Exit;
use crate::output::print_out;
use clap::Args;
use dbio_model::RunResult;

/// The output-format flags of `dbio run` (and of the sqlio, diskspd and fio front ends).
#[derive(Debug, Clone, Args)]
pub struct FormatArgs {
    /// Print the result in another tool's layout instead of dbio's summary: sqlio (its
    /// throughput lines and millisecond histogram) or diskspd (its per-thread tables and
    /// latency percentiles), so scripts that parse those keep working.
    #[arg(long, value_name = "FORMAT", default_value = "dbio", value_parser = ["dbio", "sqlio", "diskspd"])]
    pub output_format: String,
    /// The layout of --json: dbio's own, or fio's json+ (jobs[].read|write with iops, bw,
    /// clat_ns percentiles and bins from dbio's histograms), which fio's tools and plotters read.
    #[arg(long, value_name = "FORMAT", default_value = "dbio", value_parser = ["dbio", "fio"])]
    pub json_format: String,
    /// Print the fio job file that runs the same workload, and exit without running.
    #[arg(long)]
    pub as_fio: bool,
}

impl Default for FormatArgs {
    fn default() -> Self {
        FormatArgs {
            output_format: "dbio".into(),
            json_format: "dbio".into(),
            as_fio: false,
        }
    }
}

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
    if f.json_format != "dbio" && a.json.is_none() {
        return Some(Exit::usage(format!(
            "dbio run: --json-format {}: give --json FILE (or --json - for stdout) to write it",
            f.json_format
        )));
    }
    None
}

impl FormatArgs {
    /// The JSON to write: dbio's own as given, or fio's json+ made from the result.
    pub fn json(&self, r: &RunResult, dbio_json: &str) -> String {
        match self.json_format.as_str() {
            "fio" => dbio_report::fio_json::to_fio_json(r),
            _ => dbio_json.to_string(),
        }
    }

    /// The summary to print: dbio's own as given, or another tool's layout.
    pub fn summary(&self, r: &RunResult, dbio_summary: &str) -> String {
        match self.output_format.as_str() {
            "sqlio" => dbio_report::sqlio::to_sqlio(r),
            "diskspd" => dbio_report::diskspd::to_diskspd(r),
            _ => dbio_summary.to_string(),
        }
    }
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
