//! Orchestration: runs, sweeps and suites driven step by step through an executor (this
//! host, or a fleet of hosts reached with the user's own OpenSSH client, started together
//! and merged).
//! No daemon of dbio's own runs anywhere; a remote dbio lives exactly as long as the SSH
//! session that started it.
#![forbid(unsafe_code)]

pub mod executor;
pub mod fleet;
pub mod job;
pub mod judge;
pub mod progress;
pub mod suite;
pub mod sweep;
pub mod vary;
