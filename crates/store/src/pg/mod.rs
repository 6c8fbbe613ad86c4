//! The history in a PostgreSQL server, for a team (`--db postgres://…` or `DBIO_DB`): the same
//! results as the SQLite file, in a schema `dbio` that dbio creates and migrates (its version
//! in `dbio.meta`, steps taken one at a time under an advisory lock, so that several hosts
//! opening a new store at once apply each step once). A schema `dbio` that is not dbio's, or
//! one from a newer dbio, is refused and left as it is.

pub mod collections;
pub(crate) mod copy;
pub(crate) mod runs;

use crate::{StoreError, CURRENT_VERSION};
use postgres::Client;
use std::path::PathBuf;

/// Whether `db` names a PostgreSQL server rather than a file.
pub fn is_url(db: &str) -> bool {
    let lower = db.to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// The key of the advisory lock migrations hold ("dbio" in ASCII).
const LOCK: i64 = 0x6462_696f;

/// Step N takes version N to N + 1, as the SQLite file's steps do. Never edit a released
/// step: add one.
const STEPS: &[&str] = &[
    "CREATE SCHEMA dbio;
     CREATE TABLE dbio.meta (key text PRIMARY KEY, value text NOT NULL);
     INSERT INTO dbio.meta VALUES ('application', 'dbio'), ('schema_version', '0');
     CREATE TABLE dbio.runs (
        id bigserial PRIMARY KEY,
        kind text NOT NULL,
        started_at text NOT NULL,
        stored_at text NOT NULL,
        label text,
        profile text NOT NULL,
        targets text NOT NULL,
        iops float8 NOT NULL,
        mb_s float8 NOT NULL,
        p99_us float8 NOT NULL,
        json text NOT NULL,
        summary text NOT NULL
     );",
    "ALTER TABLE dbio.runs ADD COLUMN host text NOT NULL DEFAULT '';
     CREATE INDEX runs_label ON dbio.runs (label, id);
     CREATE INDEX runs_started ON dbio.runs (started_at);",
    "",
    "CREATE TABLE dbio.collections (
        id bigserial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        info text NOT NULL,
        state text NOT NULL,
        base text,
        rolled_until bigint NOT NULL DEFAULT 0,
        updated_at text NOT NULL
     );
     CREATE TABLE dbio.collection_objects (
        collection bigint NOT NULL REFERENCES dbio.collections (id),
        idx integer NOT NULL,
        name text NOT NULL,
        kind text NOT NULL,
        PRIMARY KEY (collection, idx)
     );
     CREATE TABLE dbio.collection_samples (
        collection bigint NOT NULL REFERENCES dbio.collections (id),
        t_ms bigint NOT NULL,
        secs float8 NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (collection, t_ms)
     );",
];

/// The store's name in messages: its URL without the password.
pub fn shown(url: &str) -> PathBuf {
    PathBuf::from(dbio_db::url::redact(url))
}

/// Connects to the store at `url` and brings its schema up to date; `create` false leaves a
/// server without dbio's schema as it is (Ok(None): nothing stored there yet).
pub fn open(url: &str, create: bool) -> Result<Option<Client>, StoreError> {
    let mut c = dbio_db::pg::connect(url).map_err(|e| StoreError::Unreachable {
        path: shown(url),
        why: e.to_string(),
    })?;
    let sql = |e: postgres::Error| StoreError::Sql {
        path: shown(url),
        why: dbio_db::url::scrub(&e.to_string(), url),
    };
    let mut tx = c.transaction().map_err(sql)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .map_err(sql)?;
    let version = version(&mut tx, url)?;
    if version.is_none() && !create {
        return Ok(None);
    }
    let version = version.unwrap_or(0);
    if version > CURRENT_VERSION as i64 {
        return Err(StoreError::Newer {
            path: shown(url),
            found: version as u32,
            knows: CURRENT_VERSION,
        });
    }
    for (v, step) in STEPS.iter().enumerate().skip(version as usize) {
        tx.batch_execute(step).map_err(sql)?;
        tx.execute(
            "UPDATE dbio.meta SET value = $1 WHERE key = 'schema_version'",
            &[&(v as i64 + 1).to_string()],
        )
        .map_err(sql)?;
    }
    tx.commit().map_err(sql)?;
    Ok(Some(c))
}

/// The schema's version; None when the server has no schema `dbio`; an error when it has
/// one that is not dbio's.
fn version(tx: &mut postgres::Transaction, url: &str) -> Result<Option<i64>, StoreError> {
    let sql = |e: postgres::Error| StoreError::Sql {
        path: shown(url),
        why: dbio_db::url::scrub(&e.to_string(), url),
    };
    let has = |tx: &mut postgres::Transaction, q: &str| -> Result<bool, StoreError> {
        Ok(tx.query_one(q, &[]).map_err(sql)?.get::<_, i64>(0) > 0)
    };
    if !has(
        tx,
        "SELECT count(*) FROM pg_namespace WHERE nspname = 'dbio'",
    )? {
        return Ok(None);
    }
    let not = |why: &str| StoreError::NotHistory {
        path: shown(url),
        why: why.into(),
    };
    if !has(
        tx,
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'dbio' AND tablename = 'meta'",
    )? {
        return Err(not(
            "the server has a schema dbio that is not dbio's history (no dbio.meta)",
        ));
    }
    let rows = tx
        .query(
            "SELECT key, value FROM dbio.meta WHERE key IN ('application', 'schema_version')",
            &[],
        )
        .map_err(sql)?;
    let get = |k: &str| {
        rows.iter()
            .find(|r| r.get::<_, String>(0) == k)
            .map(|r| r.get::<_, String>(1))
    };
    if get("application").as_deref() != Some("dbio") {
        return Err(not("its schema dbio is marked as another application's"));
    }
    get("schema_version")
        .and_then(|v| v.parse().ok())
        .map(Some)
        .ok_or_else(|| not("dbio.meta has no schema version"))
}

/// An error of the store at `url` from a PostgreSQL error, without the password.
pub(crate) fn sql_error(url: &str) -> impl Fn(postgres::Error) -> StoreError + '_ {
    move |e| StoreError::Sql {
        path: shown(url),
        why: dbio_db::url::scrub(
            &e.as_db_error()
                .map_or_else(|| e.to_string(), |d| d.message().to_string()),
            url,
        ),
    }
}
