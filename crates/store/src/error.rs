//! Why the history could not be used, and which SQLite errors mean "try again".

use rusqlite::ErrorCode;
use std::path::PathBuf;

/// Why the history could not be used; its Display is one line naming the file.
#[derive(Debug)]
pub enum StoreError {
    /// The file (or its folder) cannot be created, opened or read.
    Io { path: PathBuf, why: String },
    /// The file is not a dbio history (another SQLite database, or not SQLite at all).
    NotHistory { path: PathBuf, why: String },
    /// Written by a newer dbio: left untouched.
    Newer {
        path: PathBuf,
        /// The file's schema version.
        found: u32,
        /// The newest schema version this dbio knows (its `CURRENT_VERSION`).
        knows: u32,
    },
    /// Any other database error.
    Sql { path: PathBuf, why: String },
    /// The PostgreSQL server of a team store cannot be reached or refused the login.
    Unreachable { path: PathBuf, why: String },
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Io { path, why } => write!(f, "history {}: {why}", path.display()),
            StoreError::NotHistory { path, why } => write!(
                f,
                "history {}: not a dbio history database ({why}); it was left as it is: give another file with --db, or move it away",
                path.display()
            ),
            StoreError::Newer { path, found, knows } => write!(
                f,
                "history {}: written by a newer dbio (schema version {found}; this dbio knows up to {knows}); it was left as it is: use the newer dbio, or another file with --db",
                path.display()
            ),
            StoreError::Sql { path, why } => write!(f, "history {}: {why}", path.display()),
            StoreError::Unreachable { path, why } => write!(
                f,
                "history {}: the store's server cannot be used ({why})",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// True when another connection's lock refused the statement (worth trying again).
pub(crate) fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked))
}
