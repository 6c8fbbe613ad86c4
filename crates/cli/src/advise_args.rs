//! Flags of `dbio advise`.

use crate::out_args::{Outputs, StoreArgs};
use clap::Args;

pub const ADVISE_HELP: &str = "\
Sources (one of):
  --url postgres://USER:PASSWORD@HOST:PORT/DB     a live PostgreSQL (pg_statio_*, pg_stat_wal)
  --url mysql://USER:PASSWORD@HOST:PORT/          a live MariaDB/MySQL (performance_schema)
  --diskstats                                     this host's /proc/diskstats (whole devices)
  EXPORT [EXPORT]                                 SQL Server or Oracle CSV, an AWR report,
                                                  saved /proc/diskstats, or a --snapshot file;
                                                  one counts from the server's start, two
                                                  (before, after) give the difference
Live sources take two snapshots --interval apart (default 60s), or save one now with
--snapshot FILE and make the difference later with --since FILE. dbio only reads: it never
writes to the database it inspects. `dbio advise --queries` prints the exact queries.

Objects are ranked by the stall that flash would save per GiB. Within --flash SIZE the
choice maximises stall saved (0/1 knapsack, exact; the method is printed); logs, large
sequential I/O (256 KiB or more on average) and objects without I/O are left where they
are, temp objects go only in what the rest leaves. The gain assumes flash at
--flash-latency (default 0.2ms) per I/O, or uses a measured device: --flash RUN (and
--current RUN) are stored dbio runs, sweeps or JSON files, taken at each object's I/O size
and read mix.

Examples:
  dbio advise --url postgres://dba@db1/shop --interval 5m --flash 500GiB
  dbio advise --url mysql://monitor:***@db2:3306/ --snapshot before.json
  dbio advise --url mysql://monitor:***@db2:3306/ --since before.json --flash 200GiB
  dbio advise filestats-0900.csv filestats-1000.csv --flash 1TiB --json advice.json
  dbio advise vfilestat.csv --flash 100GiB --flash nvme-sweep --current san-run --html a.html
  dbio advise awr.txt --sizes datafiles.csv --flash 50GiB --io-wait-share 40%
  dbio advise --diskstats --interval 30s
  dbio advise --queries";

/// Flags of `dbio advise`.
#[derive(Debug, Args)]
#[command(mut_arg("quiet", |a| a.help("Print nothing but errors")))]
pub struct AdviseArgs {
    /// Exports to read: one (counts since the server started) or two (before, after).
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
