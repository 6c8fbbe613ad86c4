//! What `dbio advise` was asked, checked before anything is read or connected to, and the
//! analysis of the counts a source gave under those settings.

use super::devices::Device;
use super::{advise, Latency, Options};
use dbio_model::advise::{AdviseResult, ObjectIo, SourceInfo};
use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::units::{parse_duration, parse_latency, parse_size};
use dbio_model::RunResult;
use std::time::Duration;

/// A refused setting of `dbio advise`; the message names the flag and what to give.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AdviseError {
    /// None or several of --url, --diskstats and exports.
    #[error("give one source: --url URL, --diskstats, or one or two export files (see dbio advise --help)")]
    OneSource,
    /// More than two exports.
    #[error(
        "{0} exports given: give one (counts since the server started) or two (before and after)"
    )]
    ManyExports(usize),
    /// A live-source flag with exports.
    #[error("--interval, --snapshot and --since are for live sources (--url, --diskstats); two exports give the difference")]
    LiveOnly,
    /// `--snapshot -`: a snapshot must be read back.
    #[error(
        "--snapshot needs a file name (it is read again with --since), e.g. --snapshot before.json"
    )]
    SnapshotStdout,
    /// `--partitions` with a database.
    #[error("--partitions is for /proc/diskstats, not a database")]
    PartitionsOfDatabase,
    /// An `--interval` outside 1s to 7d.
    #[error("--interval {0}: give a time from 1s to 7d, e.g. 60s or 5m")]
    Interval(String),
    /// A `--flash` budget of zero.
    #[error("--flash {0}: give a budget above zero, e.g. 500GiB")]
    ZeroBudget(String),
    /// Two `--flash` sizes.
    #[error("--flash: two budgets given; give one size (and at most one measured run)")]
    TwoBudgets,
    /// Two `--flash` runs.
    #[error("--flash: two runs given; give one measured flash device (and at most one size)")]
    TwoRuns,
    /// `--current` without `--flash RUN`.
    #[error("--current RUN needs --flash RUN: the two measured devices give the latency ratio")]
    CurrentAlone,
    /// `--flash-latency` with `--flash RUN`.
    #[error("--flash-latency is the assumption used without a measured flash device; give one or the other")]
    LatencyAndRun,
    /// A `--flash-latency` that is no latency above zero.
    #[error("--flash-latency {0}: give a latency above zero with its unit, e.g. 200us or 0.5ms")]
    FlashLatency(String),
    /// An `--io-wait-share` outside (0, 1].
    #[error(
        "--io-wait-share {0}: give a share of the time above 0 and at most 1, e.g. 0.4 or 40%"
    )]
    Share(String),
    /// A `--flash`/`--current` result that is no run, sweep or suite.
    #[error("{flag} {name}: not a run, sweep or suite result; give one measured on the device")]
    NotMeasured { flag: String, name: String },
    /// A `--flash`/`--current` run that cannot be found (`why` says where it was looked for).
    #[error("{flag} {name}: {why}")]
    NotFound {
        flag: String,
        name: String,
        why: String,
    },
    /// A measured result that gives no device figures.
    #[error("{flag} {why}")]
    Device { flag: String, why: String },
}

/// The flags of `dbio advise` as given, clap-free.
#[derive(Debug, Clone, Default)]
pub struct AdviseFlags {
    pub url: bool,
    pub diskstats: bool,
    pub partitions: bool,
    /// How many export files.
    pub exports: usize,
    pub interval: Option<String>,
    pub snapshot: Option<String>,
    pub since: bool,
    pub flash: Vec<String>,
    pub current: bool,
    pub flash_latency: Option<String>,
    pub io_wait_share: Option<String>,
}

/// The checked settings.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// `--flash SIZE` in bytes.
    pub budget: Option<u64>,
    /// `--flash RUN`: the measured flash device.
    pub flash_run: Option<String>,
    /// The assumed flash latency (ms) without a measured device.
    pub flash_ms: f64,
    /// `--io-wait-share`.
    pub io_wait: Option<f64>,
    /// Time between the two snapshots of a live source.
    pub interval: Duration,
}

/// Checks the flags, before anything is read or connected to.
pub fn plan(a: &AdviseFlags) -> Result<Plan, AdviseError> {
    sources(a)?;
    let interval = match &a.interval {
        Some(v) => match parse_duration(v) {
            Ok(d) if d >= Duration::from_secs(1) && d <= Duration::from_secs(7 * 86400) => d,
            _ => return Err(AdviseError::Interval(v.clone())),
        },
        None => Duration::from_secs(60),
    };
    let (budget, flash_run) = flash(&a.flash)?;
    if a.current && flash_run.is_none() {
        return Err(AdviseError::CurrentAlone);
    }
    if a.flash_latency.is_some() && flash_run.is_some() {
        return Err(AdviseError::LatencyAndRun);
    }
    let flash_ms = match &a.flash_latency {
        Some(v) => match parse_latency(v) {
            Ok(d) if !d.is_zero() && d <= Duration::from_secs(10) => d.as_secs_f64() * 1000.0,
            _ => return Err(AdviseError::FlashLatency(v.clone())),
        },
        None => 0.2,
    };
    let io_wait = a.io_wait_share.as_deref().map(share).transpose()?;
    Ok(Plan {
        budget,
        flash_run,
        flash_ms,
        io_wait,
        interval,
    })
}

/// One source, and the flags that go with it.
fn sources(a: &AdviseFlags) -> Result<(), AdviseError> {
    let sources = a.url as usize + a.diskstats as usize + (a.exports > 0) as usize;
    if sources != 1 {
        return Err(AdviseError::OneSource);
    }
    if a.exports > 2 {
        return Err(AdviseError::ManyExports(a.exports));
    }
    let live = a.exports == 0;
    if !live && (a.interval.is_some() || a.snapshot.is_some() || a.since) {
        return Err(AdviseError::LiveOnly);
    }
    if a.snapshot.as_deref() == Some("-") {
        return Err(AdviseError::SnapshotStdout);
    }
    if a.partitions && a.url {
        return Err(AdviseError::PartitionsOfDatabase);
    }
    Ok(())
}

/// `--flash` given once or twice: a budget (a size) and/or a measured run.
fn flash(values: &[String]) -> Result<(Option<u64>, Option<String>), AdviseError> {
    let (mut budget, mut flash_run) = (None, None);
    for v in values {
        let is_size =
            v.chars().any(|c| c.is_ascii_alphabetic()) && !std::path::Path::new(v).exists();
        // Run ids start at 1: a zero is a budget of nothing, whatever else it could name.
        let zero = !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.');
        match parse_size(v) {
            Ok(0) if is_size || zero => return Err(AdviseError::ZeroBudget(v.clone())),
            Ok(b) if is_size && budget.is_none() => budget = Some(b),
            Ok(_) if is_size => return Err(AdviseError::TwoBudgets),
            _ if flash_run.is_none() => flash_run = Some(v.clone()),
            _ => return Err(AdviseError::TwoRuns),
        }
    }
    Ok((budget, flash_run))
}

/// "0.4" or "40%" as a share in (0, 1].
pub fn share(v: &str) -> Result<f64, AdviseError> {
    let t = v.trim();
    let x = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => t.parse::<f64>(),
    };
    match x {
        Ok(p) if p > 0.0 && p <= 1.0 => Ok(p),
        _ => Err(AdviseError::Share(v.into())),
    }
}

/// A measured device from the JSON of a stored run, sweep or suite named `name` by `flag`.
pub fn device_of(flag: &str, name: &str, json: &str) -> Result<Device, AdviseError> {
    let runs: Vec<RunResult> = if let Ok(r) = serde_json::from_str::<RunResult>(json) {
        vec![r]
    } else if let Ok(s) = serde_json::from_str::<SweepResult>(json) {
        s.steps
    } else if let Ok(s) = serde_json::from_str::<SuiteResult>(json) {
        let sweeps = [s.oltp_read, s.log, s.dss, s.captured]
            .into_iter()
            .flatten()
            .flat_map(|w| w.steps);
        sweeps.chain(s.oltp_at_knee).chain(s.tempdb).collect()
    } else {
        return Err(AdviseError::NotMeasured {
            flag: flag.into(),
            name: name.into(),
        });
    };
    let refs: Vec<&RunResult> = runs.iter().collect();
    Device::from_runs(name, &refs).map_err(|why| AdviseError::Device {
        flag: flag.into(),
        why: why.to_string(),
    })
}

/// The counts a source gave, with where they came from.
#[derive(Debug, Clone)]
pub struct Counted {
    pub objects: Vec<ObjectIo>,
    pub notes: Vec<String>,
    /// The database's own I/O time and active time (ms), when it gives them.
    pub io_wait: Option<(f64, f64)>,
    pub source: SourceInfo,
    /// Seconds waited when an interruption cut the interval short.
    pub interrupted: Option<f64>,
}

/// The advice from the counts, under the checked settings and latency model.
pub fn analyse(p: &Plan, latency: Latency, c: Counted) -> AdviseResult {
    let mut notes = c.notes;
    if let Some(secs) = c.interrupted {
        notes.push(format!("interrupted: the second snapshot was taken after {secs:.1} s instead of the full interval"));
    }
    let own = c.io_wait.filter(|w| w.1 > 0.0).map(|(io_ms, busy_ms)| {
        (
            (io_ms / busy_ms).clamp(0.0, 1.0),
            "the database's own figure: I/O time / active time".to_string(),
        )
    });
    let io_wait = p
        .io_wait
        .map(|x| (x, "--io-wait-share".to_string()))
        .or(own);
    let o = Options {
        budget: p.budget,
        latency,
        io_wait_share: io_wait,
    };
    let made_at = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    advise(&c.objects, c.source, notes, made_at, &o)
}
