//! Targets: opening, creating and sizing files, ownership markers, safety checks, prefill.
//!
//! dbio never destroys data it was not clearly given (design.md, "Safety"): writing to a block
//! device, or to an existing file dbio did not create, needs `--destroy-data`.

mod error;
mod open;
mod owner;
mod prefill;
mod safety;
pub(crate) mod sys;
mod types;

#[cfg(test)]
mod loop_tests;

pub use error::TargetError;
pub use open::{discard_created, open_noatime, open_target};
pub use owner::mark_prefilled;
pub use prefill::{prefill, PREFILL_CHUNK};
pub use safety::detect_signatures;
pub use types::{OpenTarget, TargetKind, TargetOptions, DEFAULT_FILE_SIZE, SIZE_ALIGN};
