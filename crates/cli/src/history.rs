//! The history as the commands use it: where it is (`--db`, or the default), storing a
//! finished run or sweep, and naming a stored result by id, by label or by a JSON file.

use dbio_analyze::slo::{latency, Dir};
use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_store::{NewEntry, Store};
use std::path::PathBuf;

/// The file of the history at `--db`, or the default one.
fn path_of(db: Option<&str>) -> Result<PathBuf, String> {
    match db {
        Some(p) => Ok(PathBuf::from(p)),
        None => Store::default_path().ok_or_else(|| {
            "no place for the history: neither XDG_DATA_HOME nor HOME is set; give --db PATH or --no-store".into()
        }),
    }
}

/// Opens the history at `--db`, or the default one, creating it if need be. The message
/// names the file.
pub fn open(db: Option<&str>) -> Result<Store, String> {
    Store::open(&path_of(db)?).map_err(|e| e.to_string())
}

/// Opens the history to read from it: None when there is none yet (nothing stored), so a
/// mistyped --db is not created as an empty history.
pub fn open_existing(db: Option<&str>) -> Result<Option<Store>, String> {
    let path = path_of(db)?;
    if !path.exists() {
        return Ok(None);
    }
    Store::open(&path).map(Some).map_err(|e| e.to_string())
}

/// The message for a history that does not exist.
pub fn no_history(db: Option<&str>) -> String {
    match db {
        Some(p) => format!(
            "--db {p}: no history there (nothing has been stored at that path); check the path"
        ),
        None => {
            "no history yet: results are stored as `dbio run`, `sweep`, `suite` and `reduce` finish"
                .into()
        }
    }
}

/// The file of the history that `db` (a `--db` value, or the default) names, when there is one.
pub fn db_file(db: Option<&str>) -> Option<String> {
    db.map(str::to_string)
        .or_else(|| Store::default_path().map(|p| p.display().to_string()))
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

/// The file results go to, unless `--no-store`.
pub fn stored_in(a: &crate::args::StoreArgs) -> Option<String> {
    (!a.no_store).then(|| db_file(a.db.as_deref())).flatten()
}

/// The history results go to, unless `--no-store` (None then). A `--label` that `dbio show`
/// could not find again (empty, or digits that read as a run id) is refused first.
pub fn store_unless(a: &crate::args::StoreArgs) -> Result<Option<Store>, String> {
    if let Some(l) = &a.label {
        if l.trim().is_empty() {
            return Err("--label: give a name, e.g. --label array-a".into());
        }
        if l.parse::<i64>().is_ok() {
            return Err(format!(
                "--label {l}: `dbio show {l}` would mean run id {l}; use a name with letters, e.g. --label run-{l}"
            ));
        }
    }
    (!a.no_store).then(|| open(a.db.as_deref())).transpose()
}

/// Read + write IOPS, MB/s and the p99 latency (µs) of all I/Os of a run.
fn headline(r: &RunResult) -> (f64, f64, f64) {
    let p99 = latency(r, Dir::All).value_at_quantile(0.99) as f64 / 1000.0;
    (r.total_iops(), r.total_mb_s(), p99)
}

/// Where a run ran, in one line.
fn targets(r: &RunResult) -> String {
    if r.targets.is_empty() {
        dbio_report::text::place(&r.job)
    } else {
        r.targets
            .iter()
            .map(|t| t.path.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The history entry of a run, with its JSON and summary exactly as written and printed.
pub fn run_entry(r: &RunResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let (iops, mb_s, p99_us) = headline(r);
    NewEntry {
        kind: "run".into(),
        started_at: r.started_at.clone(),
        label: label.map(Into::into),
        profile: r.job.profile.clone(),
        targets: targets(r),
        host: r.host.hostname.clone(),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}

/// The history entry of a sweep: its headline is the knee, else its busiest step.
pub fn sweep_entry(s: &SweepResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let step = s.knee.as_ref().map(|k| k.step).or_else(|| {
        (0..s.steps.len())
            .max_by(|&a, &b| headline(&s.steps[a]).0.total_cmp(&headline(&s.steps[b]).0))
    });
    let first = s.steps.first();
    let (iops, mb_s, p99_us) = step.map_or((0.0, 0.0, 0.0), |i| headline(&s.steps[i]));
    NewEntry {
        kind: "sweep".into(),
        started_at: first.map_or(String::new(), |r| r.started_at.clone()),
        label: label.map(Into::into),
        profile: first.map_or(String::new(), |r| {
            format!("{} (vary {})", r.job.profile, s.vary)
        }),
        targets: first.map_or(String::new(), targets),
        host: first.map_or(String::new(), |r| r.host.hostname.clone()),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}

/// Stores `entry` and says where on stderr (unless quiet); a failure to store is a warning:
/// the result has been printed and written already.
pub fn keep(store: &Store, entry: &NewEntry, quiet: bool, cmd: &str) {
    match store.add(entry) {
        Ok(id) if !quiet => eprintln!("{cmd}: stored as run {id} in {}", store.path().display()),
        Ok(_) => {}
        Err(e) => eprintln!("{cmd}: warning: the result was not stored: {e}"),
    }
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
pub fn find(db: Option<&str>, name: &str) -> Result<Found, String> {
    let is_file = std::path::Path::new(name).is_file();
    let path_like = name.contains('/') || name.ends_with(".json");
    if is_file && (path_like || !in_history(db, name)) {
        return read_result_file(name);
    }
    let store = open_existing(db)?
        .ok_or_else(|| format!("{name}: no such run, label or file; {}", no_history(db)))?;
    let id = match name.parse::<i64>() {
        Ok(id) => id,
        Err(_) => store
            .newest_with_label(name)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                format!("no run is labelled '{name}', and no file of that name exists; `dbio history` lists the runs")
            })?,
    };
    match store.json(id).map_err(|e| e.to_string())? {
        Some(json) => Ok(Found {
            json,
            summary: store.summary(id).map_err(|e| e.to_string())?,
        }),
        None => {
            let near = store.ids_near(id, 5).map_err(|e| e.to_string())?;
            Err(if near.is_empty() {
                format!(
                    "no run {id}: the history {} is empty",
                    store.path().display()
                )
            } else {
                let near: Vec<String> = near.iter().map(|i| i.to_string()).collect();
                format!("no run {id}; nearby ids are {}", near.join(", "))
            })
        }
    }
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
fn read_result_file(name: &str) -> Result<Found, String> {
    let bytes = std::fs::read(name).map_err(|e| format!("{name}: {e}"))?;
    let not = |why: &str| {
        format!("{name}: not a dbio result ({why}); give a JSON file written by dbio --json, a run id or a label (write ./{name} for a file when a label has the same name)")
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

/// The history entry of an assessment: its headline is the knee of the oltp-read ramp.
pub fn suite_entry(s: &SuiteResult, json: &str, summary: &str, label: Option<&str>) -> NewEntry {
    let ramp = s.oltp_read.as_ref();
    let knee = ramp.and_then(|w| w.knee.as_ref().map(|k| &w.steps[k.step]));
    let first = ramp.and_then(|w| w.steps.first());
    let (iops, mb_s, p99_us) = knee.map_or((0.0, 0.0, 0.0), headline);
    NewEntry {
        kind: "suite".into(),
        started_at: first.map_or(String::new(), |r| r.started_at.clone()),
        label: label.map(Into::into),
        profile: if s.quick { "suite --quick" } else { "suite" }.into(),
        targets: first.map_or(String::new(), targets),
        host: first.map_or(String::new(), |r| r.host.hostname.clone()),
        iops,
        mb_s,
        p99_us,
        json: json.into(),
        summary: summary.into(),
    }
}
