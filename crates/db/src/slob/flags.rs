//! The flags of `dbio db setup` and `dbio db run` as plain data, checked into the options a
//! setup or a run takes; the error names the flag, the value and what to try.

use super::run::RunOpts;
use super::setup::SetupOpts;
use crate::DbError;
use dbio_model::units::{parse_duration, parse_size};
use std::time::Duration;

/// Why the flags make no setup or run.
#[derive(Debug, thiserror::Error)]
pub enum FlagError {
    /// A time that does not parse.
    #[error("{flag} {value}: {why}")]
    Duration {
        flag: &'static str,
        value: String,
        why: String,
    },
    #[error("--think {0}: MIN:MAX with MIN at most MAX")]
    Think(String),
    #[error("--sessions {0}: use 1 to 4096")]
    Sessions(u32),
    #[error("--work-unit {0}: use 1 to 10000 keys")]
    WorkUnit(u32),
    #[error("--update-pct {0}: use 0 to 100")]
    UpdatePct(u8),
    #[error("--duration: give a time above zero, e.g. 30s")]
    ZeroDuration,
    /// A URL of no database dbio knows.
    #[error("{0}")]
    Url(DbError),
    #[error("--lock-memory {0}: give a size such as 512MiB or 4GiB")]
    LockMemory(String),
    #[error("--size {0}: give a size such as 256MiB or 1GiB")]
    Size(String),
}

/// The flags of `dbio db run` (and of each step of a database sweep), unchecked.
#[derive(Debug, Clone)]
pub struct RunFlags {
    pub url: String,
    pub sessions: u32,
    pub work_unit: u32,
    pub update_pct: u8,
    /// `--think MIN` or `MIN:MAX`.
    pub think: Option<String>,
    pub duration: String,
    pub ramp: String,
    pub seed: u64,
    /// `--lock-memory SIZE`.
    pub lock_memory: Option<String>,
}

/// `value` of `flag` as a time.
fn time(flag: &'static str, value: &str) -> Result<Duration, FlagError> {
    parse_duration(value).map_err(|e| FlagError::Duration {
        flag,
        value: value.to_string(),
        why: e.to_string(),
    })
}

impl RunFlags {
    /// The run's settings, checked in the flags' order.
    pub fn check(&self) -> Result<RunOpts, FlagError> {
        let think_ns = match self.think.as_deref() {
            None => None,
            Some(t) => {
                let (lo, hi) = t.split_once(':').unwrap_or((t, t));
                let (lo, hi) = (time("--think", lo)?, time("--think", hi)?);
                if hi < lo {
                    return Err(FlagError::Think(t.to_string()));
                }
                Some((lo.as_nanos() as u64, hi.as_nanos() as u64))
            }
        };
        if self.sessions == 0 || self.sessions > 4096 {
            return Err(FlagError::Sessions(self.sessions));
        }
        if self.work_unit == 0 || self.work_unit > 10_000 {
            return Err(FlagError::WorkUnit(self.work_unit));
        }
        if self.update_pct > 100 {
            return Err(FlagError::UpdatePct(self.update_pct));
        }
        let duration = time("--duration", &self.duration)?;
        if duration.is_zero() {
            return Err(FlagError::ZeroDuration);
        }
        crate::url::system(&self.url).map_err(FlagError::Url)?;
        let lock_bytes = match self.lock_memory.as_deref() {
            None => 0,
            Some(v) => match parse_size(v) {
                Ok(b) if b > 0 => b,
                _ => return Err(FlagError::LockMemory(v.to_string())),
            },
        };
        Ok(RunOpts {
            sessions: self.sessions,
            work_unit: self.work_unit,
            update_pct: self.update_pct,
            think_ns,
            ramp: time("--ramp", &self.ramp)?,
            duration,
            seed: self.seed,
            lock_bytes,
        })
    }
}

/// The flags of `dbio db setup`, unchecked.
#[derive(Debug, Clone)]
pub struct SetupFlags {
    pub sessions: u32,
    /// `--size` of each table.
    pub size: String,
    pub parallel: u32,
}

impl SetupFlags {
    /// The setup's settings, checked: a size above zero, 1 to 4096 sessions.
    pub fn check(&self) -> Result<SetupOpts, FlagError> {
        let table_bytes = match parse_size(&self.size) {
            Ok(s) if s > 0 => s,
            _ => return Err(FlagError::Size(self.size.clone())),
        };
        if self.sessions == 0 || self.sessions > 4096 {
            return Err(FlagError::Sessions(self.sessions));
        }
        Ok(SetupOpts {
            sessions: self.sessions,
            table_bytes,
            parallel: self.parallel.max(1),
        })
    }
}
