//! The outputs dbio's own flags give a translation: one file cannot take several runs.

use crate::error::SpecError;

/// Refuses `--json`/`--html` among dbio's flags `ours` when the translation has several
/// runs (`runs`), which would all write the same file.
pub fn one_file_per_run(runs: usize, ours: &[String]) -> Result<(), SpecError> {
    if runs < 2 {
        return Ok(());
    }
    match ours
        .iter()
        .find(|a| matches!(a.as_str(), "--json" | "--html"))
    {
        Some(f) => Err(SpecError::Translation(format!(
            "{f}: the translation has {runs} runs, which would all write the same file; run the jobs one at a time (one job file each) to keep each result"
        ))),
        None => Ok(()),
    }
}
