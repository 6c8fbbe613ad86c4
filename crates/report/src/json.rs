//! The run result as JSON (schema `schema/run-result.v1.json`).

use dbio_model::RunResult;

/// Pretty-printed JSON of a result, ending in a newline.
pub fn to_json(r: &RunResult) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("a RunResult always serialises");
    s.push('\n');
    s
}
