//! What a report is made of: runs, sweeps and assessments, each under the name the user
//! gave it.

use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_store::lookup::{find, LookupError};

/// A result a report shows.
pub enum Result {
    Run(Box<RunResult>),
    Sweep(Box<SweepResult>),
    Suite(Box<SuiteResult>),
}

/// The parts of an assessment that ran, in order, with their titles.
pub enum Part<'a> {
    Run(&'static str, &'a RunResult),
    Sweep(&'static str, &'a SweepResult),
}

/// The parts of `s` that ran.
pub fn parts(s: &SuiteResult) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    if let Some(x) = &s.oltp_read {
        out.push(Part::Sweep("oltp-read concurrency ramp and its knee", x));
    }
    if let Some(x) = &s.oltp_at_knee {
        out.push(Part::Run("oltp at the knee", x));
    }
    if let Some(x) = &s.log {
        out.push(Part::Sweep("log commit latency, 1 to 8 writers", x));
    }
    if let Some(x) = &s.tempdb {
        out.push(Part::Run("TempDB", x));
    }
    if let Some(x) = &s.dss {
        out.push(Part::Sweep("DSS bandwidth against I/O size", x));
    }
    if let Some(x) = &s.captured {
        out.push(Part::Sweep(
            "the captured workload at 1x, 2x and 4x its rate",
            x,
        ));
    }
    out
}

/// Why a result named for a report cannot be shown; Display names it and what to give.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// No such run id, label or file, or a history that cannot be read.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// Found, but not a result a report shows.
    #[error("{0}: not a dbio run, sweep or suite result (JSON from --json)")]
    NotAResult(String),
}

/// The results `names` (run ids, labels or JSON files) give, in order, from the history at
/// `db` (the default one when None).
pub fn found(db: Option<&str>, names: &[String]) -> std::result::Result<Vec<Item>, FindError> {
    names
        .iter()
        .map(|name| {
            let json = find(db, name)?.json;
            Item::from_json(name, &json).ok_or_else(|| FindError::NotAResult(name.clone()))
        })
        .collect()
}

/// One result of a report with its name (a run id, a label, a file name).
pub struct Item {
    pub name: String,
    pub result: Result,
}

impl Item {
    /// Parses a run or sweep result from its JSON; None when it is neither.
    pub fn from_json(name: &str, json: &str) -> Option<Item> {
        let result = if let Ok(s) = serde_json::from_str::<SuiteResult>(json) {
            Result::Suite(Box::new(s))
        } else if let Ok(s) = serde_json::from_str::<SweepResult>(json) {
            Result::Sweep(Box::new(s))
        } else {
            Result::Run(Box::new(serde_json::from_str::<RunResult>(json).ok()?))
        };
        Some(Item {
            name: name.into(),
            result,
        })
    }

    /// Every run of the item: the run itself, each step of a sweep, every run of a suite.
    pub fn runs(&self) -> Vec<&RunResult> {
        match &self.result {
            Result::Run(r) => vec![r],
            Result::Sweep(s) => s.steps.iter().collect(),
            Result::Suite(s) => parts(s)
                .into_iter()
                .flat_map(|p| match p {
                    Part::Run(_, r) => vec![r],
                    Part::Sweep(_, w) => w.steps.iter().collect(),
                })
                .collect(),
        }
    }
}

/// Every warning of a set of runs once, in order of first appearance.
pub fn warnings<'a>(runs: &[&'a RunResult]) -> Vec<&'a dbio_model::Warning> {
    let mut seen = Vec::new();
    for w in runs.iter().flat_map(|r| &r.warnings) {
        if !seen.contains(&w) {
            seen.push(w);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_found_by_file_in_order_and_others_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display().to_string();
        let (run, other) = (format!("{d}/run.json"), format!("{d}/other.json"));
        std::fs::write(&run, include_str!("../tests/fixtures/run.json")).unwrap();
        std::fs::write(&other, "{\"schema\": \"dbio.advise/1\"}\n").unwrap();
        let db = format!("{d}/history.db");
        let items = found(Some(&db), &[run.clone(), run.clone()]).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].name, run);
        assert!(matches!(items[1].result, Result::Run(_)));
        let e = found(Some(&db), &[run.clone(), other.clone()])
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            format!("{other}: not a dbio run, sweep or suite result (JSON from --json)")
        );
        let e = found(Some(&db), &["base".to_string()]).err().unwrap();
        assert!(matches!(e, FindError::Lookup(_)), "{e}");
    }
}
