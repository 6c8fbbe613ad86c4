//! The flags of other tools' output formats (`--output-format`, `--json-format`, `--as-fio`),
//! and the layout each one picks from dbio-report's exporters.

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
