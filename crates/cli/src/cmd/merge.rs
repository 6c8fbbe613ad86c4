//! `dbio merge FILE…`: hosts' results of one workload (run with one --start-at) merged into
//! one result, stored and printed like a run's.

use crate::cmd::run::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::Exit;
use crate::fleet_args::MergeArgs;
use crate::history;
use crate::prologue::{failure, prologue, usage};
use dbio_analyze::error::MergeError;
use dbio_analyze::merge::{merge_streamed, HostResult, MergeOptions};
use dbio_store::run_files::{read_heads, SecondsAt};

/// Runs `dbio merge` and returns its exit status.
pub fn run(a: MergeArgs) -> Result<Exit, Exit> {
    let d = Delivery::new(&a.out, a.html.as_deref(), &a.store);
    let outputs = d.outputs();
    let mut inputs = a.files.clone();
    inputs.extend(history::stored_in(&a.store));
    let ready = prologue("dbio merge", &outputs, &inputs, &a.store, || {
        hosts(&a.files)
    });
    let ((hosts, seconds), store) = ready.map(|r| (r.work, r.store))?;
    let opts = MergeOptions {
        allow_different: a.allow_different,
        ..Default::default()
    };
    // Each host's seconds read from its file as they are merged, a host at a time.
    let r = merge_streamed(&hosts, opts, |i, each| seconds[i].each(each));
    // Inputs that are no one run across hosts: 2; a file that could not be read again: 1.
    let r = r.map_err(|e| match e {
        MergeError::Refused(e) => usage("dbio merge")(e),
        MergeError::Seconds(e) => failure("dbio merge")(e),
    })?;
    // Judged as a cluster: every host's outstanding I/Os and device, the slowest named.
    let mut r = dbio_orchestrate::judge::judged(r);
    r.label = a.store.label.clone();
    Ok(deliver(r, &d, store.as_ref(), "dbio merge"))
}

/// The hosts' results in `files` without their seconds (checked, read again as they are
/// merged), each named by its host (and its file when two hosts share a name), and where
/// their seconds are; the message says what is wrong.
fn hosts(files: &[String]) -> Result<(Vec<HostResult>, Vec<SecondsAt>), CliError> {
    let heads = read_heads(files).into_iter().collect::<Result<Vec<_>, _>>();
    let heads = heads?;
    let (results, seconds) = heads.into_iter().map(|h| (h.result, h.seconds)).unzip();
    Ok((dbio_analyze::merge::files::hosts(files, results)?, seconds))
}
