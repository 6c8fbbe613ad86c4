//! The contract every part of dbio shares: the validated job, the run result
//! (whose JSON schema is committed under `schema/`), host and target facts, units.
#![forbid(unsafe_code)]

pub mod advise;
pub mod capture;
pub mod cluster;
pub mod collect;
pub mod db;
pub mod device_latency;
pub mod facts;
pub mod histogram;
pub mod job;
pub mod path;
pub mod profile;
pub mod reduce;
pub mod replay;
pub mod result;
pub mod session;
pub mod sim;
pub mod spill;
pub mod stats;
pub mod streams;
pub mod suite;
pub mod sweep;
pub mod sweep_verify;
pub mod threads;
pub mod units;
pub mod verify;

pub use histogram::{LatencyHistogram, LatencySummary};
pub use job::*;
pub use result::*;
pub use sim::{ServiceDist, SimDevice};
pub use streams::{StreamResult, StreamSpec};
pub use threads::{Moments, ThreadDir, ThreadStats, ThreadTarget};

/// The JSON schema of a result type, as committed under `schema/` (e.g. `run-result.v1.json`).
pub fn json_schema<T: schemars::JsonSchema>() -> String {
    let mut s = serde_json::to_string_pretty(&schemars::schema_for!(T))
        .expect("a schema always serialises");
    s.push('\n');
    s
}
