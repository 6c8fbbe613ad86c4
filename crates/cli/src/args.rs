//! Command-line flags as typed but not yet validated (see `job.rs` for validation).

use clap::{Args, Parser, Subcommand};
pub use dbio_spec::command_args::{CaptureArgs, CompareArgs, PathArgs, ReduceArgs};
pub use dbio_spec::history_args::{ExportArgs, HistoryArgs, ProfilesArgs, ReportArgs, ShowArgs};
use dbio_spec::history_args::{HISTORY_HELP, PROFILES_HELP, REPORT_HELP};
use dbio_spec::out_args::Outputs;
pub use dbio_spec::out_args::StoreArgs;

/// dbio: storage benchmark and analyzer for database workloads.
#[derive(Debug, Parser)]
#[command(name = "dbio", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run an I/O workload on files or block devices and report IOPS, bandwidth and latency.
    #[command(after_help = run_examples())]
    Run(Box<RunCmd>),
    /// Run a profile once per value of one setting (queue depth, threads, block size, mix,
    /// rate), print a table as it goes, and find the knee and the saturation point.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep(Box<SweepArgs>),
    /// List the built-in workload profiles, or show one as TOML.
    #[command(after_help = PROFILES_HELP)]
    Profiles(ProfilesArgs),
    /// List the stored results (runs, sweeps, suites and reduce estimates), newest first.
    #[command(after_help = HISTORY_HELP)]
    History(HistoryArgs),
    /// Print a stored run as it was printed at the time (by id, label or JSON file).
    Show(ShowArgs),
    /// Give back a stored result's JSON exactly as it was written.
    Export(ExportArgs),
    /// Compare runs side by side: what differs in their conditions, then each metric with
    /// the ratio B/A and a verdict where the difference exceeds the runs' own spread.
    #[command(after_help = dbio_spec::command_args::COMPARE_HELP)]
    Compare(CompareArgs),
    /// The database storage assessment: an oltp-read ramp and its knee, oltp at the knee, log
    /// commit latency with 1-8 writers, TempDB and a DSS I/O-size sweep, then a scorecard.
    #[command(after_help = SUITE_HELP)]
    Suite(Box<SuiteArgs>),
    /// Model the I/O path (CPU, PCIe, HBAs, FC/Ethernet/InfiniBand, switches, array, media):
    /// every hop's ceiling, the weakest one, and a run held against it.
    #[command(after_help = dbio_spec::command_args::PATH_HELP)]
    Path(PathArgs),
    /// Estimate how much an array that removes patterns, deduplicates and compresses would
    /// shrink existing data (files, directory trees, block devices; read-only).
    #[command(after_help = dbio_spec::command_args::REDUCE_EXAMPLES)]
    Reduce(Box<ReduceArgs>),
    /// Write a report of stored runs and sweeps: one HTML page with charts, Markdown or CSV.
    #[command(after_help = REPORT_HELP)]
    Report(ReportArgs),
    /// Merge the JSON results of one workload run on several hosts (each with the same
    /// --start-at) into one result: exact totals, a row per host, the cluster's seconds.
    #[command(after_help = crate::fleet_args::MERGE_HELP)]
    Merge(Box<crate::fleet_args::MergeArgs>),
    /// Answer clock probes of a launching dbio (used by --hosts over ssh).
    #[command(hide = true)]
    Clock,
    /// What to move to flash, from the database's own I/O statistics (PostgreSQL, MariaDB/MySQL,
    /// SQL Server and Oracle exports, /proc/diskstats), within a budget, and what not to.
    #[command(after_help = dbio_spec::advise_args::ADVISE_HELP)]
    Advise(Box<dbio_spec::advise_args::AdviseArgs>),
    /// The SLOB method through a real PostgreSQL or MariaDB/MySQL: set up dbio's own schema,
    /// run sessions against it, and show the database's, the device's and dbio's figures.
    #[command(after_help = crate::db_args::DB_HELP)]
    Db(Box<crate::db_args::DbArgs>),
    /// Check targets against the journal of a verifying run (`dbio run --verify-journal`),
    /// after a crash, a power cut, a failover or a reboot.
    #[command(after_help = crate::verify_args::VERIFY_HELP)]
    Verify(crate::verify_args::VerifyArgs),
    /// Sample a database's I/O statistics, its devices and the CPU every interval for hours
    /// or days into the history; or report a collection's peaks, percentiles and growth.
    #[command(after_help = dbio_spec::collect_args::COLLECT_HELP)]
    Collect(Box<dbio_spec::collect_args::CollectArgs>),
    /// Record what the block layer issued to devices (every request, its completion and the
    /// device's latency) into a trace, through tracefs; or summarise a trace.
    #[command(after_help = dbio_spec::command_args::CAPTURE_HELP)]
    Capture(CaptureArgs),
    /// Replay a trace on a target: every captured request at its captured time (or faster,
    /// or as fast as the target allows), with the run's result and the replay's fidelity.
    #[command(after_help = dbio_spec::command_args::REPLAY_HELP)]
    Replay(Box<ReplayCmd>),
    /// Run an SQLIO command line in dbio: prints the equivalent dbio run, then runs it.
    #[command(after_help = crate::tool_args::SQLIO_HELP, disable_help_flag = true)]
    Sqlio(crate::tool_args::ToolArgs),
    /// Run a DiskSpd command line in dbio: prints the equivalent dbio run, then runs it.
    #[command(after_help = crate::tool_args::DISKSPD_HELP, disable_help_flag = true)]
    Diskspd(crate::tool_args::ToolArgs),
    /// Run a fio command line or job files in dbio: prints each job's dbio run, then runs them.
    #[command(after_help = crate::tool_args::FIO_HELP, disable_help_flag = true)]
    Fio(crate::tool_args::ToolArgs),
    /// Print the completion script of a shell, e.g. `source <(dbio completions bash)`.
    Completions(dbio_spec::shell::CompletionsArgs),
    /// Print dbio's man page, or write a page per command into a folder (--out DIR).
    Man(dbio_spec::shell::ManArgs),
}

/// Flags of `dbio run`: the workload, and (for this command alone) other tools' formats.
#[derive(Debug, Clone, Args)]
pub struct RunCmd {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub formats: crate::tool_formats::FormatArgs,
}

/// Flags of `dbio replay`: the trace and how to replay it, then the run's own flags.
#[derive(Debug, Clone, Args)]
pub struct ReplayCmd {
    #[command(flatten)]
    pub replay: dbio_spec::replay::ReplayArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

const SUITE_HELP: &str = include_str!("../help/suite.txt");

/// Flags of `dbio suite`.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Targets by role: data=PATH, log=PATH, tempdb=PATH; one plain PATH puts the log and
    /// TempDB on PATH.log and PATH.tempdb beside it [default: ./dbio-testfile].
    #[arg(long = "target", short = 't', value_name = "ROLE=PATH")]
    pub targets: Vec<String>,
    /// Short steps (2 s, no ramp, 256 MiB files): within 2 minutes.
    #[arg(long)]
    pub quick: bool,
    /// Size of the files dbio creates (default 1GiB; --quick 256MiB).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Thresholds of the scorecard, a TOML file (see below).
    #[arg(long, value_name = "FILE")]
    pub thresholds: Option<String>,
    /// I/O engine of every part.
    #[arg(long, value_name = "ENGINE", default_value = "uring", value_parser = ["uring", "psync", "sim"])]
    pub engine: String,
    /// The simulated device of --engine sim (see dbio run --help).
    #[arg(long, value_name = "PRESET|KEY=V,...")]
    pub sim: Option<String>,
    /// Allow writing to block devices or files dbio did not create.
    #[arg(long)]
    pub destroy_data: bool,
    /// Trace the targets' disks in each step: the kernel's queue and the device's own time.
    #[arg(long)]
    pub device_latency: bool,
    /// A captured workload's profile (dbio capture --profile): a sixth part runs it on the
    /// data target at 1x, 2x and 4x its rate.
    #[arg(long, value_name = "FILE")]
    pub profile: Option<String>,
    #[command(flatten)]
    pub out: Outputs,
    /// Write the whole assessment as one HTML page (scorecard, every part's charts).
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub fleet: crate::fleet_args::FleetArgs,
}

const RUN_EXAMPLES: &str = include_str!("../help/run-examples.txt");

/// The run examples with the simulated device's presets filled in.
fn run_examples() -> String {
    let presets: Vec<String> = dbio_model::sim::presets()
        .iter()
        .map(|(name, about)| format!("  {name:<16} {about}"))
        .collect();
    RUN_EXAMPLES.replace("SIM_PRESETS", &presets.join("\n"))
}

/// Flags of `dbio run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The workload's flags, declared with the raw description they fill.
    #[command(flatten)]
    pub job: dbio_spec::RawJob,
    #[command(flatten)]
    pub out: Outputs,
    /// Also write the result as a self-contained HTML report with charts to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub fleet: crate::fleet_args::FleetArgs,
    #[command(flatten)]
    pub verify: crate::verify_args::RunVerifyArgs,
}

const SWEEP_EXAMPLES: &str = include_str!("../help/sweep-examples.txt");

/// Flags of `dbio sweep`; `dbio sweep db …` is `dbio db sweep …`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SweepArgs {
    #[command(subcommand)]
    pub db: Option<SweepDb>,
    /// The setting to vary and its values: qd=1,2,4,8 or qd=1..128x2; also threads=, sessions=,
    /// bs=, mix=, rate= (rate=1x..4x: multiples of the profile's rate).
    #[arg(long, value_name = "KEY=VALUES", required = true)]
    pub vary: Option<String>,
    /// Latency objective of the knee: p99<1ms, avg<200us, read:p99.9<2ms, ...
    #[arg(long, value_name = "SLO")]
    pub slo: Option<String>,
    /// Find the highest qd, threads or rate that meets this objective by bisection, running
    /// about log2(steps) of the steps instead of all (as fio's latency_target does).
    #[arg(long, value_name = "SLO", conflicts_with = "slo")]
    pub target_latency: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The database sweep, also spelled under `dbio sweep`.
#[derive(Debug, Subcommand)]
pub enum SweepDb {
    /// Run once per number of sessions through a real database (as `dbio db sweep`).
    #[command(after_help = crate::db_args::DB_HELP)]
    Db(crate::db_args::DbSweepArgs),
}
