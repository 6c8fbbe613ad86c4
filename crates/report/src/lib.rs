//! Exporters: results in, bytes out. Pure functions, no I/O.
#![forbid(unsafe_code)]

pub mod awr;
pub mod json;
pub mod reduce;
pub mod text;
