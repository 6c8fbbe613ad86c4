//! dbio's database side: cumulative I/O statistics of a live PostgreSQL or MariaDB/MySQL
//! (through the pure-Rust `postgres` and `mysql` clients, read-only), of SQL Server and
//! Oracle exports and of /proc/diskstats, as [`snapshot::Snapshot`]s whose delta
//! `dbio advise` analyses; and, with the `testkit` feature, private servers for tests.
#![forbid(unsafe_code)]

mod clock;
pub mod collect;
pub mod diskstats;
pub mod error;
pub mod export_text;
pub mod gather;
pub mod interval;
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

pub use clock::now_ms;
pub use error::DbError;
use snapshot::Snapshot;

/// Reads an export of any form dbio knows, told apart by its content: a dbio snapshot
/// (JSON), an AWR report, /proc/diskstats, or a SQL Server or Oracle CSV.
pub fn read_export(text: &str, file: &str, partitions: bool) -> Result<Snapshot, DbError> {
    parse_export(text, file, partitions).and_then(|s| s.checked(file))
}

/// The forms of export dbio reads.
enum Form {
    Json,
    Awr,
    Diskstats,
    SqlServer,
    Oracle,
}

/// The form of an export, from its content.
fn form(text: &str) -> Option<Form> {
    let header = text
        .trim_start_matches('\u{feff}')
        .lines()
        .next()
        .unwrap_or("");
    if text.trim_start().starts_with('{') {
        Some(Form::Json)
    } else if oracle::detect_awr(text) {
        Some(Form::Awr)
    } else if diskstats::detect(text) {
        Some(Form::Diskstats)
    } else if sqlserver::detect(header) {
        Some(Form::SqlServer)
    } else if oracle::detect(header) {
        Some(Form::Oracle)
    } else {
        None
    }
}

/// Whether a text is an AWR report (its File IO Stats section may come much later).
fn is_awr_report(text: &str) -> bool {
    text.lines()
        .take(20)
        .any(|l| l.to_ascii_uppercase().contains("WORKLOAD REPOSITORY"))
}

/// Refuses a file whose start (its first block) is of no form dbio reads, so that the rest
/// of it is never read.
pub fn check_export_start(head: &str, file: &str) -> Result<(), DbError> {
    if form(head).is_some() || is_awr_report(head) {
        Ok(())
    } else {
        Err(not_an_export(head, file))
    }
}

/// Why a text is not an export.
fn not_an_export(text: &str, file: &str) -> DbError {
    if text.trim().is_empty() {
        DbError::export(file, "the file is empty")
    } else if is_awr_report(text) {
        DbError::export(
            file,
            "an AWR report without its File IO Stats section; give the whole text report (awrrpt.sql, text format)",
        )
    } else {
        DbError::export(
            file,
            "not an export dbio advise reads (a SQL Server or Oracle CSV, an AWR report, /proc/diskstats or a dbio advise snapshot); `dbio advise --queries` prints the queries that make them",
        )
    }
}

/// The export in `text`, of the form its content shows, unchecked.
fn parse_export(text: &str, file: &str, partitions: bool) -> Result<Snapshot, DbError> {
    match form(text) {
        Some(Form::Json) => Snapshot::from_json(text, file),
        Some(Form::Awr) => oracle::parse_awr(text, file),
        Some(Form::Diskstats) => diskstats::parse(text, file, partitions),
        Some(Form::SqlServer) => sqlserver::parse(text, file),
        Some(Form::Oracle) => oracle::parse(text, file),
        None => Err(not_an_export(text, file)),
    }
}
