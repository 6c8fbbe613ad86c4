//! Command-line flags as typed but not yet validated (see `job.rs` for validation).

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
    Run(Box<RunArgs>),
    /// Run a profile once per value of one setting (queue depth, threads, block size, mix,
    /// rate), print a table as it goes, and find the knee and the saturation point.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep(Box<SweepArgs>),
    /// List the built-in workload profiles, or show one as TOML.
    #[command(after_help = PROFILES_HELP)]
    Profiles(ProfilesArgs),
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
    /// Size of a file dbio creates (default 1GiB; an existing file keeps its size).
    #[arg(long, value_name = "SIZE")]
    pub size: Option<String>,
    /// Access pattern.
    #[arg(long, value_name = "PATTERN", value_parser = ["read", "write", "randread", "randwrite", "randrw"])]
    pub rw: Option<String>,
    /// Share of reads in percent, for randrw.
    #[arg(long, value_name = "PCT")]
    pub mix: Option<u32>,
    /// Block size, or a weighted distribution like 8k:70,64k:20,256k:10.
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
    /// Data written and prefilled: random (incompressible, every block unique; default),
    /// zeros, pattern:0xHH… (those bytes repeated), or dedupe:R,compress:C[,unit:SIZE]: the
    /// stream dedupes R:1 at the unit (default 8k; 4k to 128k) and its unique units compress
    /// C:1 with LZ4 and zstd (C up to 16; tightest up to 8). With dedupe or compress, every
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
    /// Write the result as JSON to FILE, or to stdout with '-' (then the summary goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// No progress display and no summary (errors and warnings still go to stderr).
    #[arg(long, short)]
    pub quiet: bool,
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
  dbio sweep slob --vary sessions=1,4,8,16,32 --duration 30s          SLOB's ramp of sessions, AWR rows
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
