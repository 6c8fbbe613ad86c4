//! Flags of `dbio advise`.

use crate::out_args::{Outputs, StoreArgs};
use clap::Args;

pub const ADVISE_HELP: &str = include_str!("../help/advise.txt");

/// Flags of `dbio advise`.
#[derive(Debug, Args)]
#[command(mut_arg("quiet", |a| a.help("Print nothing but errors")))]
pub struct AdviseArgs {
    /// Exports to read: one (counts since the server started) or two (before, after); or
    /// the name of a collection in the history (dbio collect).
    #[arg(value_name = "EXPORT")]
    pub exports: Vec<String>,
    /// A live database: postgres://… or mysql://… (mariadb:// too).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// This host's /proc/diskstats, whole devices (with --partitions: partitions).
    #[arg(long)]
    pub diskstats: bool,
    /// Devices: partitions instead of whole disks (diskstats only).
    #[arg(long)]
    pub partitions: bool,
    /// Time between the two snapshots of a live source.
    #[arg(long, value_name = "DURATION")]
    pub interval: Option<String>,
    /// Save one snapshot of the live source to FILE now, and stop.
    #[arg(long, value_name = "FILE", conflicts_with = "since")]
    pub snapshot: Option<String>,
    /// The first snapshot, saved earlier with --snapshot; the second is taken now.
    #[arg(long, value_name = "FILE")]
    pub since: Option<String>,
    /// The flash budget (a size, e.g. 500GiB) and/or a measured flash device (a run id,
    /// label or JSON file); give it twice for both.
    #[arg(long, value_name = "SIZE|RUN")]
    pub flash: Vec<String>,
    /// The measured current device (run id, label or JSON file); needs --flash RUN.
    #[arg(long, value_name = "RUN")]
    pub current: Option<String>,
    /// The flash latency per I/O assumed without --flash RUN.
    #[arg(long, value_name = "LATENCY")]
    pub flash_latency: Option<String>,
    /// Share of the time spent waiting on I/O (0.4 or 40%), for the bound on the speed-up.
    #[arg(long, value_name = "SHARE")]
    pub io_wait_share: Option<String>,
    /// With a dbio trace as the export: the database's data folder, whose files' extents
    /// attribute the trace's requests to files.
    #[arg(long, value_name = "DIR")]
    pub files: Option<String>,
    /// With a collection's name (dbio collect) as the source: the part to place objects by:
    /// peak (its busiest hour), peak/30m, p95 (its busiest 5 % of intervals), all, or a span
    /// such as 2026-12-01T09:00/1h (UTC) [default: all].
    #[arg(long, value_name = "WINDOW")]
    pub window: Option<String>,
    /// Object sizes for sources without them (AWR, saved diskstats): a CSV with NAME and BYTES.
    #[arg(long, value_name = "FILE")]
    pub sizes: Option<String>,
    /// Print the queries whose output dbio reads, per system, and stop.
    #[arg(long)]
    pub queries: bool,
    /// Rows of the ranked table and lists printed (0: all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub top: usize,
    #[command(flatten)]
    pub out: Outputs,
    /// Write an HTML page with the skew chart and the ranked table.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}
