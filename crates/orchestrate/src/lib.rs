//! Orchestration: runs, sweeps and suites driven step by step through an executor (this
//! host: its own targets, the simulated device or session mode; a fleet of hosts reached
//! with the user's own OpenSSH client, started together and merged; or a database driven by
//! sessions of dbio's own). Every run, step and part is a plan (one job or several streams,
//! an optional common start) run and judged by [`run_one`].
//! No daemon of dbio's own runs anywhere; a remote dbio lives exactly as long as the SSH
//! session that started it.
#![forbid(unsafe_code)]

pub mod advise;
pub mod clock;
pub mod collect;
pub mod db;
pub mod db_sweep;
pub mod executor;
pub mod fleet;
pub mod judge;
pub mod one;
pub mod progress;
pub mod replay;
pub mod start_at;
pub mod suite;
pub mod suite_fleet;
pub mod suite_setup;
pub mod sweep;
pub mod sweep_words;
pub mod workload;

pub use one::run_one;
