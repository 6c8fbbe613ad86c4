//! The library that runs a dbio job: workload generation, test data, workers, pacing,
//! latency recording, phases. The CLI (and later the agent) drive it through [`run`].
#![forbid(unsafe_code)]

pub mod assemble;
pub mod burst;
pub mod collect;
pub mod data;
pub mod datagen;
pub(crate) mod device_latency;
pub mod error;
pub mod event;
pub mod fidelity;
pub mod hostcpu;
pub mod measure;
pub mod pattern;
pub mod prepare;
pub mod replay;
pub mod run;
pub mod sample;
pub mod session;
pub(crate) mod shared;
pub mod sim;
pub mod spawn;
pub mod start_at;
pub mod steady;
pub mod streams;
pub mod timeline;
pub mod verify;
pub mod warn;
pub mod window;
pub mod worker;

pub use error::RunError;
pub use event::Event;
pub use run::{run, run_at, run_local, run_session, run_sim};
pub use streams::run_streams;
