//! The history as commands use it: where it is (`--db`, or the default), opening it to store
//! or to read, and naming a stored result by id, by label or by a JSON file.

use crate::{Store, StoreError};
use std::path::PathBuf;

/// Why the history, or a result named in it, could not be had; each message says what to try.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// Neither `--db` nor a default place.
    #[error("no place for the history: neither XDG_DATA_HOME nor HOME is set; give --db PATH or --no-store")]
    NoPlace,
    /// The history file itself.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A name that is no run, no label and no file, and no history to look in.
    #[error("{name}: no such run, label or file; {why}")]
    NoSuchName { name: String, why: String },
    /// No run carries the label.
    #[error(
        "no run is labelled '{0}', and no file of that name exists; `dbio history` lists the runs"
    )]
    NoLabel(String),
    /// A run id in an empty history.
    #[error("no run {id}: the history {path} is empty")]
    Empty { id: i64, path: String },
    /// A run id the history lacks, with the ids near it.
    #[error("no run {id}; nearby ids are {near}")]
    NoRun { id: i64, near: String },
    /// A result file that cannot be read.
    #[error("{name}: {source}")]
    File {
        name: String,
        source: std::io::Error,
    },
    /// A file that is not a dbio result.
    #[error("{name}: not a dbio result ({why}); give a JSON file written by dbio --json, a run id or a label (write ./{name} for a file when a label has the same name)")]
    NotResult { name: String, why: String },
    /// `--label` empty.
    #[error("--label: give a name, e.g. --label array-a")]
    EmptyLabel,
    /// `--label` of digits, which `dbio show` would read as a run id.
    #[error("--label {0}: `dbio show {0}` would mean run id {0}; use a name with letters, e.g. --label run-{0}")]
    NumericLabel(String),
    /// A result given to a flag that takes a run (`--run`), which is another kind (a sweep's,
    /// a suite's).
    #[error("{flag} {name}: not a run result; give a run id, label or JSON file")]
    NotRun { flag: String, name: String },
}

/// The history `--db` names, else `DBIO_DB`'s (a team's PostgreSQL store: postgres://…),
/// else none (the default file).
fn named(db: Option<&str>) -> Option<String> {
    db.map(str::to_string)
        .or_else(|| std::env::var("DBIO_DB").ok().filter(|v| !v.is_empty()))
}

/// The file of the history at `--db` (or `DBIO_DB`), or the default one.
fn path_of(db: Option<&str>) -> Result<PathBuf, LookupError> {
    match named(db) {
        Some(p) => Ok(PathBuf::from(p)),
        None => Store::default_path().ok_or(LookupError::NoPlace),
    }
}

/// Opens the history at `--db` (or `DBIO_DB`), or the default one, creating it (its file,
/// or its schema in a PostgreSQL store) if need be. The message names the history.
pub fn open(db: Option<&str>) -> Result<Store, LookupError> {
    match named(db) {
        Some(url) if crate::pg::is_url(&url) => {
            Ok(Store::open_url(&url, true)?.expect("a store opened to create is there"))
        }
        _ => Ok(Store::open(&path_of(db)?)?),
    }
}

/// Opens the history to read from it: None when there is none yet (nothing stored), so a
/// mistyped --db is not created as an empty history.
pub fn open_existing(db: Option<&str>) -> Result<Option<Store>, LookupError> {
    if let Some(url) = named(db).filter(|u| crate::pg::is_url(u)) {
        return Ok(Store::open_url(&url, false)?);
    }
    let path = path_of(db)?;
    if !path.exists() {
        return Ok(None);
    }
    Ok(Some(Store::open(&path)?))
}

/// The message for a history that does not exist.
pub fn no_history(db: Option<&str>) -> String {
    match named(db).map(|p| dbio_db::url::redact(&p)) {
        Some(p) if crate::pg::is_url(&p) => {
            format!("--db {p}: no dbio history on that server yet (nothing has been stored there)")
        }
        Some(p) => format!(
            "--db {p}: no history there (nothing has been stored at that path); check the path"
        ),
        None => {
            "no history yet: results are stored as `dbio run`, `sweep`, `suite` and `reduce` finish"
                .into()
        }
    }
}

/// The file of the history that `db` (a `--db` value, `DBIO_DB`, or the default) names, when
/// there is one (a PostgreSQL store is no file).
pub fn db_file(db: Option<&str>) -> Option<String> {
    match named(db) {
        Some(url) if crate::pg::is_url(&url) => None,
        Some(p) => Some(p),
        None => Store::default_path().map(|p| p.display().to_string()),
    }
}

/// What a command that reads stored results reads: the runs named by a JSON file (ids and
/// labels are not files) and the history; no output may overwrite them.
pub fn lookup_inputs(names: &[&str], db: Option<&str>) -> Vec<String> {
    names
        .iter()
        .filter(|n| std::path::Path::new(n).exists())
        .map(|n| n.to_string())
        .chain(db_file(db))
        .collect()
}

/// The file results go to, unless `no_store`.
pub fn stored_in(db: Option<&str>, no_store: bool) -> Option<String> {
    (!no_store).then(|| db_file(db)).flatten()
}

/// The history results go to, unless `no_store` (None then). A `label` that `dbio show`
/// could not find again (empty, or digits that read as a run id) is refused first. A team
/// store whose server cannot be reached gives None and the warning to say: the work goes on,
/// unstored.
pub fn store_unless(
    db: Option<&str>,
    label: Option<&str>,
    no_store: bool,
) -> Result<(Option<Store>, Option<String>), LookupError> {
    if let Some(l) = label {
        if l.trim().is_empty() {
            return Err(LookupError::EmptyLabel);
        }
        if l.parse::<i64>().is_ok() {
            return Err(LookupError::NumericLabel(l.into()));
        }
    }
    match (!no_store).then(|| open(db)).transpose() {
        Err(LookupError::Store(e @ StoreError::Unreachable { .. })) => Ok((
            None,
            Some(format!(
                "{e}; this result is not stored (still printed, and written where asked)"
            )),
        )),
        r => r.map(|s| (s, None)),
    }
}

/// Copies the history `from` names (`--db`, `DBIO_DB` or the default) into `to` (a file or
/// postgres://…, created if need be), or `to`'s into `from`'s with `import`; what was done,
/// in one line.
pub fn copy(db: Option<&str>, other: &str, import: bool) -> Result<String, LookupError> {
    let this = || {
        open_existing(db)?.ok_or_else(|| LookupError::NoSuchName {
            name: "this history".into(),
            why: no_history(db),
        })
    };
    let (from, to) = if import {
        let from = open_existing(Some(other))?.ok_or_else(|| LookupError::NoSuchName {
            name: dbio_db::url::redact(other),
            why: no_history(Some(other)),
        })?;
        (from, open(db)?)
    } else {
        (this()?, open(Some(other))?)
    };
    let done = from.copy_into(&to)?;
    let mut skipped = String::new();
    if done.held > 0 {
        skipped += &format!("; {} results already there", done.held);
    }
    if !done.skipped.is_empty() {
        skipped += &format!(
            "; collections already there, left as they were: {}",
            done.skipped.join(", ")
        );
    }
    Ok(format!(
        "copied {} results and {} collections from {} into {}{skipped}",
        done.results,
        done.collections,
        from.path().display(),
        to.path().display()
    ))
}

/// A stored result, found by what the user named.
pub struct Found {
    pub json: String,
    /// The summary as printed at the time (None for a JSON file).
    pub summary: Option<String>,
}

/// Finds a result named by `name`: a JSON file, a run id, or the newest run with that label.
///
/// The rule when a name could be both: a name that looks like a path (it holds a `/` or ends
/// in `.json`) is always a file; any other name is first a run id or label of the history,
/// and a file of that name is read only when the history has no such run. A file read that
/// is not a dbio result is refused as such.
pub fn find(db: Option<&str>, name: &str) -> Result<Found, LookupError> {
    let is_file = std::path::Path::new(name).is_file();
    let path_like = name.contains('/') || name.ends_with(".json");
    if is_file && (path_like || !in_history(db, name)) {
        return read_result_file(name);
    }
    let store = open_existing(db)?.ok_or_else(|| LookupError::NoSuchName {
        name: name.into(),
        why: no_history(db),
    })?;
    let id = match name.parse::<i64>() {
        Ok(id) => id,
        Err(_) => store
            .newest_with_label(name)?
            .ok_or_else(|| LookupError::NoLabel(name.into()))?,
    };
    match store.json(id)? {
        Some(json) => Ok(Found {
            json,
            summary: store.summary(id)?,
        }),
        None => {
            let near = store.ids_near(id, 5)?;
            Err(if near.is_empty() {
                LookupError::Empty {
                    id,
                    path: store.path().display().to_string(),
                }
            } else {
                let near: Vec<String> = near.iter().map(|i| i.to_string()).collect();
                LookupError::NoRun {
                    id,
                    near: near.join(", "),
                }
            })
        }
    }
}

/// The run result that `name`, given to `flag`, names (see [`find`]); a sweep's or a
/// suite's result is refused, naming the flag.
pub fn find_run(
    db: Option<&str>,
    flag: &str,
    name: &str,
) -> Result<dbio_model::RunResult, LookupError> {
    let found = find(db, name)?;
    serde_json::from_str(&found.json).map_err(|_| LookupError::NotRun {
        flag: flag.into(),
        name: name.into(),
    })
}

/// Whether the history holds a run with id or label `name`.
fn in_history(db: Option<&str>, name: &str) -> bool {
    let Ok(Some(store)) = open_existing(db) else {
        return false;
    };
    match name.parse::<i64>() {
        Ok(id) => matches!(store.json(id), Ok(Some(_))),
        Err(_) => matches!(store.newest_with_label(name), Ok(Some(_))),
    }
}

/// Reads a result file, refusing one that is not a dbio result.
fn read_result_file(name: &str) -> Result<Found, LookupError> {
    let bytes = std::fs::read(name).map_err(|source| LookupError::File {
        name: name.into(),
        source,
    })?;
    let not = |why: &str| LookupError::NotResult {
        name: name.into(),
        why: why.into(),
    };
    let json = String::from_utf8(bytes).map_err(|_| not("a binary file, not JSON text"))?;
    let v: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| not(&format!("not JSON: {e}")))?;
    if !v["schema"].as_str().is_some_and(|s| s.starts_with("dbio.")) {
        return Err(not("JSON without a dbio schema field"));
    }
    Ok(Found {
        json,
        summary: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_found_and_another_result_is_refused_by_its_flag() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let run = dir.path().join("run.json").display().to_string();
        let run_json = include_str!("../../report/tests/fixtures/run.json");
        std::fs::write(&run, run_json).expect("written");
        let db = dir.path().join("history.db").display().to_string();
        let r = find_run(Some(&db), "--run", &run).expect("a run");
        assert_eq!(r.schema, dbio_model::RUN_SCHEMA);
        let sweep = dir.path().join("sweep.json").display().to_string();
        std::fs::write(&sweep, r#"{"schema": "dbio.sweep.v1"}"#).expect("written");
        let e = find_run(Some(&db), "--run", &sweep).unwrap_err();
        assert!(matches!(e, LookupError::NotRun { .. }));
        assert_eq!(
            e.to_string(),
            format!("--run {sweep}: not a run result; give a run id, label or JSON file")
        );
    }
}
