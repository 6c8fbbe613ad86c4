//! dbio-spec: what a user wrote turned into one validated job, in two steps as ripgrep turns
//! flags into validated options. First a raw, clap-free description ([`RawJob`]: the run
//! flags as plain data; a profile's TOML; or another tool's words, translated by
//! [`translate`]); then [`RawJob::check`], which merges flags over the profile and returns a
//! [`dbio_model::JobSpec`] or a [`SpecError`] naming the flag or key, the value and what to
//! try. The rules every job obeys (also a sweep's step) are in [`rules`], with limits taken
//! from the engine's own constants.
#![forbid(unsafe_code)]

#[cfg(feature = "clap")]
pub mod advise_args;
pub mod buckets;
pub mod check;
#[cfg(feature = "clap")]
pub mod collect_args;
#[cfg(feature = "clap")]
pub mod command_args;
pub mod data;
#[cfg(feature = "clap")]
pub mod db_args;
pub mod error;
#[cfg(feature = "clap")]
pub mod fleet_args;
#[cfg(feature = "clap")]
pub mod history_args;
pub mod input;
pub mod job;
pub mod measured;
#[cfg(feature = "clap")]
pub mod out_args;
pub mod phases;
pub mod profiles;
pub mod raw;
pub mod region;
pub mod replay;
pub mod rules;
pub mod session;
pub mod shared;
#[cfg(feature = "clap")]
pub mod shell;
pub mod sim;
pub mod streams;
pub mod sweep_base;
pub mod targets;
pub mod translate;
pub mod vary;
pub mod vary_flag;
pub mod verify;
#[cfg(feature = "clap")]
pub mod verify_args;

pub use error::SpecError;
pub use raw::RawJob;
