//! Exporters: results in, bytes out. Pure functions, no I/O, but for `deliver`, which keeps
//! and writes a finished result where it goes.
#![forbid(unsafe_code)]

pub mod advise;
pub mod advise_json;
pub mod awr;
pub mod capture;
pub mod cluster;
pub mod collect;
pub mod compare;
pub mod compare_all;
pub mod csv;
pub mod db;
pub mod db_schema;
pub mod deliver;
pub mod device_latency;
pub mod diskspd;
mod diskspd_run;
pub mod diskspd_xml;
pub mod entry;
pub mod error;
mod fio_entries;
pub mod fio_job;
pub mod fio_join;
pub mod fio_json;
pub mod fio_log;
pub mod fio_percentiles;
pub mod formats;
pub mod history;
pub mod hlog;
pub mod hlog_of;
pub mod html;
pub mod item;
pub mod json;
pub mod live;
pub mod markdown;
pub mod path;
pub mod profiles;
pub mod reduce;
pub mod report_files;
pub mod sqlio;
pub mod suite;
pub mod sweep;
pub mod text;
mod units;
