//! `dbio merge FILE…`: hosts' results of one workload (run with one --start-at) merged into
//! one result, stored and printed like a run's.

use crate::cmd::run::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::Exit;
use crate::fleet_args::MergeArgs;
use crate::history;
use crate::prologue::{prologue, usage};
use dbio_analyze::merge::{merge, HostResult, MergeOptions};
use dbio_store::run_files::read_all;

/// Runs `dbio merge` and returns its exit status.
pub fn run(a: MergeArgs) -> Result<Exit, Exit> {
    let d = Delivery::new(&a.out, a.html.as_deref(), &a.store);
    let outputs = d.outputs();
    let mut inputs = a.files.clone();
    inputs.extend(history::stored_in(&a.store));
    let ready = prologue("dbio merge", &outputs, &inputs, &a.store, || {
        hosts(&a.files)
    });
    let (hosts, store) = ready.map(|r| (r.work, r.store))?;
    let opts = MergeOptions {
        allow_different: a.allow_different,
        ..Default::default()
    };
    // Judged as a cluster: every host's outstanding I/Os and device, the slowest named.
    let r = merge(&hosts, opts).map_err(usage("dbio merge"))?;
    let mut r = dbio_orchestrate::judge::judged(r);
    r.label = a.store.label.clone();
    Ok(deliver(r, &d, store.as_ref(), "dbio merge"))
}

/// The hosts' results in `files`, each read once and named by its host (and its file when
/// two hosts share a name); the message says what is wrong.
fn hosts(files: &[String]) -> Result<Vec<HostResult>, CliError> {
    let results = read_all(files).into_iter().collect::<Result<Vec<_>, _>>();
    let results = results?;
    Ok(dbio_analyze::merge::files::hosts(files, results)?)
}
