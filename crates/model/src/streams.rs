//! Several concurrent streams in one run (a multi-stream profile such as `oltp-mix`): each
//! stream has its own job on the targets of its role, and all run in one measuring window.

use crate::facts::TargetFacts;
use crate::job::JobSpec;
use crate::stats::{data_dirs, DirStats};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One stream of a multi-stream run, validated: its name, its target role and its job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StreamSpec {
    /// The stream's name in the profile, e.g. "data" or "log".
    pub name: String,
    /// The target role it runs on, e.g. "data" or "log".
    pub role: String,
    /// Its job; `targets` holds the paths of its role.
    pub job: JobSpec,
}

/// What one stream of a multi-stream run did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StreamResult {
    pub name: String,
    pub role: String,
    /// The stream's own validated job (`job.targets` are its paths).
    pub job: JobSpec,
    pub targets: Vec<TargetFacts>,
    /// Seconds its workers measured (the run's window, or less when it ended early).
    pub measured_secs: f64,
    pub read: Option<DirStats>,
    pub write: Option<DirStats>,
    /// fsync/fdatasync calls of this stream.
    pub flush: Option<DirStats>,
}

impl StreamResult {
    /// I/Os of this stream, reads and writes together.
    pub fn total_ios(&self) -> u64 {
        data_dirs(&self.read, &self.write).map(|d| d.ios).sum()
    }
}

/// True for a role name: letters, digits, `-` and `_`, starting with a letter.
pub fn is_role(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
