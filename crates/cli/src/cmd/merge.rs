//! `dbio merge FILE…`: hosts' results of one workload (run with one --start-at) merged into
//! one result, stored and printed like a run's.

use crate::cmd::run::{deliver, Delivery};
use crate::exit::Exit;
use crate::fleet_args::MergeArgs;
use crate::history;
use crate::output::check_outputs;
use dbio_analyze::merge::{given_once, host_name, merge, HostResult, MergeOptions};
use dbio_store::run_files::read_all;

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
