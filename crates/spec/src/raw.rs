//! The raw description of a run: the flags of `dbio run` as plain data, before any check.
//! The command line fills it from its flags; the fuzz targets and tests fill it directly.

/// Target of a run that names none.
pub const DEFAULT_TARGET: &str = "./dbio-testfile";

/// What a user wrote for one run, unchecked: `None` (or `false`) where a flag was not given,
/// so a profile's value or the default applies. [`RawJob::check`] makes a job of it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "clap", derive(clap::Args))]
pub struct RawJob {
    /// Built-in profile to run (see `dbio profiles`); default: oltp.
    #[cfg_attr(
        feature = "clap",
        arg(value_name = "PROFILE", conflicts_with = "profile_file")
    )]
    pub profile: Option<String>,
    /// Run the profile in this TOML file instead of a built-in one.
    #[cfg_attr(feature = "clap", arg(long = "profile", value_name = "FILE"))]
    pub profile_file: Option<String>,
    /// One of several streams run at once, as a profile's [[stream]] table written inline
    /// (repeat for each): '{name = "log", target = "log", rw = "write", bs = "60k", qd = 1}';
    /// --target ROLE=PATH names the file or device of each role, the other flags apply to all.
    #[cfg_attr(
        feature = "clap",
        arg(long = "stream", value_name = "TABLE", conflicts_with_all = ["profile", "profile_file"])
    )]
    pub streams: Vec<String>,
    /// File or block device to test; repeat for several (I/O is spread across them).
    /// A missing file is created, sized and prefilled with incompressible data. With a
    /// multi-stream profile, ROLE=PATH names the target of a role (e.g. log=/mnt/log/f); a
    /// plain PATH takes the first role and puts every other role on PATH.ROLE beside it.
    /// [default: ./dbio-testfile; refused with --engine sim, which touches no file]
    #[cfg_attr(
        feature = "clap",
        arg(long = "target", short = 't', value_name = "PATH")
    )]
    pub targets: Vec<String>,
    /// Size of the file (default 1GiB). A file dbio created is resized to it; one it did
    /// not create keeps its size, and another --size is refused.
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE"))]
    pub size: Option<String>,
    /// Access pattern; readwrite is sequential reads and writes mixed by --mix, each
    /// direction with its own cursor (fio's rw=rw).
    #[cfg_attr(feature = "clap", arg(long, value_name = "PATTERN", value_parser = ["read", "write", "randread", "randwrite", "randrw", "readwrite"]))]
    pub rw: Option<String>,
    /// Share of reads in percent, for randrw and readwrite.
    #[cfg_attr(feature = "clap", arg(long, value_name = "PCT"))]
    pub mix: Option<u32>,
    /// Block size, or a weighted distribution like 8k:70,64k:20,256k:10 (weights are
    /// relative: 8k:7,64k:3 is the same 70/30).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE[:W],..."))]
    pub bs: Option<String>,
    /// Alignment of offsets (default: the smallest block size).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE"))]
    pub align: Option<String>,
    /// Outstanding I/Os per thread.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub qd: Option<u32>,
    /// Worker threads, each with its own queue.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N"))]
    pub threads: Option<u32>,
    /// How long to measure, after the ramp (e.g. 30s, 5m).
    #[cfg_attr(feature = "clap", arg(long, value_name = "TIME", conflicts_with_all = ["ops", "bytes"]))]
    pub duration: Option<String>,
    /// Warm-up before measuring; excluded from the results.
    #[cfg_attr(feature = "clap", arg(long, value_name = "TIME"))]
    pub ramp: Option<String>,
    /// Stop after this many I/Os in total instead of after a time (with several streams:
    /// this many in each stream).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", conflicts_with = "bytes")
    )]
    pub ops: Option<u64>,
    /// Stop after this many bytes in total instead of after a time (with several streams:
    /// this many in each stream).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE"))]
    pub bytes: Option<String>,
    /// Start of the region to use on each target.
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE"))]
    pub offset: Option<String>,
    /// Length of the region (default: to the end of the target).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SIZE"))]
    pub range: Option<String>,
    /// Spread of random offsets: uniform, zipf:THETA, pareto:H (0.2 = 80/20) or
    /// hotspot:IO/REGION (e.g. 90/10: 90 % of I/Os to the first 10 % of the region).
    #[cfg_attr(feature = "clap", arg(long, value_name = "SKEW"))]
    pub skew: Option<String>,
    /// Write durability: dsync (O_DSYNC), fdatasync:N or fsync:N (a flush every N writes).
    #[cfg_attr(feature = "clap", arg(long, value_name = "MODE"))]
    pub sync: Option<String>,
    /// Open loop: issue this many IOPS in total (with several streams: in each stream),
    /// latency measured from each scheduled start.
    #[cfg_attr(feature = "clap", arg(long, value_name = "IOPS"))]
    pub rate: Option<u64>,
    /// I/O engine; sim models a device in virtual time instead of doing I/O (see --sim).
    #[cfg_attr(feature = "clap", arg(long, value_name = "ENGINE", default_value = "uring", value_parser = ["uring", "psync", "null", "sim"]))]
    pub engine: String,
    /// Use the page cache instead of O_DIRECT (results are labelled buffered).
    #[cfg_attr(feature = "clap", arg(long))]
    pub buffered: bool,
    /// With --buffered: drop the targets' pages from the page cache before measuring, and again
    /// after each pass over the region, so reads keep reaching the device (fio's invalidate=1).
    #[cfg_attr(feature = "clap", arg(long))]
    pub invalidate: bool,
    /// io_uring: polled completions (needs a device with poll queues).
    #[cfg_attr(feature = "clap", arg(long))]
    pub hipri: bool,
    /// io_uring: a kernel thread polls the submission queue.
    #[cfg_attr(feature = "clap", arg(long))]
    pub sqpoll: bool,
    /// Also trace the targets' disks in the block layer while measuring, and say per
    /// direction how much of the latency was the kernel's queue and how much the device's
    /// own (needs root; not for a target in memory).
    #[cfg_attr(feature = "clap", arg(long))]
    pub device_latency: bool,
    /// While measuring, keep the CPUs out of idle states (poll, the default: a completion is
    /// not charged with a CPU's wake-up from idle; needs root) or leave them to the power
    /// manager (allow)
    #[cfg_attr(feature = "clap", arg(long, value_name = "POLICY", default_value = "poll", value_parser = ["poll", "allow"]))]
    pub cpu_idle: String,
    /// Data written and prefilled: random (incompressible, every block unique; default),
    /// zeros, pattern:0xHH… (those bytes repeated), or dedupe:R,compress:C[,unit:SIZE]: the
    /// stream dedupes R:1 at the unit (default 8k; 4k to 128k) and its unique units compress
    /// C:1 with LZ4 and zstd (within 5 %, C up to 16). With dedupe or compress, every
    /// --bs and --align must be a multiple of the unit.
    #[cfg_attr(feature = "clap", arg(long, value_name = "KIND"))]
    pub data: Option<String>,
    /// Allow writing to a block device or to an existing file dbio did not create.
    #[cfg_attr(feature = "clap", arg(long))]
    pub destroy_data: bool,
    /// Wait for steady state before measuring (after the ramp): iops:X% (every second of the
    /// window within X % of its mean), iops_slope:X% (least-squares slope below X % of the
    /// mean per second), bw:X%, bw_slope:X%.
    #[cfg_attr(feature = "clap", arg(long, value_name = "CRITERION"))]
    pub steady: Option<String>,
    /// Window of one-second samples --steady judges (default 10s).
    #[cfg_attr(feature = "clap", arg(long, value_name = "TIME"))]
    pub steady_window: Option<String>,
    /// Longest settling time; measuring starts then even if not settled (default 120s).
    #[cfg_attr(feature = "clap", arg(long, value_name = "TIME"))]
    pub steady_max: Option<String>,
    /// Bursts: issue I/O only during the first ON of every PERIOD, e.g. 2s/10s (with --rate,
    /// the rate applies within the bursts).
    #[cfg_attr(feature = "clap", arg(long, value_name = "ON/PERIOD"))]
    pub burst: Option<String>,
    /// Seed of the random choices, to repeat a run exactly.
    #[cfg_attr(feature = "clap", arg(long, value_name = "N", default_value_t = DEFAULT_SEED))]
    pub seed: u64,
    /// The device --engine sim models: a preset, a preset with changes, or settings alone
    /// (over nvme-gen3): nvme-gen3,channels=8 or channels=1,read=100us,write=100us,dist=exp,bw=3.2GB/s,link=10us.
    #[cfg_attr(feature = "clap", arg(long, value_name = "PRESET|KEY=V,..."))]
    pub sim: Option<String>,
    /// Spacing of open-loop (--rate) I/Os: uniform (evenly spaced) or poisson (exponential gaps).
    #[cfg_attr(feature = "clap", arg(long, value_name = "KIND", default_value = "uniform", value_parser = ["uniform", "poisson"]))]
    pub arrivals: String,
    /// Session mode, the SLOB method: N synchronous sessions (one thread each) instead of
    /// queue-depth workers; the report is AWR-like (wait events, load profile).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N", help_heading = "Session mode (SLOB)")
    )]
    pub sessions: Option<u32>,
    /// Pages read per operation: logically adjacent, physically scattered (SLOB's WORK_UNIT; default 64).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "PAGES", help_heading = "Session mode (SLOB)")
    )]
    pub work_unit: Option<u32>,
    /// Read each work unit as one batch (db file parallel read) instead of one page at a
    /// time (db file sequential read).
    #[cfg_attr(feature = "clap", arg(long, help_heading = "Session mode (SLOB)"))]
    pub batch_reads: bool,
    /// Operations per 100 that modify their pages and commit (SLOB's UPDATE_PCT; default 0).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "PCT", help_heading = "Session mode (SLOB)")
    )]
    pub update_pct: Option<u32>,
    /// Redo bytes per modified page (default 512); redo goes to --target log=PATH, else to
    /// a file PATH.redo beside the data target.
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "SIZE", help_heading = "Session mode (SLOB)")
    )]
    pub redo_stress: Option<String>,
    /// Think time: after every N-th operation sleep a time drawn between MIN and MAX
    /// (e.g. 5:100us-2ms).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "N:MIN-MAX", help_heading = "Session mode (SLOB)")
    )]
    pub think: Option<String>,
    /// Page reads per 100 served from the buffer pool, costing no I/O (default 0).
    #[cfg_attr(
        feature = "clap",
        arg(long, value_name = "PCT", help_heading = "Session mode (SLOB)")
    )]
    pub cache_hit: Option<u32>,
    /// `--split-region` as given (`Some("")` for the flag alone).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub split_region: Option<String>,
    /// Whether the run is on several hosts (`--hosts` or `--hosts-file` given).
    #[cfg_attr(feature = "clap", arg(skip))]
    pub on_hosts: bool,
    /// `--verify`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub verify: bool,
    /// `--verify-journal`.
    #[cfg_attr(feature = "clap", arg(skip))]
    pub verify_journal: Option<String>,
}

impl Default for RawJob {
    /// A plain `dbio run`: no flag given, the command line's defaults where a flag has one.
    fn default() -> RawJob {
        RawJob {
            profile: None,
            profile_file: None,
            streams: Vec::new(),
            targets: Vec::new(),
            size: None,
            rw: None,
            mix: None,
            bs: None,
            align: None,
            qd: None,
            threads: None,
            duration: None,
            ramp: None,
            ops: None,
            bytes: None,
            offset: None,
            range: None,
            skew: None,
            sync: None,
            rate: None,
            engine: "uring".into(),
            buffered: false,
            invalidate: false,
            hipri: false,
            device_latency: false,
            sqpoll: false,
            cpu_idle: "poll".into(),
            data: None,
            destroy_data: false,
            steady: None,
            steady_window: None,
            steady_max: None,
            burst: None,
            seed: DEFAULT_SEED,
            sim: None,
            arrivals: "uniform".into(),
            sessions: None,
            work_unit: None,
            batch_reads: false,
            update_pct: None,
            redo_stress: None,
            think: None,
            cache_hit: None,
            split_region: None,
            on_hosts: false,
            verify: false,
            verify_journal: None,
        }
    }
}

/// Seed of a run that names none ("dbio" in ASCII).
pub const DEFAULT_SEED: u64 = 0x6462_696f;

impl RawJob {
    /// The `--target` values as given, or the default test file when none is.
    pub fn target_values(&self) -> Vec<String> {
        if self.targets.is_empty() {
            vec![DEFAULT_TARGET.to_string()]
        } else {
            self.targets.clone()
        }
    }
}
