//! Reading the hosts' run results that `dbio merge` merges: JSON files of `dbio run --json`,
//! several at once, each refused with what it is when it is not a run result of this schema.

use dbio_model::{RunResult, RUN_SCHEMA};

/// Why a file is not a run result this dbio merges; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A folder, a device or a pipe.
    #[error("{path}: not a regular file")]
    NotFile { path: String },
    /// Binary bytes.
    #[error("{path}: not a dbio result (not text)")]
    NotText { path: String },
    /// Text that is not JSON.
    #[error("{path}: not a dbio result (not JSON: {why})")]
    NotJson { path: String, why: String },
    /// A run result of a newer schema.
    #[error("{path}: schema {schema} is newer than this dbio reads ({RUN_SCHEMA}); merge with the dbio that wrote it")]
    Newer { path: String, schema: String },
    /// Another kind of dbio result (a sweep, a suite...).
    #[error(
        "{path}: a dbio {schema} result, not a run's; merge the runs' own JSON (dbio run --json)"
    )]
    NotRun { path: String, schema: String },
    /// JSON without a schema field.
    #[error("{path}: not a dbio result (no schema field)")]
    NoSchema { path: String },
    /// A run result whose fields do not read.
    #[error("{path}: not a dbio run result: {why}")]
    Damaged { path: String, why: String },
}

/// Reads one host's result; the message names the file and what it is not.
pub fn read_result(path: &str) -> Result<RunResult, RunFileError> {
    let io = |source| RunFileError::Io {
        path: path.into(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(RunFileError::NotFile { path: path.into() });
    }
    let text = std::fs::read(path).map_err(io)?;
    // One parse when the file is what it should be; the slow path below says what it is not.
    if let Ok(r) = serde_json::from_slice::<RunResult>(&text) {
        if r.schema == RUN_SCHEMA {
            return Ok(r);
        }
    }
    let text = String::from_utf8(text).map_err(|_| RunFileError::NotText { path: path.into() })?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| RunFileError::NotJson {
        path: path.into(),
        why: e.to_string(),
    })?;
    match v.get("schema").and_then(|s| s.as_str()) {
        Some(s) if s == RUN_SCHEMA => {}
        Some(s) if s.starts_with("dbio.run/") => {
            return Err(RunFileError::Newer {
                path: path.into(),
                schema: s.into(),
            })
        }
        Some(s) => {
            return Err(RunFileError::NotRun {
                path: path.into(),
                schema: s.into(),
            })
        }
        None => return Err(RunFileError::NoSchema { path: path.into() }),
    }
    serde_json::from_value(v).map_err(|e| RunFileError::Damaged {
        path: path.into(),
        why: e.to_string(),
    })
}

/// Reads every file's result, several at once (a host-hour of per-second histograms is
/// megabytes of JSON); in the order given.
pub fn read_all(files: &[String]) -> Vec<Result<RunResult, RunFileError>> {
    read_each(files, read_result)
}

/// Reads every file's result without its seconds ([`read_head`]), several at once; in the
/// order given.
pub fn read_heads(files: &[String]) -> Vec<Result<RunHead, RunFileError>> {
    read_each(files, read_head)
}

/// `read` of every file, on as many threads as there are CPUs; in the order given.
fn read_each<T: Send>(
    files: &[String],
    read: fn(&str) -> Result<T, RunFileError>,
) -> Vec<Result<T, RunFileError>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, Result<T, RunFileError>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut got = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = files.get(i) else { break got };
                        got.push((i, read(f)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("reading a result does not panic"))
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

mod chunks;
mod series;
pub use series::{read_head, RunHead, SecondsAt};
