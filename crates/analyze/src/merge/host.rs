//! One host's result as a merge takes it.

use dbio_model::RunResult;

/// One host's result and the name it goes by in the merged one.
#[derive(Clone)]
pub struct HostResult {
    pub name: String,
    pub result: RunResult,
}
