//! `dbio merge FILE…`: hosts' results of one workload (run with one --start-at) merged into
//! one result, stored and printed like a run's.

use crate::cmd::run::{deliver, Delivery};
use crate::exit::Exit;
use crate::fleet_args::MergeArgs;
use crate::history;
use crate::output::check_outputs;
use dbio_analyze::merge::{given_once, host_name, merge, HostResult, MergeOptions};
use dbio_model::RunResult;

/// Reads one host's result; the message names the file and what it is not.
fn read_result(path: &str) -> Result<RunResult, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{path}: not a regular file"));
    }
    let text = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    // One parse when the file is what it should be; the slow path below says what it is not.
    if let Ok(r) = serde_json::from_slice::<RunResult>(&text) {
        if r.schema == dbio_model::RUN_SCHEMA {
            return Ok(r);
        }
    }
    let text =
        String::from_utf8(text).map_err(|_| format!("{path}: not a dbio result (not text)"))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{path}: not a dbio result (not JSON: {e})"))?;
    match v.get("schema").and_then(|s| s.as_str()) {
        Some(s) if s == dbio_model::RUN_SCHEMA => {}
        Some(s) if s.starts_with("dbio.run/") => {
            return Err(format!(
                "{path}: schema {s} is newer than this dbio reads ({}); merge with the dbio that wrote it",
                dbio_model::RUN_SCHEMA
            ))
        }
        Some(s) => {
            return Err(format!(
                "{path}: a dbio {s} result, not a run's; merge the runs' own JSON (dbio run --json)"
            ))
        }
        None => return Err(format!("{path}: not a dbio result (no schema field)")),
    }
    serde_json::from_value(v).map_err(|e| format!("{path}: not a dbio run result: {e}"))
}

/// Reads every file's result, several at once (a host-hour of per-second histograms is
/// megabytes of JSON); in the order given.
fn read_all(files: &[String]) -> Vec<Result<RunResult, String>> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, files.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, Result<RunResult, String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut got = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = files.get(i) else { break got };
                        got.push((i, read_result(f)));
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

/// Runs `dbio merge` and returns its exit status.
pub fn run(a: MergeArgs) -> Exit {
    let outputs = [
        ("--json", a.out.json.as_deref()),
        ("--html", a.html.as_deref()),
    ];
    let mut inputs = a.files.clone();
    inputs.extend(history::stored_in(&a.store));
    if let Err(m) = check_outputs(&outputs, &inputs) {
        return Exit::usage(format!("dbio merge: {m}"));
    }
    let results = match read_all(&a.files)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(r) => r,
        Err(m) => return Exit::usage(format!("dbio merge: {m}")),
    };
    // Named by their files here: two hosts' names may be one.
    let files: Vec<&str> = a.files.iter().map(String::as_str).collect();
    if let Err(m) = given_once(&results.iter().collect::<Vec<_>>(), &files) {
        return Exit::usage(format!("dbio merge: {m}"));
    }
    let mut hosts: Vec<HostResult> = Vec::new();
    for (f, r) in a.files.iter().zip(results) {
        let mut name = host_name(r.label.as_deref(), &r);
        if hosts.iter().any(|h| h.name == name) {
            name = format!("{name} ({f})");
        }
        hosts.push(HostResult { name, result: r });
    }
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio merge: {m}")),
    };
    let opts = MergeOptions {
        allow_different: a.allow_different,
        ..Default::default()
    };
    // Judged as a cluster: every host's outstanding I/Os and device, the slowest named.
    let mut r = match merge(&hosts, opts) {
        Ok(r) => dbio_orchestrate::judge::judged(r),
        Err(m) => return Exit::usage(format!("dbio merge: {m}")),
    };
    r.label = a.store.label.clone();
    let d = Delivery {
        json: a.out.json.as_deref(),
        html: a.html.as_deref(),
        label: a.store.label.as_deref(),
        quiet: a.out.quiet,
    };
    deliver(r, &d, store.as_ref(), "dbio merge")
}
