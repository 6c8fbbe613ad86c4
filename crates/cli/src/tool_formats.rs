//! The flags of other tools' output formats (`--output-format`, `--json-format`, `--as-fio`);
//! the layouts they name are dbio-report's (`formats`).

use clap::Args;
use dbio_report::{fio_log::FioLogs, fio_percentiles::Percentiles, formats::*};

/// The output-format flags of `dbio run` (and of the sqlio, diskspd and fio front ends).
#[derive(Debug, Clone, Default, Args)]
pub struct FormatArgs {
    /// Print the result in another tool's layout instead of dbio's summary: sqlio (its
    /// throughput lines and millisecond histogram), diskspd (its per-thread tables and latency
    /// percentiles) or diskspd-xml (its -Rxml results), so scripts that parse those keep working.
    #[arg(long, value_name = "FORMAT", default_value = "dbio", value_parser = ["dbio", "sqlio", "diskspd", "diskspd-xml"])]
    pub output_format: String,
    /// The layout of --json: dbio's own, or fio's json+ (jobs[].read|write with iops, bw,
    /// clat_ns percentiles and bins; a jobs[] entry per stream and per thread, as fio's
    /// numjobs, or one for the run with fio-group).
    #[arg(long, value_name = "FORMAT", default_value = "dbio", value_parser = ["dbio", "fio", "fio-group"])]
    pub json_format: String,
    /// fio's percentile_list: the clat_ns percentiles of --json-format fio (99:99.9:99.99).
    #[arg(long, value_name = "LIST", value_parser = Percentiles::parse)]
    pub fio_percentiles: Option<Percentiles>,
    /// Write fio's logs from the per-second series: lat=NAME,bw=NAME,iops=NAME[,avg=MSEC].
    #[arg(long, value_name = "LOGS", value_parser = FioLogs::parse)]
    pub fio_log: Option<FioLogs>,
    /// Print the fio job file that runs the same workload, and exit without running.
    #[arg(long)]
    pub as_fio: bool,
    /// SQLIO's `-B` letter of a run `dbio sqlio` translated, for SQLIO's layout (not a flag).
    #[arg(skip)]
    pub sqlio_buffering: Option<char>,
    /// The part of a joined fio JSON a run of `dbio fio` writes (not a flag; `fio_join`).
    #[arg(skip)]
    pub fio_part: Option<String>,
}

impl FormatArgs {
    /// The layouts these flags name, from dbio-report's exporters, knowing what was typed.
    pub fn layouts(&self) -> Layouts {
        Layouts::named(&self.output_format, &self.json_format)
            .with_sqlio_buffering(self.sqlio_buffering)
            .typed(std::env::args_os())
            .with_fio(
                self.fio_percentiles.clone(),
                self.fio_log.clone(),
                self.fio_part.clone(),
            )
    }
}
