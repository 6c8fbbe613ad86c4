//! What `dbio db` knows of a server and of its own schema: the schema's names, the
//! server's facts, the layout setup made (as its marker line) and the database's counters.

use crate::url::System;

/// dbio's schema (a PostgreSQL schema, a MariaDB database): its name says it is dbio's.
pub const SCHEMA: &str = "dbio_slob";
/// The table in dbio's schema recording every object dbio made there.
pub const MARKER: &str = "dbio_made";

/// Facts of the server a run or setup talks to.
#[derive(Debug, Clone)]
pub struct Server {
    pub system: System,
    pub version: String,
    /// Database block (page) size in bytes.
    pub block_size: u64,
    /// Bytes one row takes: a block (in InnoDB, the overflow page holding its pad).
    pub row_bytes: u64,
    pub buffer_pool_bytes: u64,
    /// The data directory, where the role may read it.
    pub data_dir: Option<String>,
    /// "buffered" or InnoDB's flush method.
    pub io_method: String,
}

/// What setup made, as the marker table records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub tables: u32,
    pub rows: u64,
}

/// The database's cumulative counters at an instant.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counters {
    pub reads: u64,
    pub read_time_s: Option<f64>,
    pub hits: u64,
    pub log_writes: u64,
    pub log_bytes: u64,
    pub log_syncs: u64,
    /// Time in log writes and syncs together, and in syncs alone (the commit wait).
    pub log_time_s: Option<f64>,
    pub log_sync_time_s: Option<f64>,
    pub commits: u64,
    pub data_writes: u64,
}

/// The marker's layout line.
pub fn layout_line(l: Layout) -> String {
    format!("tables={} rows={}", l.tables, l.rows)
}

/// Parses `tables=N rows=M`.
pub fn parse_layout(s: &str) -> Option<Layout> {
    let get = |k: &str| {
        s.split_whitespace()
            .find_map(|kv| kv.strip_prefix(k)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Some(Layout {
        tables: get("tables")? as u32,
        rows: get("rows")?,
    })
}
