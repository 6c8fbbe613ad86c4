//! What write verification (`--verify`) found over a whole sweep.

use crate::sweep::SweepResult;

impl SweepResult {
    /// Bad blocks found by `--verify` in every step together: a sweep with any ends with
    /// status 3.
    pub fn bad_blocks(&self) -> u64 {
        self.steps
            .iter()
            .filter_map(|r| r.verify.as_ref().filter(|v| v.corrupt()))
            .map(|v| v.corrupt.total())
            .sum()
    }
}
