//! `dbio report --hlog`: the interval log of the one run among the items given.

use crate::error::ReportError;
use crate::item::{self, Item};

/// Why no interval log can be written; Display names the flag, the run and what to try.
#[derive(Debug, thiserror::Error)]
pub enum HlogError {
    /// Not exactly one run given.
    #[error("--hlog writes the interval log of one run: give one run (not a sweep or suite, not several)")]
    NotOneRun,
    /// The run has no per-second histograms.
    #[error("--hlog: {0} holds no per-second histograms (written by an older dbio, or a database run); run it again with this dbio")]
    NoHistograms(String),
    /// A second's histogram could not be read back.
    #[error("--hlog: {name}: {source}")]
    Unreadable { name: String, source: ReportError },
}

/// The interval log of the one run in `items`.
pub fn interval_log_of(items: &[Item]) -> Result<String, HlogError> {
    let [Item {
        name,
        result: item::Result::Run(r),
    }] = items
    else {
        return Err(HlogError::NotOneRun);
    };
    crate::hlog::interval_log(r)
        .map_err(|source| HlogError::Unreadable {
            name: name.clone(),
            source,
        })?
        .ok_or_else(|| HlogError::NoHistograms(name.clone()))
}
