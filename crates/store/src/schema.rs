//! The history's schema and its migrations. `PRAGMA user_version` is the schema version and
//! `PRAGMA application_id` marks the file as dbio's; each step takes a database one version
//! up inside a write transaction, so two processes opening a new file at once cannot both
//! apply it.

use crate::error::{is_busy, StoreError};
use rusqlite::{Connection, ErrorCode};
use std::path::Path;

/// The schema version this dbio writes.
pub const CURRENT_VERSION: u32 = 4;

/// Marks a SQLite file as a dbio history ("dbio" in ASCII).
const APPLICATION_ID: i32 = 0x6462_696f;

/// Step N takes version N to N + 1. Never edit a released step: add one.
const STEPS: &[&str] = &[
    // 0 → 1, the first release: one row per result, stored whole.
    "CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        started_at TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        label TEXT,
        profile TEXT NOT NULL,
        targets TEXT NOT NULL,
        iops REAL NOT NULL,
        mb_s REAL NOT NULL,
        p99_us REAL NOT NULL,
        json TEXT NOT NULL,
        summary TEXT NOT NULL
    );",
    // 1 → 2: the host of each result (histories merged from several hosts), and indexes
    // for label lookups and time filters.
    "ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
     CREATE INDEX runs_label ON runs (label, id);
     CREATE INDEX runs_started ON runs (started_at);",
    // 2 → 3: `json`, `summary` and `host` may hold BLOBs (a long sweep's entry is written in
    // place through incremental blob I/O, never whole in memory); readers take either. No
    // table changes: the version tells an older dbio, which fails on a blob, to refuse the
    // file by name instead.
    "",
    // 3 → 4: collections (`dbio collect`): one row each, its samples (compressed, keyed by
    // the interval's end; those before `rolled_until` are 10-minute sums) and the names of
    // its objects (samples refer to them by number).
    "CREATE TABLE collections (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        info TEXT NOT NULL,
        state TEXT NOT NULL,
        base BLOB,
        rolled_until INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
     );
     CREATE TABLE collection_objects (
        collection INTEGER NOT NULL REFERENCES collections (id),
        idx INTEGER NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        PRIMARY KEY (collection, idx)
     );
     CREATE TABLE collection_samples (
        collection INTEGER NOT NULL REFERENCES collections (id),
        t_ms INTEGER NOT NULL,
        secs REAL NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (collection, t_ms)
     );",
];

/// Checks that `conn` is a dbio history this dbio may use, then migrates it to
/// [`CURRENT_VERSION`]. SQLite answers "busy" at once, without waiting, where waiting could
/// deadlock (two processes creating the file together): then the whole check starts again.
pub fn migrate(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let mut tries = 0;
    loop {
        match migrate_once(conn, path) {
            Err(Failed::Busy(_)) if tries < 50 => {
                let _ = conn.execute_batch("ROLLBACK");
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10 * tries));
            }
            Err(Failed::Busy(e)) => {
                return Err(StoreError::Sql {
                    path: path.to_path_buf(),
                    why: e.to_string(),
                })
            }
            Err(Failed::Store(e)) => return Err(e),
            Ok(()) => return Ok(()),
        }
    }
}

/// Why one attempt at [`migrate`] stopped.
enum Failed {
    /// Another connection holds a lock: try again.
    Busy(rusqlite::Error),
    Store(StoreError),
}

fn migrate_once(conn: &Connection, path: &Path) -> Result<(), Failed> {
    let not_history = |why: String| {
        Failed::Store(StoreError::NotHistory {
            path: path.to_path_buf(),
            why,
        })
    };
    let sql = |e: rusqlite::Error| {
        if is_busy(&e) {
            Failed::Busy(e)
        } else {
            Failed::Store(StoreError::Sql {
                path: path.to_path_buf(),
                why: e.to_string(),
            })
        }
    };
    let pragma = |name: &str| -> Result<i64, Failed> {
        conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .map_err(|e| match e {
                rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::NotADatabase => {
                    not_history("the file is not an SQLite database, or it is damaged".into())
                }
                e => sql(e),
            })
    };
    // The three in one read transaction: another process creating the file at this moment
    // commits either before all of them or after all of them.
    conn.execute_batch("BEGIN").map_err(sql)?;
    let read = (|| {
        Ok((
            pragma("user_version")?,
            pragma("application_id")?,
            pragma("schema_version")?,
        ))
    })();
    conn.execute_batch("COMMIT").map_err(sql)?;
    let (version, app, tables) = read?; // schema_version is 0 for an empty file
    if app != APPLICATION_ID as i64 && (version != 0 || tables != 0) {
        return Err(not_history(format!(
            "it is an SQLite database of something else (application id {app})"
        )));
    }
    if version > CURRENT_VERSION as i64 {
        return Err(Failed::Store(StoreError::Newer {
            path: path.to_path_buf(),
            found: version as u32,
            knows: CURRENT_VERSION,
        }));
    }
    if version < CURRENT_VERSION as i64 {
        // WAL: readers never block the writer, and concurrent writers queue.
        conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()))
            .map_err(sql)?;
    }
    loop {
        conn.execute_batch("BEGIN IMMEDIATE").map_err(sql)?;
        // Read again inside the write lock: another process may have migrated meanwhile.
        let v = pragma("user_version")?;
        if v >= CURRENT_VERSION as i64 {
            conn.execute_batch("COMMIT").map_err(sql)?;
            return Ok(());
        }
        let step = format!(
            "{} PRAGMA user_version = {}; PRAGMA application_id = {APPLICATION_ID};",
            STEPS[v as usize],
            v + 1
        );
        if let Err(e) = conn.execute_batch(&step) {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(sql(e));
        }
        conn.execute_batch("COMMIT").map_err(sql)?;
    }
}
