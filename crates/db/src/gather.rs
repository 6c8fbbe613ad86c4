//! Where `dbio advise` gets its counts: a live database or /proc/diskstats (two snapshots
//! an interval apart, or one now against a saved one), or exports.

use crate::export_text::TextError;
use crate::live::Live;
use crate::snapshot::{delta, Counts, Snapshot};
use std::time::Duration;

/// The source named by the user, clap-free.
#[derive(Debug, Clone, Default)]
pub struct Source {
    /// A live database.
    pub url: Option<String>,
    /// This host's /proc/diskstats.
    pub diskstats: bool,
    /// Partitions instead of whole disks (diskstats).
    pub partitions: bool,
    /// One or two export files.
    pub exports: Vec<String>,
    /// Save one snapshot to this file now, and stop.
    pub snapshot: Option<String>,
    /// The first snapshot, saved earlier; the second is taken now.
    pub since: Option<String>,
}

/// What the caller does around the snapshots: its signal handling, its progress display
/// and its atomic file writes.
pub trait Interval {
    /// Called just before the first snapshot of a timed interval: an interruption from now
    /// on ends the interval rather than the program.
    fn arm(&mut self);
    /// Waits `interval`; when cut short, the seconds waited.
    fn wait(&mut self, interval: Duration) -> Option<f64>;
    /// Writes the `--snapshot` file.
    fn save(&mut self, path: &str, bytes: &[u8]) -> std::io::Result<()>;
}

/// Why no counts were gathered: bad input (nothing was read), or a failure on the way.
#[derive(Debug, thiserror::Error)]
pub enum GatherError {
    /// The source or a file named is unusable as given.
    #[error("{0}")]
    Input(String),
    /// The source failed while it was being read, or a file could not be written.
    #[error("{0}")]
    Failed(String),
}

impl From<TextError> for GatherError {
    fn from(e: TextError) -> Self {
        GatherError::Input(e.to_string())
    }
}

fn input(m: impl std::fmt::Display) -> GatherError {
    GatherError::Input(m.to_string())
}

fn failed(m: impl std::fmt::Display) -> GatherError {
    GatherError::Failed(m.to_string())
}

/// What the source gave.
pub enum Outcome {
    /// The `--snapshot` file was written; the message says so.
    Saved(String),
    /// Counts to analyse.
    Counts(Gathered),
}

/// Counts with where they came from.
pub struct Gathered {
    pub counts: Counts,
    pub system: String,
    /// The URL without password, or the files read.
    pub name: String,
    /// Seconds waited when an interruption cut the interval short.
    pub interrupted: Option<f64>,
}

/// Reads the source `s` names.
pub fn gather(
    s: &Source,
    interval: Duration,
    io: &mut dyn Interval,
) -> Result<Outcome, GatherError> {
    if s.url.is_none() && !s.diskstats {
        return exports(s).map(Outcome::Counts);
    }
    let mut live = match &s.url {
        Some(u) => Live::connect(u).map_err(input)?,
        None => Live::Diskstats {
            partitions: s.partitions,
        },
    };
    let timed = s.snapshot.is_none() && s.since.is_none();
    if timed {
        io.arm();
    }
    let first = live.snapshot().map_err(input)?;
    if let Some(file) = &s.snapshot {
        io.save(file, first.to_json().as_bytes())
            .map_err(|e| failed(format!("cannot write {file}: {e}")))?;
        return Ok(Outcome::Saved(format!(
            "snapshot of {} objects of {} saved to {file}; later, `dbio advise` with the same source and --since {file} gives the advice",
            first.objects.len(),
            first.source
        )));
    }
    let (before, after, interrupted) = match &s.since {
        Some(file) => {
            let before = read_snapshot(file)?;
            if before.system != first.system || before.source != first.source {
                return Err(input(format!(
                    "--since {file}: that snapshot is of {} {}, not of {} {}; give the same source",
                    before.system, before.source, first.system, first.source
                )));
            }
            (before, first, None)
        }
        None => {
            let cut = io.wait(interval);
            let after = live.snapshot().map_err(failed)?;
            (first, after, cut)
        }
    };
    let counts = delta(&before, &after).map_err(failed)?;
    Ok(Outcome::Counts(Gathered {
        counts,
        system: after.system.clone(),
        name: after.source.clone(),
        interrupted,
    }))
}

/// One export (counts from the server's start) or two (the difference).
fn exports(s: &Source) -> Result<Gathered, GatherError> {
    let snaps = s
        .exports
        .iter()
        .map(|f| {
            let text = crate::export_text::read(f, |head| crate::check_export_start(head, f))?;
            crate::read_export(&text, f, s.partitions).map_err(input)
        })
        .collect::<Result<Vec<Snapshot>, GatherError>>()?;
    let counts = match snaps.as_slice() {
        [one] => one.as_counts(),
        [before, after] => delta(before, after).map_err(failed)?,
        _ => unreachable!("checked: one or two exports"),
    };
    let last = snaps.last().expect("one or two");
    Ok(Gathered {
        counts,
        system: last.system.clone(),
        name: s.exports.join(", "),
        interrupted: None,
    })
}

/// A snapshot saved with `--snapshot`.
fn read_snapshot(f: &str) -> Result<Snapshot, GatherError> {
    let text = crate::export_text::read(f, |head| {
        if head.trim_start().starts_with('{') {
            Ok(())
        } else {
            Err(format!(
                "{f}: not a dbio advise snapshot (not JSON); give the file written by --snapshot"
            ))
        }
    })?;
    Snapshot::from_json(&text, f).map_err(input)
}

/// Object sizes from a `--sizes` file (a CSV with NAME and BYTES).
pub fn sizes(f: &str) -> Result<std::collections::HashMap<String, u64>, GatherError> {
    let text = crate::export_text::read(f, |head| crate::sizes::check_start(head, f))?;
    crate::sizes::parse(&text, f).map_err(input)
}

impl Gathered {
    /// Gives the objects their sizes from a `--sizes` file (`file` names it in the note
    /// on objects it lacks).
    pub fn with_sizes(&mut self, sizes: &std::collections::HashMap<String, u64>, file: &str) {
        let missing = crate::sizes::apply(&mut self.counts.objects, sizes);
        if !missing.is_empty() {
            self.counts.notes.push(format!(
                "{} object(s) have no size in {}: {}",
                missing.len(),
                file,
                missing.join(", ")
            ));
        }
    }

    /// Refuses counts without a single I/O: there is nothing to rank.
    pub fn check_io(&self) -> Result<(), GatherError> {
        if self.counts.objects.iter().any(|o| o.ios() != 0) {
            return Ok(());
        }
        let secs = if self.counts.secs > 0.0 {
            format!(" ({:.0} s)", self.counts.secs)
        } else {
            String::new()
        };
        Err(failed(format!(
            "no I/O in the interval{secs} of {}: nothing to rank; run the workload during the interval, or make it longer",
            self.name
        )))
    }
}
