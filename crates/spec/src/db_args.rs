//! Flags of `dbio db`: setup, run, sweep and drop of dbio's schema in a real database.

use crate::out_args::{Outputs, StoreArgs};
use clap::{Args, Subcommand};

pub const DB_HELP: &str = include_str!("../help/db.txt");

/// `dbio db`.
#[derive(Debug, Args)]
pub struct DbArgs {
    #[command(subcommand)]
    pub cmd: DbCmd,
}

#[derive(Debug, Subcommand)]
pub enum DbCmd {
    /// Create and load dbio's schema: one table per session, one row per block, an index.
    #[command(after_help = DB_HELP)]
    Setup(DbSetupArgs),
    /// Run the SLOB method through the database and report its, the device's and dbio's figures.
    #[command(after_help = DB_HELP)]
    Run(DbRunArgs),
    /// Run once per number of sessions (--vary sessions=1,4,8,...): a row per step, the
    /// saturation point; also spelled `dbio sweep db`.
    #[command(after_help = DB_HELP)]
    Sweep(DbSweepArgs),
    /// Remove dbio's schema: exactly what setup recorded, nothing else.
    #[command(after_help = DB_HELP)]
    Drop(DbDropArgs),
}

#[derive(Debug, Args)]
pub struct DbSetupArgs {
    /// postgres://USER:PASSWORD@HOST:PORT/DB or mysql://USER:PASSWORD@HOST:PORT/ (mariadb:// too).
    #[arg(long)]
    pub url: String,
    /// Tables to make, one per session (sessions beyond them share tables).
    #[arg(long, default_value_t = 4)]
    pub sessions: u32,
    /// Size of each table, e.g. 256MiB or 1GiB (several times the buffer pool).
    #[arg(long, default_value = "256MiB")]
    pub size: String,
    /// Tables loaded at once.
    #[arg(long, default_value_t = 2)]
    pub parallel: u32,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Flags of `dbio db run` (and of each step of `dbio db sweep`).
#[derive(Debug, Clone, Args)]
pub struct DbRunArgs {
    /// postgres://USER:PASSWORD@HOST:PORT/DB or mysql://USER:PASSWORD@HOST:PORT/ (mariadb:// too).
    #[arg(long)]
    pub url: String,
    /// Sessions: each one database connection doing one operation at a time.
    #[arg(long, default_value_t = 1)]
    pub sessions: u32,
    /// Keys read per operation (SLOB's WORK_UNIT): one index range scan, random single-block
    /// reads, one round trip. The default is pgio's: per round trip that much work keeps
    /// dbio's CPU a small share of the server's (bench/db-vs-pgio).
    #[arg(long, default_value_t = 255)]
    pub work_unit: u32,
    /// Operations per 100 that update the first 8 of their keys (pgio's update unit) and
    /// commit (WAL/redo writes, commit waits).
    #[arg(long, default_value_t = 0)]
    pub update_pct: u8,
    /// Think time after each operation: MIN or MIN:MAX, e.g. 1ms or 500us:2ms.
    #[arg(long)]
    pub think: Option<String>,
    /// Measured time.
    #[arg(long, default_value = "30s")]
    pub duration: String,
    /// Time run before measuring (excluded).
    #[arg(long, default_value = "5s")]
    pub ramp: String,
    /// Seed of the random keys.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hold this much memory locked (mlock) while the run measures, e.g. 4GiB, so the OS page
    /// cache has that much less and reads go to the device (pgio's reduce-free-memory step).
    #[arg(long, value_name = "SIZE")]
    pub lock_memory: Option<String>,
    #[command(flatten)]
    pub out: Outputs,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct DbSweepArgs {
    /// The sessions to run, e.g. sessions=1,4,8,16,32,64 or sessions=1..64x2.
    #[arg(long, value_name = "sessions=VALUES")]
    pub vary: String,
    /// Also write the sweep as one HTML page: the ramp table, latency against IOPS.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub run: DbRunArgs,
}

#[derive(Debug, Args)]
pub struct DbDropArgs {
    /// postgres://USER:PASSWORD@HOST:PORT/DB or mysql://USER:PASSWORD@HOST:PORT/ (mariadb:// too).
    #[arg(long)]
    pub url: String,
}
