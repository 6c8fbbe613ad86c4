//! The flags of other tools' output formats (`--output-format`, `--json-format`, `--as-fio`);
//! the layouts they name are dbio-report's (`formats`).

use clap::Args;
use dbio_report::formats::Layouts;

/// The output-format flags of `dbio run` (and of the sqlio, diskspd and fio front ends).
#[derive(Debug, Clone, Args)]
pub struct FormatArgs {
    /// Print the result in another tool's layout instead of dbio's summary: sqlio (its
    /// throughput lines and millisecond histogram), diskspd (its per-thread tables and latency
    /// percentiles) or diskspd-xml (its -Rxml results), so scripts that parse those keep working.
    #[arg(long, value_name = "FORMAT", default_value = "dbio", value_parser = ["dbio", "sqlio", "diskspd", "diskspd-xml"])]
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
    /// The layouts these flags name, from dbio-report's exporters, knowing what was typed.
    pub fn layouts(&self) -> Layouts {
        Layouts::named(&self.output_format, &self.json_format).typed(std::env::args_os())
    }
}
