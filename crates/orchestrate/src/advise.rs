//! `dbio advise` between its libraries: the files it reads, the stored runs it looks up
//! (`--flash RUN`, `--current`), the counts dbio-db gathers (with `--sizes`), ranked and
//! placed by dbio-analyze. The caller brings the history's lookups and the interval's side
//! (signals, a display, atomic writes).

use dbio_analyze::advise::measured::latency;
use dbio_analyze::advise::request::{self, AdviseError, AdviseFlags, Counted, Plan};
use dbio_analyze::advise::Latency;
use dbio_db::gather::{gather, GatherError, Gathered, Interval, Outcome, Source};
use dbio_model::advise::{AdviseResult, SourceInfo};

/// What `dbio advise` was asked, clap-free: the source and the settings as written.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Where the counts come from.
    pub source: Source,
    /// `--interval`: the time between a live source's two snapshots.
    pub interval: Option<String>,
    /// `--flash`: a budget (a size) and/or a measured flash device (a stored run).
    pub flash: Vec<String>,
    /// `--current`: the measured current device (a stored run).
    pub current: Option<String>,
    /// `--flash-latency`: the flash latency assumed without `--flash RUN`.
    pub flash_latency: Option<String>,
    /// `--io-wait-share`: the share of the time spent waiting on I/O.
    pub io_wait_share: Option<String>,
    /// `--sizes`: a CSV of object sizes for sources without them.
    pub sizes: Option<String>,
    /// `--files`: the data folder whose files a dbio trace's requests are attributed to.
    pub files: Option<String>,
    /// `--window`: the part of a collection (`dbio collect`) to place objects by.
    pub window: Option<String>,
    /// `--db`: the history holding collections.
    pub history: Option<String>,
}

/// Why no advice was given; the status a caller gives it is said on each variant.
#[derive(Debug, thiserror::Error)]
pub enum AdviceError {
    /// A `--flash RUN` or `--current` that is not found or measured no device: bad input.
    #[error(transparent)]
    Measured(#[from] AdviseError),
    /// A `--sizes` file that cannot be read or is no sizes: bad input.
    #[error(transparent)]
    Sizes(GatherError),
    /// The source gave no counts, or counts without a single I/O: bad input or a failure,
    /// as the [`GatherError`] says.
    #[error(transparent)]
    Gather(GatherError),
}

/// What `dbio advise` gave.
#[derive(Debug)]
pub enum Advice {
    /// The `--snapshot` file was written; the message says so.
    Saved(String),
    /// The advice, and whether an interruption cut the interval short.
    Made {
        /// The advice as printed, written and stored.
        result: Box<AdviseResult>,
        /// Ctrl-C took the second snapshot before the interval's end.
        interrupted: bool,
    },
}

impl Request {
    /// The flags as dbio-analyze checks them.
    pub fn flags(&self) -> AdviseFlags {
        let s = &self.source;
        AdviseFlags {
            url: s.url.is_some(),
            diskstats: s.diskstats,
            partitions: s.partitions,
            exports: s.exports.len(),
            interval: self.interval.clone(),
            snapshot: s.snapshot.clone(),
            since: s.since.is_some(),
            flash: self.flash.clone(),
            current: self.current.is_some(),
            flash_latency: self.flash_latency.clone(),
            io_wait_share: self.io_wait_share.clone(),
        }
    }

    /// The settings checked, before anything is read or connected to.
    pub fn plan(&self) -> Result<Plan, AdviseError> {
        request::plan(&self.flags())
    }

    /// Every file the advice of `plan` reads, which no output may overwrite: the exports,
    /// `--since`, `--sizes`, then what `looked_up` says the stored runs (`--flash RUN`,
    /// `--current`; possibly none) are read from.
    pub fn inputs(
        &self,
        plan: &Plan,
        looked_up: impl FnOnce(&[&str]) -> Vec<String>,
    ) -> Vec<String> {
        let runs: Vec<&str> = plan
            .flash_run
            .iter()
            .chain(self.current.iter())
            .map(String::as_str)
            .collect();
        let mut inputs = self.source.exports.clone();
        inputs.extend(self.source.since.iter().chain(self.sizes.iter()).cloned());
        inputs.extend(looked_up(&runs));
        inputs
    }

    /// The advice of `plan`: the measured devices found by `find` (a stored run, sweep or
    /// suite's JSON by name, or why it was not found), the `--sizes` file read, then the
    /// counts gathered (`io` waits the interval and writes a `--snapshot`) and analysed.
    pub fn advise<E: std::fmt::Display>(
        &self,
        plan: &Plan,
        find: &dyn Fn(&str) -> Result<String, E>,
        io: &mut dyn Interval,
    ) -> Result<Advice, AdviceError> {
        let latency = latency(plan, self.current.as_deref(), find)?;
        let sizes = self.sizes.as_deref().map(dbio_db::gather::sizes);
        let sizes = sizes.transpose().map_err(AdviceError::Sizes)?;
        if let Some((name, w)) = self.collection()? {
            return from_collection(plan, latency, &name, &w, self.history.as_deref());
        }
        let traced = capture::gathered(&self.source, self.files.as_deref());
        let mut g = match traced.map_err(AdviceError::Gather)? {
            Some(g) => g,
            None => match gather(&self.source, plan.interval, io) {
                Ok(Outcome::Saved(msg)) => return Ok(Advice::Saved(msg)),
                Ok(Outcome::Counts(g)) => g,
                Err(e) => return Err(AdviceError::Gather(e)),
            },
        };
        if let (Some(s), Some(file)) = (&sizes, &self.sizes) {
            g.with_sizes(s, file);
        }
        g.check_io().map_err(AdviceError::Gather)?;
        let interrupted = g.interrupted.is_some();
        Ok(Advice::Made {
            result: Box::new(analyse(plan, latency, g)),
            interrupted,
        })
    }
}

impl Request {
    /// The collection and window to advise from: one name that is no file but a collection
    /// in the history; None for other sources (where `--window` is refused).
    fn collection(&self) -> Result<Option<(String, dbio_analyze::collect::Window)>, AdviceError> {
        let bad = |m: String| AdviceError::Gather(GatherError::Input(m));
        let name = match self.source.exports.as_slice() {
            [one] if !std::path::Path::new(one).exists() => one,
            _ => {
                return match &self.window {
                    Some(w) => Err(bad(format!("--window {w}: a window is of a collection (dbio collect); give a collection's name"))),
                    None => Ok(None),
                }
            }
        };
        if !collected::exists(name, self.history.as_deref()) {
            return match &self.window {
                Some(_) => Err(bad(format!("{name}: no such file, and no collection of that name in the history (dbio collect --report lists nothing under it)"))),
                None => Ok(None),
            };
        }
        let w =
            dbio_analyze::collect::parse(self.window.as_deref().unwrap_or("all")).map_err(bad)?;
        Ok(Some((name.clone(), w)))
    }
}

/// The advice of `plan` on window `w` of collection `name`, noting where the whole
/// collection would choose otherwise.
fn from_collection(
    plan: &Plan,
    latency: Latency,
    name: &str,
    w: &dbio_analyze::collect::Window,
    db: Option<&str>,
) -> Result<Advice, AdviceError> {
    let (g, all) = collected::counts(name, w, db).map_err(AdviceError::Gather)?;
    g.check_io().map_err(AdviceError::Gather)?;
    let mut result = analyse(plan, latency.clone(), g);
    if let Some(all) = all {
        let whole = analyse(plan, latency, all);
        result.notes.push(collected::differs(&result, &whole));
    }
    Ok(Advice::Made {
        result: Box::new(result),
        interrupted: false,
    })
}

/// The advice of `plan` on the gathered counts `g`, with the latency model `latency`.
pub fn analyse(plan: &Plan, latency: Latency, g: Gathered) -> AdviseResult {
    request::analyse(plan, latency, counted(g))
}

/// The gathered counts as dbio-analyze takes them.
fn counted(g: Gathered) -> Counted {
    Counted {
        source: SourceInfo {
            system: g.system,
            name: g.name,
            interval_secs: g.counts.secs,
            since_start: g.counts.since_start,
        },
        objects: g.counts.objects,
        notes: g.counts.notes,
        io_wait: g.counts.io_wait.map(|w| (w.io_ms, w.busy_ms)),
        interrupted: g.interrupted,
    }
}

mod capture;
mod collected;
#[cfg(test)]
mod tests;
