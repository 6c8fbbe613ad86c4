//! Session mode (`--sessions`, the SLOB method): its flags and profile keys, checked and
//! turned into the job's SessionSpec.

use crate::error::SpecError;
use crate::raw::RawJob;
use dbio_model::session::{SessionSpec, Think};
use dbio_model::units::{parse_duration, parse_size};
use dbio_model::{BsWeight, EngineKind, Rw, StopAfter};

/// SLOB's WORK_UNIT default.
const DEFAULT_WORK_UNIT: u32 = 64;
/// Redo per modified page when not given.
const DEFAULT_REDO_STRESS: u64 = 512;
/// Most pages the data writer writes in one batch.
const WRITE_BATCH: u32 = 64;

/// Session settings after merging flags over the profile.
pub struct SessionSettings {
    /// `--sessions`.
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
}

/// Parses `N:MIN-MAX`: after every N-th operation, think between MIN and MAX.
pub fn parse_think(v: &str) -> Result<Think, SpecError> {
    let bad = |why: &str| format!("--think {v}: {why}; write N:MIN-MAX, e.g. 5:100us-2ms");
    let (every, range) = v.split_once(':').ok_or_else(|| bad("no N:"))?;
    let every: u32 = every
        .trim()
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| bad("N must be a whole number of operations, 1 or more"))?;
    let (min, max) = range.split_once('-').ok_or_else(|| bad("no MIN-MAX"))?;
    let d = |x: &str| parse_duration(x).map_err(|e| bad(&e.to_string()));
    let (min, max) = (d(min)?.as_nanos() as u64, d(max)?.as_nanos() as u64);
    if min > max {
        return Err(bad("MIN is above MAX").into());
    }
    Ok(Think {
        every,
        min_ns: min,
        max_ns: max,
    })
}

/// Splits the targets into data targets and the log target (`log=PATH`); `data=PATH` and
/// plain paths are data targets. Without a log target the redo goes to `<first>.redo`.
pub fn roles(targets: &[String]) -> Result<(Vec<String>, String), SpecError> {
    let mut data = Vec::new();
    let mut log = None;
    for t in targets {
        match crate::targets::split_role(t) {
            Some(("log", p)) if log.is_none() => log = Some(p.to_string()),
            Some(("log", _)) => return Err("--target log=PATH: give one log target".into()),
            Some(("data", p)) => data.push(p.to_string()),
            Some((role, _)) => {
                return Err(format!(
                    "--target {t}: unknown role '{role}'; session mode knows data=PATH and log=PATH"
                )
                .into())
            }
            None => data.push(t.clone()),
        }
    }
    if data.is_empty() {
        return Err("session mode needs a data target: --target PATH or --target data=PATH".into());
    }
    let log = match log {
        Some(l) => l,
        None => {
            use std::os::unix::fs::FileTypeExt;
            let device = std::fs::metadata(&data[0]).is_ok_and(|m| m.file_type().is_block_device());
            if device {
                return Err(format!(
                    "--target {}: a block device has no folder for the redo file beside it; give the log its own target: --target log=PATH",
                    data[0]
                )
                .into());
            }
            format!("{}.redo", data[0])
        }
    };
    Ok((data, log))
}

/// What session mode makes of the job: the values it sets in place of the flags' and the
/// session itself. The settings it clears (sync, rate, steady, burst) are none.
pub struct SessionJob {
    /// The data targets (the log target is in `spec`).
    pub targets: Vec<String>,
    /// Reads, or reads and writes when some operations update.
    pub rw: Rw,
    /// The read share.
    pub read_pct: u8,
    /// One thread per session.
    pub threads: u32,
    /// One page at a time, or the work unit at once with batched reads.
    pub qd: u32,
    /// The session settings of the job.
    pub spec: SessionSpec,
}

/// The job's session mode when `--sessions` (or the profile) asks for it, or why the other
/// settings do not fit it. `bs`, `targets` and `stop` are the job's as merged.
pub fn session_job(
    s: &SessionSettings,
    a: &RawJob,
    engine: EngineKind,
    bs: &[BsWeight],
    targets: &[String],
    stop: &StopAfter,
) -> Result<Option<SessionJob>, SpecError> {
    let Some(sessions) = s.sessions else {
        return stray(s).map(|()| None);
    };
    if engine == EngineKind::Sim {
        return Err("--sessions: session mode does real I/O with its own log writer; --engine sim does not model it".into());
    }
    if sessions == 0 || sessions > 4096 {
        return Err(format!("--sessions {sessions}: use 1 to 4096 sessions").into());
    }
    not_here(a)?;
    if bs.len() != 1 {
        return Err("--bs: session mode reads pages of one size; give one size, e.g. 8k".into());
    }
    let page = bs[0].size;
    let work_unit = s.work_unit.unwrap_or(DEFAULT_WORK_UNIT);
    if work_unit == 0 || work_unit > 1024 {
        return Err(format!("--work-unit {work_unit}: use 1 to 1024 pages").into());
    }
    let pct = |k: &str, v: Option<u32>| match v {
        Some(p) if p > 100 => Err(format!("--{k} {p}: a percentage, 0 to 100")),
        v => Ok(v.unwrap_or(0) as u8),
    };
    let update_pct = pct("update-pct", s.update_pct)?;
    let cache_hit_pct = pct("cache-hit", s.cache_hit)?;
    let redo_stress = match &s.redo_stress {
        Some(v) => parse_size(v).map_err(|e| format!("--redo-stress: {e}"))?,
        None => DEFAULT_REDO_STRESS,
    };
    if redo_stress == 0 || redo_stress > 64 << 10 {
        return Err(
            format!("--redo-stress {redo_stress}: use 1 byte to 64 KiB of redo per page").into(),
        );
    }
    let think = s.think.as_deref().map(parse_think).transpose()?;
    let (data, log) = roles(targets)?;
    // The job as the runner sees it: one thread per session, reads of one page at a time
    // (or the work unit at once), and writes when some operations update.
    let wu = work_unit as u64;
    let reads = wu * (100 - cache_hit_pct as u64);
    let writes = wu * update_pct as u64;
    let (rw, read_pct) = if update_pct == 0 {
        (Rw::RandRead, 100)
    } else {
        (Rw::RandRw, (reads * 100 / (reads + writes).max(1)) as u8)
    };
    if matches!(stop, StopAfter::Bytes(_)) {
        return Err("--bytes does not apply to session mode: use --ops or --duration".into());
    }
    Ok(Some(SessionJob {
        targets: data,
        rw,
        read_pct,
        threads: sessions,
        qd: if s.batch_reads { work_unit } else { 1 },
        spec: SessionSpec {
            sessions,
            page,
            work_unit,
            batch_reads: s.batch_reads,
            update_pct,
            redo_stress,
            cache_hit_pct,
            think,
            log_target: log,
            write_batch: WRITE_BATCH,
        },
    }))
}

/// Without session mode, refuses the settings that only session mode has.
fn stray(s: &SessionSettings) -> Result<(), SpecError> {
    let stray = [
        ("work-unit", s.work_unit.is_some()),
        ("batch-reads", s.batch_reads),
        ("update-pct", s.update_pct.is_some()),
        ("redo-stress", s.redo_stress.is_some()),
        ("think", s.think.is_some()),
        ("cache-hit", s.cache_hit.is_some()),
    ];
    match stray.iter().find(|(_, set)| *set) {
        Some((k, _)) => {
            Err(format!("--{k} applies to session mode; add --sessions N (the SLOB method)").into())
        }
        None => Ok(()),
    }
}

/// In session mode, refuses the flags that session mode decides itself.
fn not_here(a: &RawJob) -> Result<(), SpecError> {
    let not_here = [
        (
            "rw",
            a.rw.is_some(),
            "sessions read pages and --update-pct decides the writes",
        ),
        ("mix", a.mix.is_some(), "--update-pct decides the writes"),
        (
            "qd",
            a.qd.is_some(),
            "each session is synchronous; vary --sessions instead",
        ),
        (
            "threads",
            a.threads.is_some(),
            "each session is a thread; use --sessions",
        ),
        (
            "rate",
            a.rate.is_some(),
            "sessions are a closed loop; slow them with --think",
        ),
        (
            "sync",
            a.sync.is_some(),
            "redo writes are always durable (O_DSYNC)",
        ),
        (
            "bytes",
            a.bytes.is_some(),
            "use --ops (operations) or --duration",
        ),
    ];
    match not_here.iter().find(|(_, set, _)| *set) {
        Some((k, _, why)) => Err(format!("--{k} does not apply to session mode: {why}").into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_and_roles() {
        let t = parse_think("5:100us-2ms").unwrap();
        assert_eq!((t.every, t.min_ns, t.max_ns), (5, 100_000, 2_000_000));
        for bad in ["5", "0:1ms-2ms", "5:2ms-1ms", "5:1ms", "x:1ms-2ms"] {
            assert!(parse_think(bad)
                .unwrap_err()
                .to_string()
                .starts_with(&format!("--think {bad}: ")));
        }
        let t = |v: &[&str]| roles(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            t(&["/d/f"]).unwrap(),
            (vec!["/d/f".into()], "/d/f.redo".into())
        );
        assert_eq!(
            t(&["data=/d/f", "log=/l/f"]).unwrap(),
            (vec!["/d/f".into()], "/l/f".into())
        );
        assert!(t(&["log=/l/f"])
            .unwrap_err()
            .to_string()
            .contains("needs a data target"));
        assert!(t(&["temp=/x"])
            .unwrap_err()
            .to_string()
            .contains("unknown role 'temp'"));
    }
}
