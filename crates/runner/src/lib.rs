//! The library that runs a dbio job: workload generation, test data, workers, pacing,
//! latency recording, phases. The CLI (and later the agent) drive it through [`run`].
#![forbid(unsafe_code)]

pub mod burst;
pub mod collect;
pub mod data;
pub mod datagen;
pub mod hostcpu;
pub mod pattern;
pub mod run;
pub mod sample;
pub mod session;
pub mod sim;
pub mod spawn;
pub mod steady;
pub mod streams;
pub mod verify;
pub mod warn;
pub mod worker;

pub use run::{run, run_at, run_local, run_session, run_sim, Event, RunError};
pub use streams::run_streams;
