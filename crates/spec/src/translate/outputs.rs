//! The outputs dbio's own flags give a translation: one file cannot take several runs,
//! but for fio's JSON, whose runs' documents are joined into one as fio writes one for a
//! whole job file (dbio-report's `fio_join`).

use crate::error::SpecError;

/// Refuses `--json`/`--html` among dbio's flags `ours` when the translation has several
/// runs (`runs`), which would all write the same file; `--json` in fio's layout (in `ours`
/// or the tool's own `outputs`) is joined, not refused.
pub fn one_file_per_run(runs: usize, ours: &[String], outputs: &[String]) -> Result<(), SpecError> {
    if runs < 2 {
        return Ok(());
    }
    let words = || ours.iter().chain(outputs).map(String::as_str);
    let fio = words().zip(words().skip(1).chain([""])).any(|(a, b)| {
        a.starts_with("--json-format=fio") || (a == "--json-format" && b.starts_with("fio"))
    });
    match ours
        .iter()
        .find(|a| a.as_str() == "--html" || (a.as_str() == "--json" && !fio))
    {
        Some(f) => Err(SpecError::Translation(format!(
            "{f}: the translation has {runs} runs, which would all write the same file; run the jobs one at a time (one job file each) to keep each result"
        ))),
        None => Ok(()),
    }
}
