//! dbio's I/O engines, aligned buffers and target handling (open, create, prefill,
//! safety checks, sysfs facts). The only dbio crate allowed `unsafe`; each block says why.

pub mod buffer;
pub mod engine;
pub mod error;
pub mod facts;
pub mod medium;
pub mod memlock;
pub mod sync;
pub mod sys;
pub mod target;
pub mod uring;

pub use buffer::{AlignedBuf, SlotBuffers};
pub use engine::{open_engine, Engine, EngineSetup, Op, OpKind};
pub use error::IoError;
