//! Command-line flags as typed but not yet validated (see `job.rs` for validation).

pub use crate::out_args::StoreArgs;
use crate::out_args::{HistoryDb, Outputs};
use clap::{Args, Parser, Subcommand};

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
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// The database storage assessment: an oltp-read ramp and its knee, oltp at the knee, log
    /// commit latency with 1-8 writers, TempDB and a DSS I/O-size sweep, then a scorecard.
    #[command(after_help = SUITE_HELP)]
    Suite(Box<SuiteArgs>),
    /// Model the I/O path (CPU, PCIe, HBAs, FC/Ethernet/InfiniBand, switches, array, media):
    /// every hop's ceiling, the weakest one, and a run held against it.
    #[command(after_help = PATH_HELP)]
    Path(PathArgs),
    /// Estimate how much an array that removes patterns, deduplicates and compresses would
    /// shrink existing data (files, directory trees, block devices; read-only).
    #[command(after_help = REDUCE_EXAMPLES)]
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
    #[command(after_help = crate::advise_args::ADVISE_HELP)]
    Advise(Box<crate::advise_args::AdviseArgs>),
    /// The SLOB method through a real PostgreSQL or MariaDB/MySQL: set up dbio's own schema,
    /// run sessions against it, and show the database's, the device's and dbio's figures.
    #[command(after_help = crate::db_args::DB_HELP)]
    Db(Box<crate::db_args::DbArgs>),
    /// Check targets against the journal of a verifying run (`dbio run --verify-journal`),
    /// after a crash, a power cut, a failover or a reboot.
    #[command(after_help = crate::verify_args::VERIFY_HELP)]
    Verify(crate::verify_args::VerifyArgs),
    /// Run an SQLIO command line in dbio: prints the equivalent dbio run, then runs it.
    #[command(after_help = crate::tool_args::SQLIO_HELP, disable_help_flag = true)]
    Sqlio(crate::tool_args::ToolArgs),
    /// Run a DiskSpd command line in dbio: prints the equivalent dbio run, then runs it.
    #[command(after_help = crate::tool_args::DISKSPD_HELP, disable_help_flag = true)]
    Diskspd(crate::tool_args::ToolArgs),
    /// Run fio job files in dbio: prints the equivalent dbio run of each job, then runs them.
    #[command(after_help = crate::tool_args::FIO_HELP, disable_help_flag = true)]
    Fio(crate::tool_args::ToolArgs),
}

/// Flags of `dbio run`: the workload, and (for this command alone) other tools' formats.
#[derive(Debug, Clone, Args)]
pub struct RunCmd {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub formats: crate::tool_formats::FormatArgs,
}

const PATH_HELP: &str = "\
A topology is a TOML file: the workload, then the hops from the host's CPUs to the media.
Each hop has a kind, a count of parallel instances and its parameters; any hop may also give
bandwidth (\"3.2GB/s\"), iops, read_iops, write_iops and latency (\"200us\") directly.

  [workload]
  io_size = \"64KiB\"
  read_pct = 50

  [[hop]]
  name = \"HBA slots\"
  kind = \"pcie\"        # gen 1-6, lanes 1/2/4/8/12/16, tlp_efficiency (default 1; 0.92 for 256 B payloads)
  gen = 3
  lanes = 8
  count = 2

  [[hop]]
  name = \"host FC ports\"
  kind = \"fc\"          # speed 1G-128G; figure = \"quoted\" (default) or \"net\"
  speed = \"16G\"
  count = 4

Kinds: cpu (cores, iops_per_core), pcie, fc, ethernet (speed, protocol iscsi|nvme-tcp|tcp,
mtu), infiniband (rate SDR..NDR, width), sas (speed 3G-24G, lanes), sata (speed; half
duplex), nvme (gen, lanes, plus its device figures), hdd (rpm, seek_ms), ssd, memory (mts,
channels), switch (speed, fabric fc|ethernet, ports, isl_speed, isls), array (given figures).
Full-duplex links carry reads and writes in their own directions.

Examples:
  dbio path san.toml                           the hops, their ceilings, the weakest
  dbio path san.toml --io-size 8k,64k,1m       how the ceiling moves with I/O size
  dbio path san.toml --run 12                  run 12 as a share of every hop's ceiling, and a verdict";

/// Flags of `dbio path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The topology TOML file.
    #[arg(value_name = "TOPOLOGY.toml")]
    pub topology: String,
    /// Also give the weakest hop and ceiling at these I/O sizes, e.g. 8k,64k,1m.
    #[arg(long, value_name = "SIZES")]
    pub io_size: Option<String>,
    /// Hold a measured run (id, label or JSON file) against the path.
    #[arg(long, value_name = "RUN")]
    pub run: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
    /// Write the result as JSON to FILE, or to stdout with '-'.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
}

const SUITE_HELP: &str = "\
Parts, in order: oltp-read with qd 1..128 (x2 steps; --quick: 1,4,16,64) and its knee under the
data-read threshold; oltp (70 % reads) at the knee's queue depth; log with 1, 2, 4 and 8
writers; tempdb; dss with bs 8k, 64k, 256k, 1m (--quick: 64k, 256k, 1m). Each step measures
30 s after a 5 s ramp (about 10 minutes in all, plus prefilling the files); --quick measures
2 s per step with no ramp and 256 MiB files, and finishes within 2 minutes.

Thresholds (defaults for flash under a database; override any in a TOML file):
  data_read_p99 = \"1ms\"     # the knee's objective, and the OLTP run's reads
  data_write_p99 = \"2ms\"    # the OLTP run's writes
  log_write_p99 = \"1ms\"     # commit latency, 1 writer and 8 writers
  tempdb_p99 = \"2ms\"
  knee_iops = 20000          # least IOPS at the knee
  dss_mb_s = 500             # least bandwidth of the DSS sweep at its best

Examples:
  dbio suite --quick                                          on ./dbio-testfile (and .log, .tempdb beside it)
  dbio suite --target data=/mnt/data/f --target log=/mnt/log/f --target tempdb=/mnt/tmp/f
  dbio suite --thresholds mine.toml --json suite.json --html suite.html --label array-a
  dbio suite --quick --engine sim --sim fc-array-4g           what would this array score? (simulated)

Exit status 0 when every part ran, whatever the verdicts; 1 when a part failed; 2 bad input;
130 interrupted.";

/// Flags of `dbio suite`.
#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help("Write the whole assessment as JSON to FILE, or to stdout with '-'")),
    mut_arg("quiet", |a| a.help("No progress display and no tables (errors still go to stderr)"))
)]
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

const COMPARE_HELP: &str = "\
Examples:
  dbio compare 12 15                          run 15 against run 12
  dbio compare before-move after-move         the newest runs with these labels
  dbio compare old.json new.json              result files
  dbio compare spinning flash --devices A=75,B=6   per-device efficiency: 75 disks against 6 SSDs
  dbio compare 12 15 --html compare.html       the same with overlaid histograms and curves

Several runs (A B C …) are each compared with the first.";

/// Flags of `dbio compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Runs by id, label (the newest with it) or JSON file; the first is A.
    #[arg(value_name = "RUN", num_args = 2.., required = true)]
    pub runs: Vec<String>,
    /// Device counts behind A and B, for the performance per device: A=75,B=6.
    #[arg(long, value_name = "A=N,B=M")]
    pub devices: Option<String>,
    /// Also write the comparison as one HTML page with the runs' histograms, percentile
    /// curves and IOPS over time overlaid.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub history: HistoryDb,
}

const REPORT_HELP: &str = "\
The HTML page is one self-contained file (inline SVG charts and CSS; no scripts, fonts or
network): latency histograms and percentile curves, IOPS, MB/s and p99 over time, latency
against IOPS for sweeps with the knee and saturation marked, wait events of session runs,
host and target facts, every warning. It prints well.

Examples:
  dbio report 12 --html run12.html                    run 12 of the history
  dbio report before-move after-move --html cmp.html  two labelled runs on one page
  dbio report sweep.json --md sweep.md --csv sweep.csv   a JSON result file, as Markdown and CSV
  dbio report 12 --md -                               Markdown to stdout
  dbio run oltp --html oltp.html                      also: write the page at the end of a run or sweep";

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

const HISTORY_HELP: &str = "\
Every dbio run and sweep is stored whole (JSON with its histograms, and the summary as
printed) in $XDG_DATA_HOME/dbio/history.db (or ~/.local/share/dbio/history.db); --db PATH
chooses another file, --no-store on run or sweep skips storing, --label TEXT names a run.

Examples:
  dbio history                                   the newest 50
  dbio history --profile oltp --since 7d         filters: --target, --profile, --since, --label
  dbio show 12                                   run 12 as it was printed
  dbio show before-move                          the newest run labelled before-move
  dbio export 12 --json run12.json               its JSON, byte for byte";

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

const RUN_EXAMPLES: &str = "\
Examples:
  dbio run                                   default (profile oltp): 8 KiB random, 70 % read, QD 32, 30 s on ./dbio-testfile (1 GiB, created)
  dbio run log --target /mnt/log/dbio.dat    a built-in profile (dbio profiles lists them); flags override its values
  dbio run --profile my.toml --qd 64         a profile of your own
  dbio run --rw randread --bs 4k --qd 32 --duration 60s --target /mnt/data/dbio.dat --size 8GiB
  dbio run --rw write --bs 60k --qd 1 --sync dsync --target /mnt/log/dbio.dat          log-style commits
  dbio run --rw randrw --mix 70 --bs 8k:70,64k:20,256k:10 --threads 4 --json result.json
  dbio run --rw randread --rate 20000 --duration 30s            open loop, latency from scheduled starts
  dbio run --rw randread --target /dev/nvme1n1                   reads never need --destroy-data
  dbio run --rw randwrite --target /dev/nvme1n1 --destroy-data   writing to a device needs it
  dbio run slob --sessions 16 --target data=/mnt/data/f --target log=/mnt/log/f   SLOB method, AWR report
  dbio run --sessions 8 --work-unit 8 --batch-reads --cache-hit 90 --think 5:1ms-5ms
  dbio run oltp --steady iops:2% --steady-window 10s --steady-max 120s   measure once IOPS settle
  dbio run oltp --steady iops_slope:0.3% --ramp 5s          settle on the slope (also bw:X%, bw_slope:X%)
  dbio run checkpoint --burst 2s/10s                        I/O in the first 2 s of every 10 s, idle the rest
  dbio run oltp-mix --target data=/mnt/data/f --target log=/mnt/log/f   data I/O and log writes at once
  dbio run oltp-mix --target ./t --duration 60s    log stream on ./t.log; flags apply to every stream
  dbio run --rw randread --rate 20000 --arrivals poisson         open loop, Poisson arrivals
  dbio run --rw randwrite --data dedupe:3,compress:2             data an array reduces 3:1 by dedupe, 2:1 by compression
  dbio run --rw write --bs 64k --data dedupe:2,unit:16k          dedupe at 16 KiB units, incompressible
  dbio run --rw randwrite --bs 4k --data compress:4,unit:4k      4 KiB writes need a 4 KiB unit
  dbio run --rw write --data pattern:0xDEADBEEF                  a repeated byte pattern (arrays remove it)
  dbio run oltp --engine sim --sim fc-array-4x16g                what would this array do? (model)
  dbio run oltp --duration 60s --html oltp.html    the result as an HTML page with charts
  dbio run --rw randread --engine sim --sim channels=1,service=100us,bw=none \\
           --rate 7000 --arrivals poisson                        M/M/1: 100 µs/(1 − 0.7) = 333 µs

--engine sim runs in virtual time and touches no file (--target is refused). Its presets:
SIM_PRESETS
Without --sim it models nvme-gen3. Without --duration, --ops or --bytes on the command line it
measures 200,000 I/Os (a profile's duration is meant for real devices).

Sizes are binary (k = KiB = 1024). Exit status: 0 done, 1 I/O error (partial result kept),
2 bad input, 130 interrupted (partial result kept).";

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
#[command(
    mut_arg("json", |a| a.help("Write the result as JSON to FILE, or to stdout with '-' (then the summary goes to stderr)")),
    mut_arg("quiet", |a| a.help("No progress display and no summary (errors and warnings still go to stderr)"))
)]
pub struct RunArgs {
    /// Built-in profile to run (see `dbio profiles`); default: oltp.
    #[arg(value_name = "PROFILE", conflicts_with = "profile_file")]
    pub profile: Option<String>,
    /// Run the profile in this TOML file instead of a built-in one.
    #[arg(long = "profile", value_name = "FILE")]
    pub profile_file: Option<String>,
    /// File or block device to test; repeat for several (I/O is spread across them).
    /// A missing file is created, sized and prefilled with incompressible data. With a
    /// multi-stream profile, ROLE=PATH names the target of a role (e.g. log=/mnt/log/f); a
    /// plain PATH takes the first role and puts every other role on PATH.ROLE beside it.
    /// [default: ./dbio-testfile; refused with --engine sim, which touches no file]
    #[arg(long = "target", short = 't', value_name = "PATH")]
    pub targets: Vec<String>,
    /// Size of the file (default 1GiB). A file dbio created is resized to it; one it did
    /// not create keeps its size, and another --size is refused.
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Access pattern.
    #[arg(long, value_name = "PATTERN", value_parser = ["read", "write", "randread", "randwrite", "randrw"])]
    pub rw: Option<String>,
    /// Share of reads in percent, for randrw.
    #[arg(long, value_name = "PCT")]
    pub mix: Option<u32>,
    /// Block size, or a weighted distribution like 8k:70,64k:20,256k:10 (weights are
    /// relative: 8k:7,64k:3 is the same 70/30).
    #[arg(long, value_name = "SIZE[:W],...")]
    pub bs: Option<String>,
    /// Alignment of offsets (default: the smallest block size).
    #[arg(long, value_name = "SIZE")]
    pub align: Option<String>,
    /// Outstanding I/Os per thread.
    #[arg(long, value_name = "N")]
    pub qd: Option<u32>,
    /// Worker threads, each with its own queue.
    #[arg(long, value_name = "N")]
    pub threads: Option<u32>,
    /// How long to measure, after the ramp (e.g. 30s, 5m).
    #[arg(long, value_name = "TIME", conflicts_with_all = ["ops", "bytes"])]
    pub duration: Option<String>,
    /// Warm-up before measuring; excluded from the results.
    #[arg(long, value_name = "TIME")]
    pub ramp: Option<String>,
    /// Stop after this many I/Os in total instead of after a time (with several streams:
    /// this many in each stream).
    #[arg(long, value_name = "N", conflicts_with = "bytes")]
    pub ops: Option<u64>,
    /// Stop after this many bytes in total instead of after a time (with several streams:
    /// this many in each stream).
    #[arg(long, value_name = "SIZE")]
    pub bytes: Option<String>,
    /// Start of the region to use on each target.
    #[arg(long, value_name = "SIZE")]
    pub offset: Option<String>,
    /// Length of the region (default: to the end of the target).
    #[arg(long, value_name = "SIZE")]
    pub range: Option<String>,
    /// Spread of random offsets: uniform, zipf:THETA, pareto:H (0.2 = 80/20) or
    /// hotspot:IO/REGION (e.g. 90/10: 90 % of I/Os to the first 10 % of the region).
    #[arg(long, value_name = "SKEW")]
    pub skew: Option<String>,
    /// Write durability: dsync (O_DSYNC), fdatasync:N or fsync:N (a flush every N writes).
    #[arg(long, value_name = "MODE")]
    pub sync: Option<String>,
    /// Open loop: issue this many IOPS in total (with several streams: in each stream),
    /// latency measured from each scheduled start.
    #[arg(long, value_name = "IOPS")]
    pub rate: Option<u64>,
    /// I/O engine; sim models a device in virtual time instead of doing I/O (see --sim).
    #[arg(long, value_name = "ENGINE", default_value = "uring", value_parser = ["uring", "psync", "null", "sim"])]
    pub engine: String,
    /// Use the page cache instead of O_DIRECT (results are labelled buffered).
    #[arg(long)]
    pub buffered: bool,
    /// io_uring: polled completions (needs a device with poll queues).
    #[arg(long)]
    pub hipri: bool,
    /// io_uring: a kernel thread polls the submission queue.
    #[arg(long)]
    pub sqpoll: bool,
    /// While measuring, keep the CPUs out of idle states (poll, the default: a completion is
    /// not charged with a CPU's wake-up from idle; needs root) or leave them to the power
    /// manager (allow)
    #[arg(long, value_name = "POLICY", default_value = "poll", value_parser = ["poll", "allow"])]
    pub cpu_idle: String,
    /// Data written and prefilled: random (incompressible, every block unique; default),
    /// zeros, pattern:0xHH… (those bytes repeated), or dedupe:R,compress:C[,unit:SIZE]: the
    /// stream dedupes R:1 at the unit (default 8k; 4k to 128k) and its unique units compress
    /// C:1 with LZ4 and zstd (within 5 %, C up to 16). With dedupe or compress, every
    /// --bs and --align must be a multiple of the unit.
    #[arg(long, value_name = "KIND")]
    pub data: Option<String>,
    /// Allow writing to a block device or to an existing file dbio did not create.
    #[arg(long)]
    pub destroy_data: bool,
    /// Wait for steady state before measuring (after the ramp): iops:X% (every second of the
    /// window within X % of its mean), iops_slope:X% (least-squares slope below X % of the
    /// mean per second), bw:X%, bw_slope:X%.
    #[arg(long, value_name = "CRITERION")]
    pub steady: Option<String>,
    /// Window of one-second samples --steady judges (default 10s).
    #[arg(long, value_name = "TIME")]
    pub steady_window: Option<String>,
    /// Longest settling time; measuring starts then even if not settled (default 120s).
    #[arg(long, value_name = "TIME")]
    pub steady_max: Option<String>,
    /// Bursts: issue I/O only during the first ON of every PERIOD, e.g. 2s/10s (with --rate,
    /// the rate applies within the bursts).
    #[arg(long, value_name = "ON/PERIOD")]
    pub burst: Option<String>,
    /// Seed of the random choices, to repeat a run exactly.
    #[arg(long, value_name = "N", default_value_t = 0x6462_696f)]
    pub seed: u64,
    /// The device --engine sim models: a preset, a preset with changes, or settings alone
    /// (over nvme-gen3): nvme-gen3,channels=8 or channels=1,read=100us,write=100us,dist=exp,bw=3.2GB/s,link=10us.
    #[arg(long, value_name = "PRESET|KEY=V,...")]
    pub sim: Option<String>,
    /// Spacing of open-loop (--rate) I/Os: uniform (evenly spaced) or poisson (exponential gaps).
    #[arg(long, value_name = "KIND", default_value = "uniform", value_parser = ["uniform", "poisson"])]
    pub arrivals: String,
    /// Session mode, the SLOB method: N synchronous sessions (one thread each) instead of
    /// queue-depth workers; the report is AWR-like (wait events, load profile).
    #[arg(long, value_name = "N", help_heading = "Session mode (SLOB)")]
    pub sessions: Option<u32>,
    /// Pages read per operation: logically adjacent, physically scattered (SLOB's WORK_UNIT; default 64).
    #[arg(long, value_name = "PAGES", help_heading = "Session mode (SLOB)")]
    pub work_unit: Option<u32>,
    /// Read each work unit as one batch (db file parallel read) instead of one page at a
    /// time (db file sequential read).
    #[arg(long, help_heading = "Session mode (SLOB)")]
    pub batch_reads: bool,
    /// Operations per 100 that modify their pages and commit (SLOB's UPDATE_PCT; default 0).
    #[arg(long, value_name = "PCT", help_heading = "Session mode (SLOB)")]
    pub update_pct: Option<u32>,
    /// Redo bytes per modified page (default 512); redo goes to --target log=PATH, else to
    /// a file PATH.redo beside the data target.
    #[arg(long, value_name = "SIZE", help_heading = "Session mode (SLOB)")]
    pub redo_stress: Option<String>,
    /// Think time: after every N-th operation sleep a time drawn between MIN and MAX
    /// (e.g. 5:100us-2ms).
    #[arg(long, value_name = "N:MIN-MAX", help_heading = "Session mode (SLOB)")]
    pub think: Option<String>,
    /// Page reads per 100 served from the buffer pool, costing no I/O (default 0).
    #[arg(long, value_name = "PCT", help_heading = "Session mode (SLOB)")]
    pub cache_hit: Option<u32>,
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

const PROFILES_HELP: &str = "\
A profile is a TOML file of run settings, every key optional, written as on the command line:

  description = \"OLTP data file: 8 KiB random pages, 70 % reads\"
  rw = \"randrw\"          # read, write, randread, randwrite, randrw
  mix = 70               # read share in %, for randrw
  bs = \"8k\"              # or a distribution: \"8k:70,64k:20,256k:10\"
  align = \"8k\"           # offset alignment (default: the smallest block size)
  qd = 32                # outstanding I/Os per thread
  threads = 1
  skew = \"hotspot:90/10\" # or uniform, zipf:1.2, pareto:0.2 (random patterns)
  duration = \"30s\"       # also ramp, size, offset, range, sync (\"dsync\", \"fdatasync:N\"), rate, data
  burst = \"2s/10s\"       # I/O in the first 2 s of every 10 s
  steady = \"iops:2%\"     # settle before measuring; also steady_window, steady_max

Several streams at once, each on its own target role (see `dbio profiles --show oltp-mix`):
the top-level keys are defaults every stream inherits; duration and ramp stay at the top.

  [[stream]]
  name = \"log\"           # the stream's name in the result
  target = \"log\"         # its role: dbio run ... --target log=/mnt/log/f
  rw = \"write\"
  sync = \"dsync\"         # and any other key above

Run one with `dbio run NAME` (built-in) or `dbio run --profile FILE`; flags given on the
command line override the profile (for every stream of it: --qd 4 sets each stream's queue
depth), and keys it leaves out take the oltp profile's values.";

/// Flags of `dbio profiles`.
#[derive(Debug, Args)]
pub struct ProfilesArgs {
    /// Print the TOML of this built-in profile.
    #[arg(long, value_name = "NAME")]
    pub show: Option<String>,
}

const SWEEP_EXAMPLES: &str = "\
Examples:
  dbio sweep oltp-read --vary qd=1,2,4,8,16,32,64,128 --slo 'p99<1ms'  SLOB-style ramp, the knee under 1 ms
  dbio sweep oltp-read --vary qd=1..128x2 --duration 10s --ramp 2s
  dbio sweep dss --vary bs=8k,64k,256k,1m                              bandwidth against I/O size
  dbio sweep oltp --vary threads=1,2,4 --json sweep.json
  dbio sweep dss --vary bs=8k,64k,256k,1m --html dss.html             charts: latency vs IOPS, MB/s vs bs
  dbio sweep slob --vary sessions=1,4,8,16,32 --duration 30s          SLOB's ramp of sessions, AWR rows
  dbio sweep db --vary sessions=1,4,8,16,32,64 --url postgres://dbio@127.0.0.1/bench
                            the same ramp through a real PostgreSQL or MariaDB (see dbio db --help)
  dbio sweep oltp-read --vary qd=1..256x2 --target-latency 'p99<500us'   bisection, not every step
  dbio sweep oltp-read --engine sim --sim sata-ssd --vary qd=1..128x2 --slo 'p99<1ms'   simulated

Every flag of dbio run applies to each step; --ramp runs before each step, and --steady
settles each step before it is measured (a step that did not settle is marked *).
  dbio sweep oltp-read --vary qd=1..64x2 --steady iops:5% --steady-window 5s --steady-max 60s";

/// Flags of `dbio sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// The setting to vary and its values: qd=1,2,4,8 or qd=1..128x2; also threads=, sessions=,
    /// bs=, mix=, rate=.
    #[arg(long, value_name = "KEY=VALUES")]
    pub vary: String,
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

const REDUCE_EXAMPLES: &str = "\
Examples:
  dbio reduce /u01/oradata                     every file under the tree, at 8 KiB and 16 KiB units
  dbio reduce /dev/sdb --unit 4k,8k,16k,32k,128k   a device, read-only (no --destroy-data needed)
  dbio reduce backup.bak --buckets xtremio     round each compressed block up to 1 KiB steps
  dbio reduce /data --buckets 2k,4k,8k --json reduce.json
  dbio reduce /data --compress-sample          compress a uniform sample of at most 38,005 unique
                                               blocks (±1 % of the size at 99.9 %), not all of them
  dbio reduce /data --compress none            patterns and dedupe only (fastest)
  dbio reduce /big --mem 1GiB                  sampled dedupe if exact mode needs more than 1 GiB
  dbio reduce /big --sample 16 --seed 7        keep fingerprints with hash mod 16 == 7 % 16
  dbio reduce big.bin --buffered --threads 1   through the page cache, one hashing thread

Ratios as qdda defines them: pattern removal = all-zero or one-byte blocks, dedupe = blocks
left / unique blocks, compression = unique bytes / compressed bytes (each unique block on its
own, never larger than itself), total = 1/(1 - pattern) x dedupe x compression. Bucket presets:
xtremio (1 KiB steps), pure-like (512-byte steps).
Exit status: 0 done, 1 a path was skipped or could not be read (the rest were estimated),
2 bad input, 130 interrupted.";

/// Flags of `dbio reduce`.
#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help("Write the result as JSON to FILE, or to stdout with '-' (then the summary goes to stderr)")),
    mut_arg("quiet", |a| a.help("No progress display and no summary (errors still go to stderr)"))
)]
pub struct ReduceArgs {
    /// Files, directory trees (symlinks are not followed) and block devices to read.
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<String>,
    /// Dedupe units: sizes from 1k to 128k, powers of two.
    #[arg(long, value_name = "SIZE,...", default_value = "8k,16k")]
    pub unit: String,
    /// Compressors to run on the unique blocks: lz4, zstd (level 1), both, or none.
    #[arg(long, value_name = "LIST", default_value = "lz4,zstd")]
    pub compress: String,
    /// Round each LZ4-compressed block up to an array's bucket sizes: a preset (xtremio,
    /// pure-like), a list (2k,4k,8k) or a range in steps of its start (1k..16k).
    #[arg(long, value_name = "PRESET|SIZES")]
    pub buckets: Option<String>,
    /// Compress a uniform sample of unique blocks instead of every one: as many as give the
    /// bound N samples give by Hoeffding's inequality (default N 38,005: ±1 % of the size at
    /// 99.9 %); from D unique blocks that takes about N·D/(N+D) (Serfling's bound for sampling
    /// without replacement), printed beside the figure.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "38005")]
    pub compress_sample: Option<u64>,
    /// Memory the fingerprint tables may take (exact mode needs up to 32 bytes per block);
    /// above it a sampled mode is chosen. Default: half of MemAvailable.
    #[arg(long, value_name = "SIZE")]
    pub mem: Option<String>,
    /// Sampled dedupe whatever the memory: keep fingerprints with hash mod M == seed mod M.
    #[arg(long, value_name = "M")]
    pub sample: Option<u64>,
    /// Seed of the fingerprint hash (and the sampled residue), to repeat or vary a sample.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Worker threads hashing and compressing (default: one per CPU).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Read through the page cache instead of O_DIRECT.
    #[arg(long)]
    pub buffered: bool,
    #[command(flatten)]
    pub out: Outputs,
    #[command(flatten)]
    pub store: StoreArgs,
}
