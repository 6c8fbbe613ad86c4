//! A collection (`dbio collect`) analysed: its summary (peaks, 95th percentiles, what
//! bound each interval, objects' busiest intervals and growth) and the window
//! `dbio advise NAME --window` places objects by.

pub mod cluster;
pub mod spread;
pub mod summary;
pub mod window;

pub use cluster::Cluster;
pub use summary::Summary;
pub use window::{choose, parse, Chosen, Sum, Window};
