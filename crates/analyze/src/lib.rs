//! Pure analysis of results: latency objectives, the knee and the saturation point of a
//! sweep, the I/O size where bandwidth levels off, what differs between two runs.
#![forbid(unsafe_code)]

pub mod advise;
mod ceiling;
pub mod collect;
pub mod compare;
pub mod error;
pub mod flags;
pub mod knee;
pub mod merge;
pub mod path;
pub mod reduce;
pub mod scorecard;
pub mod slo;
pub mod verdict;
