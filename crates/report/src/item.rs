//! What a report is made of: runs and sweeps, each under the name the user gave it.

use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;

/// A result a report shows.
pub enum Result {
    Run(Box<RunResult>),
    Sweep(Box<SweepResult>),
}

/// One result of a report with its name (a run id, a label, a file name).
pub struct Item {
    pub name: String,
    pub result: Result,
}

impl Item {
    /// Parses a run or sweep result from its JSON; None when it is neither.
    pub fn from_json(name: &str, json: &str) -> Option<Item> {
        let result = if let Ok(s) = serde_json::from_str::<SweepResult>(json) {
            Result::Sweep(Box::new(s))
        } else {
            Result::Run(Box::new(serde_json::from_str::<RunResult>(json).ok()?))
        };
        Some(Item {
            name: name.into(),
            result,
        })
    }

    /// Every run of the item: the run itself, or each step of a sweep.
    pub fn runs(&self) -> Vec<&RunResult> {
        match &self.result {
            Result::Run(r) => vec![r],
            Result::Sweep(s) => s.steps.iter().collect(),
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
