//! dbio's database side: cumulative I/O statistics of a live PostgreSQL or MariaDB/MySQL
//! (through the pure-Rust `postgres` and `mysql` clients, read-only), of SQL Server and
//! Oracle exports and of /proc/diskstats, as [`snapshot::Snapshot`]s whose delta
//! `dbio advise` analyses; and, with the `testkit` feature, private servers for tests.
#![forbid(unsafe_code)]

pub mod diskstats;
pub mod kind;
pub mod live;
pub mod mariadb;
pub mod oracle;
pub mod password;
pub mod pg;
pub mod queries;
pub mod sizes;
pub mod slob;
pub mod snapshot;
pub mod sqlserver;
pub mod table;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod url;

use snapshot::Snapshot;

/// Unix time now in ms.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Reads an export of any form dbio knows, told apart by its content: a dbio snapshot
/// (JSON), an AWR report, /proc/diskstats, or a SQL Server or Oracle CSV.
pub fn read_export(text: &str, file: &str, partitions: bool) -> Result<Snapshot, String> {
    parse_export(text, file, partitions)?.checked(file)
}

fn parse_export(text: &str, file: &str, partitions: bool) -> Result<Snapshot, String> {
    let header = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    if text.trim_start().starts_with('{') {
        Snapshot::from_json(text, file)
    } else if oracle::detect_awr(text) {
        oracle::parse_awr(text, file)
    } else if diskstats::detect(text) {
        diskstats::parse(text, file, partitions)
    } else if sqlserver::detect(header) {
        sqlserver::parse(text, file)
    } else if oracle::detect(header) {
        oracle::parse(text, file)
    } else if text.trim().is_empty() {
        Err(format!("{file}: the file is empty"))
    } else {
        Err(format!(
            "{file}: not an export dbio advise reads (a SQL Server or Oracle CSV, an AWR report, /proc/diskstats or a dbio advise snapshot); `dbio advise --queries` prints the queries that make them"
        ))
    }
}
