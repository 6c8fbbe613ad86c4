//! dbio's I/O engines, aligned buffers and target handling (open, create, prefill,
//! safety checks, sysfs facts). The only dbio crate allowed `unsafe`; each block says why.

pub mod any;
pub mod buffer;
pub mod device;
pub mod engine;
pub mod error;
pub mod facts;
pub mod fiemap;
pub mod medium;
pub mod memlock;
pub mod ring_fd;
pub mod sync;
pub mod sys;
pub mod uring;

pub use any::{open_engine, AnyEngine};
pub use buffer::{AlignedBuf, SlotBuffers};
pub use engine::{Engine, EngineSetup, Op, OpKind};
pub use error::IoError;
