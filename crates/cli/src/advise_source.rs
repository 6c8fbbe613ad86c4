//! Where `dbio advise` gets its counts: a live database or /proc/diskstats (two snapshots
//! `--interval` apart with a progress display, or `--since` a saved one), or exports.

use crate::advise_args::AdviseArgs;
use crate::exit::Exit;
use crate::output::write_file_atomic;
use dbio_db::live::Live;
use dbio_db::snapshot::{delta, Counts, Snapshot};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the source gave.
pub enum Outcome {
    /// `--snapshot FILE` was written; the message says so.
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
    /// Seconds waited when Ctrl-C cut the interval short.
    pub interrupted: Option<f64>,
}

type Fail = (Exit, String);

fn usage(m: String) -> Fail {
    (Exit::Usage, m)
}

/// Reads the source the flags name.
pub fn gather(a: &AdviseArgs, interval: Duration) -> Result<Outcome, Fail> {
    if a.url.is_none() && !a.diskstats {
        return exports(a).map(Outcome::Counts);
    }
    let mut live = match &a.url {
        Some(u) => Live::connect(u).map_err(usage)?,
        None => Live::Diskstats {
            partitions: a.partitions,
        },
    };
    // Ctrl-C from the first snapshot on ends the interval, not dbio.
    let stop = (a.snapshot.is_none() && a.since.is_none()).then(crate::signals::stop_flag);
    let first = live.snapshot().map_err(usage)?;
    if let Some(file) = &a.snapshot {
        write_file_atomic(file, first.to_json().as_bytes())
            .map_err(|e| (Exit::Failure, format!("cannot write {file}: {e}")))?;
        return Ok(Outcome::Saved(format!(
            "snapshot of {} objects of {} saved to {file}; later, `dbio advise` with the same source and --since {file} gives the advice",
            first.objects.len(),
            first.source
        )));
    }
    let (before, after, interrupted) = match (&a.since, stop) {
        (Some(file), _) => {
            let before = read_snapshot(file)?;
            if before.system != first.system || before.source != first.source {
                return Err(usage(format!(
                    "--since {file}: that snapshot is of {} {}, not of {} {}; give the same source",
                    before.system, before.source, first.system, first.source
                )));
            }
            (before, first, None)
        }
        (None, stop) => {
            let cut = wait(
                interval,
                a.quiet,
                stop.unwrap_or_else(crate::signals::stop_flag),
            );
            let after = live.snapshot().map_err(|m| (Exit::Failure, m))?;
            (first, after, cut)
        }
    };
    let counts = delta(&before, &after).map_err(|m| (Exit::Failure, m))?;
    Ok(Outcome::Counts(Gathered {
        counts,
        system: after.system.clone(),
        name: after.source.clone(),
        interrupted,
    }))
}

/// One export (counts from the server's start) or two (the difference).
fn exports(a: &AdviseArgs) -> Result<Gathered, Fail> {
    let snaps = a
        .exports
        .iter()
        .map(|f| {
            let text = read(f, |head| dbio_db::check_export_start(head, f))?;
            dbio_db::read_export(&text, f, a.partitions).map_err(usage)
        })
        .collect::<Result<Vec<Snapshot>, Fail>>()?;
    let counts = match snaps.as_slice() {
        [one] => one.as_counts(),
        [before, after] => delta(before, after).map_err(|m| (Exit::Failure, m))?,
        _ => unreachable!("checked: one or two exports"),
    };
    let last = snaps.last().expect("one or two");
    Ok(Gathered {
        counts,
        system: last.system.clone(),
        name: a.exports.join(", "),
        interrupted: None,
    })
}

/// The text of `f`, read with the bounds of [`crate::export_text`]; `check` refuses a start
/// that is not of the expected form.
pub fn read(f: &str, check: impl Fn(&str) -> Result<(), String>) -> Result<String, Fail> {
    crate::export_text::read(f, check).map_err(usage)
}

fn read_snapshot(f: &str) -> Result<Snapshot, Fail> {
    let text = read(f, |head| {
        if head.trim_start().starts_with('{') {
            Ok(())
        } else {
            Err(format!(
                "{f}: not a dbio advise snapshot (not JSON); give the file written by --snapshot"
            ))
        }
    })?;
    Snapshot::from_json(&text, f).map_err(usage)
}

/// Waits `interval` with a progress display; Ctrl-C (`stop`) ends the wait early (the
/// seconds waited are returned) and the second snapshot is taken then.
fn wait(interval: Duration, quiet: bool, stop: Arc<AtomicBool>) -> Option<f64> {
    let bar = (!quiet).then(|| {
        let b = ProgressBar::with_draw_target(
            Some(interval.as_millis() as u64),
            ProgressDrawTarget::stderr(),
        );
        b.set_style(
            ProgressStyle::with_template("{elapsed} [{bar:30}] {msg}").expect("valid template"),
        );
        b.set_message(format!(
            "between snapshots, {} s left (Ctrl-C takes the second one now)",
            interval.as_secs()
        ));
        b
    });
    let start = Instant::now();
    let cut = loop {
        let e = start.elapsed();
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break Some(e.as_secs_f64());
        }
        if e >= interval {
            break None;
        }
        if let Some(b) = &bar {
            b.set_position(e.as_millis() as u64);
            b.set_message(format!(
                "between snapshots, {} s left (Ctrl-C takes the second one now)",
                (interval - e).as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(100).min(interval - e));
    };
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    cut
}
