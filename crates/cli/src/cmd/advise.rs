//! `dbio advise`: checks the flags, gets the counts (live snapshots or exports), has
//! dbio-analyze rank and place the objects, then prints, writes and stores the advice.

use crate::advise_wait::Waiter;
use crate::exit::Exit;
use crate::history::{self, find, lookup_inputs};
use crate::output::{
    check_outputs, emit_json, print_out, print_summary, write_atomic_with, write_file_atomic,
};
use crate::prologue::usage;
use dbio_analyze::advise::request::{AdviseError, Plan};
use dbio_db::gather::Source;
use dbio_model::advise::AdviseResult;
use dbio_orchestrate::advise::{Advice, AdviceError, Request};
use dbio_report::advise_json::AdviseJson;
use dbio_spec::advise_args::AdviseArgs;

/// Runs `dbio advise`.
pub fn run(a: AdviseArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio advise";
    if a.queries {
        print_out(dbio_db::queries::QUERIES);
        return Ok(Exit::Ok);
    }
    let req = request(&a);
    let plan = req.plan().map_err(usage(CMD))?;
    let mut inputs = req.inputs(&plan, |runs| lookup_inputs(runs, a.store.db.as_deref()));
    inputs.extend(history::stored_in(&a.store));
    let outs = [
        ("--json", a.out.json.as_deref()),
        ("--html", a.html.as_deref()),
        ("--snapshot", a.snapshot.as_deref()),
    ];
    check_outputs(&outs, &inputs).map_err(usage(CMD))?;
    let store = match (a.snapshot.is_some(), history::store_unless(&a.store)) {
        (true, _) => None,
        (false, s) => s.map_err(usage(CMD))?,
    };
    // A stored run, sweep or suite's JSON by name, or why it was not found.
    let stored = |name: &str| find(a.store.db.as_deref(), name).map(|f| f.json);
    match req.advise(&plan, &stored, &mut Waiter::new(a.out.quiet)) {
        Ok(Advice::Saved(msg)) => {
            if !a.out.quiet {
                eprintln!("dbio advise: {msg}");
            }
            Ok(Exit::Ok)
        }
        Ok(Advice::Made {
            result,
            interrupted,
        }) => Ok(finish(&a, &result, store.as_ref(), interrupted)),
        Err(AdviceError::Gather(e)) => Err(Exit::of_error(CMD, &e)),
        Err(e) => Err(usage(CMD)(e)),
    }
}

/// The flags as the library takes them, checked there (`Request::plan`).
pub(crate) fn plan(a: &AdviseArgs) -> Result<Plan, AdviseError> {
    request(a).plan()
}

/// The flags as dbio-orchestrate takes them: the source, and the settings as written.
fn request(a: &AdviseArgs) -> Request {
    Request {
        source: Source {
            url: a.url.clone(),
            diskstats: a.diskstats,
            partitions: a.partitions,
            exports: a.exports.clone(),
            snapshot: a.snapshot.clone(),
            since: a.since.clone(),
        },
        interval: a.interval.clone(),
        flash: a.flash.clone(),
        current: a.current.clone(),
        flash_latency: a.flash_latency.clone(),
        io_wait_share: a.io_wait_share.clone(),
        sizes: a.sizes.clone(),
        files: a.files.clone(),
        window: a.window.clone(),
        history: a.store.db.clone(),
    }
}

/// Prints, writes and stores the advice.
fn finish(
    a: &AdviseArgs,
    r: &AdviseResult,
    store: Option<&dbio_store::Store>,
    interrupted: bool,
) -> Exit {
    let texts = AdviseJson::of(r, a.out.json.as_deref() == Some("-"), store.is_some());
    let summary = dbio_report::advise::summary(r, a.top);
    if let (Some(store), Some(stored)) = (store, texts.stored()) {
        history::keep(
            store,
            &dbio_report::entry::advise_entry(r, stored, &summary, a.store.label.as_deref()),
            a.out.quiet,
            "dbio advise",
        );
    }
    if let Some(path) = a.html.as_deref() {
        if let Err(e) = write_file_atomic(path, dbio_report::html::advise::page(r).as_bytes()) {
            return Exit::Failure.with(format!("dbio advise: cannot write {path}: {e}"));
        }
    }
    if let Some(path) = a.out.json.as_deref() {
        let written = match &texts.whole {
            Some(json) => emit_json(path, json),
            None => write_atomic_with(path, |w| {
                serde_json::to_writer_pretty(&mut *w, r)?;
                std::io::Write::write_all(w, b"\n")
            }),
        };
        if let Err(e) = written {
            return Exit::Failure.with(format!("dbio advise: cannot write {path}: {e}"));
        }
    }
    print_summary(&summary, a.out.json.as_deref(), a.out.quiet);
    if interrupted {
        Exit::Interrupted
    } else {
        Exit::Ok
    }
}
