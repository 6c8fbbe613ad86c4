//! Orchestration beyond one process: a fleet of hosts reached with the user's own OpenSSH
//! client, started together and merged into one result. No daemon of dbio's own runs
//! anywhere; a remote dbio lives exactly as long as the SSH session that started it.
#![forbid(unsafe_code)]

pub mod fleet;
