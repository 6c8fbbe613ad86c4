//! What the database side refuses or fails at: a URL, a server, an export, two snapshots, a
//! setup, a run, a private test server. Each names the flag, file or server (its URL without
//! the password), the value and what to try; no password ever appears in one.

/// Why the database side could not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DbError {
    /// `--url` names no system dbio knows.
    #[error("--url {url}: give postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT/DB (mariadb:// too)")]
    UnknownScheme { url: String },
    /// `--url` the driver cannot read.
    #[error("--url {url}: not a {system} URL: {why}")]
    BadUrl {
        url: String,
        system: &'static str,
        why: String,
    },
    /// No connection to the server at all.
    #[error("cannot connect to {url}: {cause}; check the host, port and socket, and that the server is running")]
    Connect { url: String, cause: String },
    /// What the server at `url` said, or why dbio refuses it, with what to do.
    #[error("{url}: {said}")]
    Server { url: String, said: String },
    /// The server sent no answer to the query of its facts.
    #[error("the server sent no facts")]
    NoFacts,
    /// `--work-unit` too large for the tables set up.
    #[error("--work-unit {work_unit}: the tables hold {rows} rows; use a work unit of at most half of them")]
    WorkUnit { work_unit: u32, rows: u64 },
    /// Too little free space beside the data for a run to go on.
    #[error("{dir} has {free_mib} MiB free, under the {keep_mib} MiB dbio keeps free beside the data, so the run stops before the disk fills (updates grow the tables and the log); free space there, or VACUUM / drop and set up again")]
    SpaceLow {
        dir: String,
        free_mib: u64,
        keep_mib: u64,
    },
    /// An error at the server `url`, said with its URL in front.
    #[error("{url}: {source}")]
    At { url: String, source: Box<DbError> },
    /// One session of a run failed.
    #[error("session {session}: {source}")]
    Session { session: u32, source: Box<DbError> },
    /// Setup stopped half way: what it made is recorded and `dbio db drop` removes it.
    #[error("{source}; what dbio made so far is recorded in {record}: remove it with `dbio db drop --url {url}`")]
    Unfinished {
        source: Box<DbError>,
        /// The marker table, SCHEMA.MARKER.
        record: String,
        url: String,
    },
    /// Ctrl-C while setup loaded the tables.
    #[error("interrupted while loading")]
    Interrupted,
    /// An export (or snapshot, or sizes file) that cannot be read as one.
    #[error("{file}: {why}")]
    Export { file: String, why: String },
    /// One line of an export that cannot be read.
    #[error("{file} line {line}: {why}")]
    ExportLine {
        file: String,
        line: u64,
        why: String,
    },
    /// Two snapshots whose difference means nothing.
    #[error("{why}")]
    Delta { why: String },
    /// A file of this host that could not be read.
    #[error("cannot read {path}: {error}")]
    Read { path: String, error: String },
    /// A private test server (feature `testkit`) that could not be made or used.
    #[error("{0}")]
    Private(String),
}

impl DbError {
    /// `file` cannot be read as an export, and why.
    pub(crate) fn export(file: &str, why: impl Into<String>) -> DbError {
        DbError::Export {
            file: file.to_string(),
            why: why.into(),
        }
    }

    /// Line `line` of `file` cannot be read, and why.
    pub(crate) fn line(file: &str, line: u64, why: impl Into<String>) -> DbError {
        DbError::ExportLine {
            file: file.to_string(),
            line,
            why: why.into(),
        }
    }

    /// Why two snapshots have no meaningful difference.
    pub(crate) fn delta(why: impl Into<String>) -> DbError {
        DbError::Delta { why: why.into() }
    }
}
