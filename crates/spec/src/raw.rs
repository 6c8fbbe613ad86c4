//! The raw description of a run: the flags of `dbio run` as plain data, before any check.
//! The command line fills it from its flags; the fuzz targets and tests fill it directly.

/// Target of a run that names none.
pub const DEFAULT_TARGET: &str = "./dbio-testfile";

/// What a user wrote for one run, unchecked: `None` (or `false`) where a flag was not given,
/// so a profile's value or the default applies. [`RawJob::check`] makes a job of it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawJob {
    /// A built-in profile's name (`--profile`).
    pub profile: Option<String>,
    /// A profile file (`--profile-file`).
    pub profile_file: Option<String>,
    /// `--target` values as given (paths, or `ROLE=PATH`).
    pub targets: Vec<String>,
    /// `--size`.
    pub size: Option<String>,
    /// `--rw`.
    pub rw: Option<String>,
    /// `--mix`: the read share of randrw.
    pub mix: Option<u32>,
    /// `--bs`.
    pub bs: Option<String>,
    /// `--align`.
    pub align: Option<String>,
    /// `--qd`.
    pub qd: Option<u32>,
    /// `--threads`.
    pub threads: Option<u32>,
    /// `--duration`.
    pub duration: Option<String>,
    /// `--ramp`.
    pub ramp: Option<String>,
    /// `--ops`.
    pub ops: Option<u64>,
    /// `--bytes`.
    pub bytes: Option<String>,
    /// `--offset`.
    pub offset: Option<String>,
    /// `--range`.
    pub range: Option<String>,
    /// `--skew`.
    pub skew: Option<String>,
    /// `--sync`.
    pub sync: Option<String>,
    /// `--rate` in IOPS.
    pub rate: Option<u64>,
    /// `--engine`: uring, psync, null or sim.
    pub engine: String,
    /// `--buffered`.
    pub buffered: bool,
    /// `--hipri`.
    pub hipri: bool,
    /// `--sqpoll`.
    pub sqpoll: bool,
    /// `--cpu-idle`: poll or allow.
    pub cpu_idle: String,
    /// `--data`.
    pub data: Option<String>,
    /// `--destroy-data`.
    pub destroy_data: bool,
    /// `--steady`.
    pub steady: Option<String>,
    /// `--steady-window`.
    pub steady_window: Option<String>,
    /// `--steady-max`.
    pub steady_max: Option<String>,
    /// `--burst`.
    pub burst: Option<String>,
    /// `--seed`.
    pub seed: u64,
    /// `--sim`: the simulated device.
    pub sim: Option<String>,
    /// `--arrivals`: uniform or poisson.
    pub arrivals: String,
    /// `--sessions` (session mode).
    pub sessions: Option<u32>,
    /// `--work-unit`.
    pub work_unit: Option<u32>,
    /// `--batch-reads`.
    pub batch_reads: bool,
    /// `--update-pct`.
    pub update_pct: Option<u32>,
    /// `--redo-stress`.
    pub redo_stress: Option<String>,
    /// `--think`.
    pub think: Option<String>,
    /// `--cache-hit`.
    pub cache_hit: Option<u32>,
    /// `--split-region` as given (`Some("")` for the flag alone).
    pub split_region: Option<String>,
    /// Whether the run is on several hosts (`--hosts` or `--hosts-file` given).
    pub on_hosts: bool,
    /// `--verify`.
    pub verify: bool,
    /// `--verify-journal`.
    pub verify_journal: Option<String>,
}

impl Default for RawJob {
    /// A plain `dbio run`: no flag given, the command line's defaults where a flag has one.
    fn default() -> RawJob {
        RawJob {
            profile: None,
            profile_file: None,
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
            hipri: false,
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
