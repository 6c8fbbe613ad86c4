//! Exporters: results in, bytes out. Pure functions, no I/O.
#![forbid(unsafe_code)]

pub mod awr;
pub mod compare;
pub mod json;
pub mod path;
pub mod reduce;
pub mod suite;
pub mod text;
