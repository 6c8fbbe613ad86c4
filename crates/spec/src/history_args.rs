//! Flags of the commands that read the history and the built-in profiles: `dbio history`,
//! `show`, `export`, `report` and `profiles`.

use crate::out_args::HistoryDb;
use clap::Args;

pub const REPORT_HELP: &str = include_str!("../help/report.txt");

/// Flags of `dbio report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Runs or sweeps: run ids, labels (their newest run) or JSON result files.
    #[arg(value_name = "RUN", required = true)]
    pub runs: Vec<String>,
    /// Write the HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// Write the Markdown report to FILE, or to stdout with '-'.
    #[arg(long, value_name = "FILE")]
    pub md: Option<String>,
    /// Write one CSV row per direction of every run (and sweep step) to FILE, or stdout with '-'.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<String>,
    /// Write one run's per-second latency histograms as an HdrHistogram interval log (.hlog)
    /// to FILE, or stdout with '-', for HdrHistogram's log analyzers.
    #[arg(long, value_name = "FILE")]
    pub hlog: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
}

pub const HISTORY_HELP: &str = include_str!("../help/history.txt");

/// Flags of `dbio history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only runs whose targets contain this text.
    #[arg(long, value_name = "TEXT")]
    pub target: Option<String>,
    /// Only runs of this profile.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Only runs started since a date (2026-11-01), a time (2026-11-01T08:00:00Z) or an age (2h, 7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only runs with this label.
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// At most this many rows.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub limit: u32,
    /// Copy every result and collection of this history into DB (a file, or a team store:
    /// postgres://…), creating it if need be; what DB holds already is not copied again.
    #[arg(long, value_name = "DB", conflicts_with = "import_from")]
    pub export_to: Option<String>,
    /// Copy every result and collection of DB (a file or postgres://…) into this history,
    /// but those it holds already.
    #[arg(long, value_name = "DB")]
    pub import_from: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
}

/// Flags of `dbio show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A run id, a label (its newest run) or a JSON result file.
    #[arg(value_name = "RUN")]
    pub run: String,
    #[command(flatten)]
    pub history: HistoryDb,
}

/// Flags of `dbio export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A run id, a label (its newest run) or a JSON result file.
    #[arg(value_name = "RUN")]
    pub run: String,
    /// Where the JSON goes: a file, or stdout with '-' (the default).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub json: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
}

pub const PROFILES_HELP: &str = include_str!("../help/profiles.txt");

/// Flags of `dbio profiles`.
#[derive(Debug, Args)]
pub struct ProfilesArgs {
    /// Print the TOML of this built-in profile.
    #[arg(long, value_name = "NAME")]
    pub show: Option<String>,
}
