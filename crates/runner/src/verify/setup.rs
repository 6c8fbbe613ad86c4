//! Setting up verification before the workers start: the block tables of every verifying
//! stream, the run's id and the journal.

use super::journal::JournalWriter;
use super::table::{StreamVerify, TargetTable};
use super::Verification;
use crate::error::RunError;
use crate::prepare::Prepared;
use dbio_model::verify::VERIFY_UNIT;
use dbio_model::JobSpec;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The verification of a run whose streams are `specs` on `prepared` targets, or None when
/// no stream verifies. Every stream of a verifying run verifies its own targets.
/// A journal that cannot be kept sets `abort` (the run's own stop, not the user's), so the
/// run ends.
pub(crate) fn start(
    specs: &[&JobSpec],
    prepared: &[Prepared],
    abort: &Arc<AtomicBool>,
) -> Result<Option<Verification>, RunError> {
    let Some(vs) = specs.iter().find_map(|s| s.verify.as_ref()) else {
        return Ok(None);
    };
    let run = crate::data::run_nonce() | 1;
    let mut streams = Vec::new();
    for (spec, p) in specs.iter().zip(prepared) {
        let (start, end) = p.region;
        if !start.is_multiple_of(VERIFY_UNIT) {
            return Err(RunError::Invalid(format!(
                "--verify checks 4 KiB blocks: the region must start at a multiple of 4 KiB, not at {start}"
            )));
        }
        let blocks = (end - start) / VERIFY_UNIT;
        let tables = spec
            .targets
            .iter()
            .map(|t| TargetTable::new(t, start, blocks))
            .collect();
        streams.push(Arc::new(StreamVerify::new(run, tables)));
    }
    let journal = match &vs.journal {
        Some(path) => Some(
            JournalWriter::create(path, run, &streams, abort.clone())
                .map_err(|e| RunError::Target(e.to_string()))?,
        ),
        None => None,
    };
    Ok(Some(Verification {
        run,
        streams,
        journal,
        journal_path: vs.journal.clone(),
    }))
}
