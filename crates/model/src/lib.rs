//! The contract every part of dbio shares: the validated job, the run result
//! (whose JSON schema is committed under `schema/`), host and target facts, units.
#![forbid(unsafe_code)]

pub mod histogram;
pub mod job;
pub mod profile;
pub mod result;
pub mod sweep;
pub mod units;

pub use histogram::{LatencyHistogram, LatencySummary};
pub use job::*;
pub use result::*;
