//! A run through a real database (`dbio db run`): the SLOB method in PostgreSQL or MariaDB,
//! and three views of the same reads: the database's count, the device's and the client's.

use crate::histogram::latency::LatencySummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a database run worked: its sessions, work unit, update share and dbio's schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DbSpec {
    /// "postgresql" or "mariadb".
    pub system: String,
    /// The URL with any password replaced by `***`.
    pub url: String,
    /// dbio's own schema (e.g. "dbio_slob").
    pub schema: String,
    /// Sessions, each one database connection doing one operation at a time.
    pub sessions: u32,
    /// Tables set up (one per session at setup; sessions beyond them share tables).
    pub tables: u32,
    /// Rows per table (one database block each in PostgreSQL, half an InnoDB page in MariaDB).
    pub rows_per_table: u64,
    /// Keys read per operation (an index range scan of random single-block reads).
    pub work_unit: u32,
    /// Operations per 100 that update their rows and commit.
    pub update_pct: u8,
    /// Think time after each operation, if any: (min, max) in ns, drawn uniformly.
    pub think_ns: Option<[u64; 2]>,
}

/// The database's, the device's and the client's figures of a database run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DbReport {
    pub spec: DbSpec,
    /// The server's version string.
    pub server_version: String,
    /// Database block (page) size in bytes.
    pub block_size: u64,
    /// Bytes of dbio's tables and indexes.
    pub data_set_bytes: u64,
    /// The database's own cache: shared_buffers or innodb_buffer_pool_size, bytes.
    pub buffer_pool_bytes: u64,
    /// "buffered" (PostgreSQL, reads through the OS page cache) or the InnoDB flush method.
    pub io_method: String,
    /// The AWR-like table: the database's wait events and counters over the window.
    pub events: Vec<DbEvent>,
    /// What the database counted over the window.
    pub database: DbCounts,
    /// What the device holding the data directory served over the window.
    pub device: Option<DeviceView>,
    /// What dbio's sessions waited, per operation (HDR), and how many they did.
    pub client: ClientView,
    /// Reads the database counted as physical that the device did not serve (the OS page
    /// cache), percent of the database's reads.
    pub page_cache_pct: Option<f64>,
    /// CPU seconds of the database server's processes over the window (local servers).
    pub server_cpu_s: Option<f64>,
    /// CPU seconds of dbio itself over the window.
    pub dbio_cpu_s: f64,
    /// Where the three views disagree and why, in plain words.
    pub notes: Vec<String>,
}

/// One row of the AWR-like table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DbEvent {
    /// The database's name, e.g. "wait/io/file/innodb/innodb_data_file read" or "blks_read".
    pub name: String,
    /// The generic name, e.g. "single-block read", "WAL write", "commit".
    pub generic: String,
    pub waits: u64,
    /// Total time waited in seconds, where the database times it.
    pub time_s: Option<f64>,
    /// Waits per second over the window.
    pub per_s: f64,
}

/// The database's own counts over the window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct DbCounts {
    /// Blocks read from outside the database's cache ("physical reads").
    pub physical_reads: u64,
    /// Time the database spent in those reads, seconds (track_io_timing / performance_schema).
    pub read_time_s: Option<f64>,
    /// Block requests served from the database's cache.
    pub cache_hits: u64,
    /// WAL / redo log writes, bytes and syncs.
    pub log_writes: u64,
    pub log_bytes: u64,
    pub log_syncs: u64,
    pub log_time_s: Option<f64>,
    /// Transactions committed.
    pub commits: u64,
}

/// The block device under the data directory, from /proc/diskstats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceView {
    /// e.g. "loop3" or "nvme0n1p2".
    pub name: String,
    /// How it was found, e.g. "holds /var/lib/postgresql/15/main/base/5/16384".
    pub found_from: String,
    pub reads: u64,
    pub reads_merged: u64,
    pub read_bytes: u64,
    /// Time the device spent on reads (diskstats field 4), seconds.
    pub read_time_s: f64,
    pub writes: u64,
    pub write_bytes: u64,
    /// Busy share of the window (diskstats io_ticks), percent.
    pub util_pct: f64,
}

/// The client's view: operations and their latency from dbio's HDR histograms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClientView {
    pub operations: u64,
    pub updates: u64,
    /// Latency of one read operation (a whole work unit, one round trip).
    pub read_op_ns: LatencySummary,
    /// Latency of one update statement, when there were updates.
    pub update_ns: Option<LatencySummary>,
    /// Latency of one COMMIT, when there were updates (the commit wait).
    pub commit_ns: Option<LatencySummary>,
}
