//! A sweep's steps as values: the validated job with one setting changed ([`Vary`]) and
//! checked again as a job. A local sweep and a fleet sweep step through the same jobs.

use crate::error::SpecError;
use crate::rules::check;
use dbio_model::{BsWeight, JobSpec};

/// The settings a sweep can vary, as `--vary` names them.
pub const KEYS: [&str; 6] = ["qd", "threads", "sessions", "bs", "mix", "rate"];

/// One setting of a job, changed to one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vary {
    /// Outstanding I/Os per thread.
    Qd(u32),
    /// Worker threads.
    Threads(u32),
    /// Sessions of a session-mode job (one thread each).
    Sessions(u32),
    /// One block size, in bytes (the alignment follows it where it was the block size's).
    Bs(u64),
    /// The read share of a `randrw` job, in percent.
    Mix(u32),
    /// The open-loop rate in IOPS.
    Rate(u64),
    /// The base job's rate times this many hundredths (`rate=2x`: 200), e.g. a captured
    /// workload's profile pushed harder.
    RateTimes(u64),
}

impl Vary {
    /// The value of setting `key` (one of [`KEYS`]) as a typed change; Err names the key
    /// or the value that does not fit.
    pub fn of(key: &str, n: u64) -> Result<Vary, SpecError> {
        let small = || {
            u32::try_from(n)
                .map_err(|_| format!("{key}={n}: too large for {key}; use a smaller value"))
        };
        Ok(match key {
            "qd" => Vary::Qd(small()?),
            "threads" => Vary::Threads(small()?),
            "sessions" => Vary::Sessions(small()?),
            "mix" => Vary::Mix(small()?),
            "bs" => Vary::Bs(n),
            "rate" => Vary::Rate(n),
            _ => {
                return Err(format!("cannot vary '{key}'; vary one of {}", KEYS.join(", ")).into())
            }
        })
    }

    /// The setting's name, as `--vary` writes it.
    pub fn key(&self) -> &'static str {
        match self {
            Vary::Qd(_) => "qd",
            Vary::Threads(_) => "threads",
            Vary::Sessions(_) => "sessions",
            Vary::Bs(_) => "bs",
            Vary::Mix(_) => "mix",
            Vary::Rate(_) | Vary::RateTimes(_) => "rate",
        }
    }

    /// The value as a sweep's table shows it (block sizes as 8k, 1m).
    pub fn value_text(&self) -> String {
        match *self {
            Vary::Qd(n) | Vary::Threads(n) | Vary::Sessions(n) | Vary::Mix(n) => n.to_string(),
            Vary::Rate(n) => n.to_string(),
            Vary::RateTimes(h) => format!("{}x", h as f64 / 100.0),
            Vary::Bs(b) if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}m", b >> 20),
            Vary::Bs(b) if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}k", b >> 10),
            Vary::Bs(b) => b.to_string(),
        }
    }

    /// `job` with this setting changed, checked again as a job; Err says why this value
    /// cannot apply to this job.
    pub fn apply(&self, job: &JobSpec) -> Result<JobSpec, SpecError> {
        let mut j = job.clone();
        let key = self.key();
        let no_session = |why: &str| -> Result<(), SpecError> {
            match job.session {
                Some(_) => {
                    Err(format!("--vary {key}: does not apply to session mode: {why}").into())
                }
                None => Ok(()),
            }
        };
        match *self {
            Vary::Qd(n) => {
                no_session("each session is synchronous; vary sessions instead")?;
                j.qd = n;
            }
            Vary::Threads(n) => {
                no_session("each session is a thread; vary sessions instead")?;
                j.threads = n;
            }
            Vary::Sessions(n) => {
                let s = j.session.as_mut().ok_or(
                    "--vary sessions: the job is not in session mode; add --sessions N or start from a session profile such as slob",
                )?;
                s.sessions = n;
                j.threads = n;
            }
            Vary::Bs(size) => {
                // An alignment that was the (smallest) block size follows the new size.
                if j.align == job.min_bs() {
                    j.align = size;
                }
                j.bs = vec![BsWeight { size, weight: 1 }];
                if let Some(s) = j.session.as_mut() {
                    s.page = size;
                }
            }
            Vary::Mix(pct) => {
                no_session("--update-pct decides the writes")?;
                if !j.rw.is_mixed() {
                    return Err(format!(
                        "--vary mix: mix is the read share of --rw randrw or readwrite, and this job is --rw {}; add --rw randrw",
                        j.rw.name()
                    )
                    .into());
                }
                j.read_pct = u8::try_from(pct)
                    .ok()
                    .filter(|p| *p <= 100)
                    .ok_or_else(|| {
                        format!("--mix {pct}: the read share is a percentage, 0 to 100")
                    })?;
            }
            Vary::Rate(r) => {
                no_session("sessions are a closed loop; slow them with --think")?;
                j.rate = Some(r);
            }
            Vary::RateTimes(h) => {
                no_session("sessions are a closed loop; slow them with --think")?;
                let base = job.rate.ok_or("rate=Nx multiplies the job's rate, and it has none: give --rate or a profile with a rate (dbio capture --profile writes one)")?;
                j.rate = Some((base * h).div_ceil(100).max(1));
            }
        }
        check(&j)?;
        Ok(j)
    }
}

/// The varied setting of a sweep: its values as written and as typed changes, one per step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Varying {
    pub key: &'static str,
    /// The values as written (a table's first column, the result's `values`).
    pub values: Vec<String>,
    /// The same values as changes to the job.
    pub steps: Vec<Vary>,
}

impl Varying {
    /// The steps given as values (at least one; all of one setting), written as
    /// [`Vary::value_text`] writes them.
    pub fn new(steps: Vec<Vary>) -> Varying {
        Varying {
            key: steps.first().map_or("qd", Vary::key),
            values: steps.iter().map(Vary::value_text).collect(),
            steps,
        }
    }

    /// The job of every step: `base` with the setting changed, each checked as a job. Err
    /// names the first step that is not a valid job, and why.
    pub fn jobs(&self, base: &JobSpec) -> Result<Vec<JobSpec>, SpecError> {
        self.steps
            .iter()
            .zip(&self.values)
            .map(|(v, text)| {
                v.apply(base)
                    .map_err(|m| m.map(|m| format!("step {}={text}: {m}", self.key)))
            })
            .collect()
    }
}
