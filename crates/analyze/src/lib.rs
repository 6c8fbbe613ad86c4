//! Pure analysis of results: latency objectives, the knee and the saturation point of a
//! sweep, the I/O size where bandwidth levels off.
#![forbid(unsafe_code)]

pub mod knee;
pub mod reduce;
pub mod slo;
