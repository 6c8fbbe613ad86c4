//! `dbio advise`: checks the flags, gets the counts (live snapshots or exports), has
//! dbio-analyze rank and place the objects, then prints, writes and stores the advice.

use crate::advise_args::AdviseArgs;
use crate::advise_wait::Waiter;
use crate::exit::Exit;
use crate::history::{self, find, lookup_inputs};
use crate::output::{check_outputs, emit_json, print_out, write_atomic_with, write_file_atomic};
use dbio_analyze::advise::devices::Device;
use dbio_analyze::advise::kept::{kept, KEPT};
pub(crate) use dbio_analyze::advise::request::share;
use dbio_analyze::advise::request::{self, AdviseError, AdviseFlags, Plan};
use dbio_analyze::advise::Latency;
use dbio_db::gather::{gather, Outcome, Source};
use dbio_model::advise::AdviseResult;

/// Runs `dbio advise`.
pub fn run(a: AdviseArgs) -> Exit {
    if a.queries {
        print_out(dbio_db::queries::QUERIES);
        return Exit::Ok;
    }
    let fail = |m: String| Exit::usage(format!("dbio advise: {m}"));
    let plan = match plan(&a) {
        Ok(p) => p,
        Err(m) => return fail(m.to_string()),
    };
    let runs: Vec<&str> = plan
        .flash_run
        .iter()
        .chain(a.current.iter())
        .map(String::as_str)
        .collect();
    let mut inputs = a.exports.clone();
    inputs.extend(a.since.iter().chain(a.sizes.iter()).cloned());
    inputs.extend(lookup_inputs(&runs, a.store.db.as_deref()));
    inputs.extend(history::stored_in(&a.store));
    let outs = [
        ("--json", a.out.json.as_deref()),
        ("--html", a.html.as_deref()),
        ("--snapshot", a.snapshot.as_deref()),
    ];
    if let Err(m) = check_outputs(&outs, &inputs) {
        return fail(m.to_string());
    }
    let store = match (a.snapshot.is_some(), history::store_unless(&a.store)) {
        (true, _) => None,
        (false, Ok(s)) => s,
        (false, Err(m)) => return fail(m.to_string()),
    };
    let latency = match latency(&a, &plan) {
        Ok(l) => l,
        Err(m) => return fail(m.to_string()),
    };
    let sizes = match a.sizes.as_deref().map(dbio_db::gather::sizes) {
        Some(Err(m)) => return fail(m.to_string()),
        Some(Ok(s)) => Some(s),
        None => None,
    };
    let mut g = match gather(&source(&a), plan.interval, &mut Waiter::new(a.out.quiet)) {
        Ok(Outcome::Saved(msg)) => {
            if !a.out.quiet {
                eprintln!("dbio advise: {msg}");
            }
            return Exit::Ok;
        }
        Ok(Outcome::Counts(g)) => g,
        Err(e) => return Exit::of_error("dbio advise", &e),
    };
    if let Some(s) = &sizes {
        g.with_sizes(s, a.sizes.as_deref().unwrap_or(""));
    }
    if let Err(e) = g.check_io() {
        return Exit::Failure.with(format!("dbio advise: {e}"));
    }
    let interrupted = g.interrupted;
    let r = dbio_orchestrate::advise::analyse(&plan, latency, g);
    finish(&a, &r, store.as_ref(), interrupted)
}

/// The flags as dbio-analyze takes them, checked there.
pub(crate) fn plan(a: &AdviseArgs) -> Result<Plan, AdviseError> {
    request::plan(&AdviseFlags {
        url: a.url.is_some(),
        diskstats: a.diskstats,
        partitions: a.partitions,
        exports: a.exports.len(),
        interval: a.interval.clone(),
        snapshot: a.snapshot.clone(),
        since: a.since.is_some(),
        flash: a.flash.clone(),
        current: a.current.is_some(),
        flash_latency: a.flash_latency.clone(),
        io_wait_share: a.io_wait_share.clone(),
    })
}

/// The source as dbio-db takes it.
fn source(a: &AdviseArgs) -> Source {
    Source {
        url: a.url.clone(),
        diskstats: a.diskstats,
        partitions: a.partitions,
        exports: a.exports.clone(),
        snapshot: a.snapshot.clone(),
        since: a.since.clone(),
    }
}

/// The latency model: measured devices from stored runs, or the assumed flash latency.
fn latency(a: &AdviseArgs, p: &Plan) -> Result<Latency, AdviseError> {
    let Some(flash) = &p.flash_run else {
        return Ok(Latency::Assumed {
            flash_ms: p.flash_ms,
        });
    };
    let db = a.store.db.as_deref();
    Ok(Latency::Measured {
        flash: device(db, flash, "--flash")?,
        current: a
            .current
            .as_deref()
            .map(|c| device(db, c, "--current"))
            .transpose()?,
    })
}

/// A measured device from a stored run, sweep or suite (or a JSON file of one).
fn device(db: Option<&str>, name: &str, flag: &str) -> Result<Device, AdviseError> {
    let found = find(db, name).map_err(|m| AdviseError::NotFound {
        flag: flag.into(),
        name: name.into(),
        why: m.to_string(),
    })?;
    request::device_of(flag, name, &found.json)
}

/// Prints, writes and stores the advice.
fn finish(
    a: &AdviseArgs,
    r: &AdviseResult,
    store: Option<&dbio_store::Store>,
    interrupted: Option<f64>,
) -> Exit {
    let to_json = dbio_report::json::to_json::<AdviseResult>;
    // The whole result as a string only for stdout or a history that keeps it whole: of
    // 100,000 objects it is about 100 MB, and a --json file is written as it is made.
    let kept = store.map(|_| kept(r, KEPT));
    let json =
        (a.out.json.as_deref() == Some("-") || matches!(kept, Some(None))).then(|| to_json(r));
    let summary = dbio_report::advise::summary(r, a.top);
    if let (Some(store), Some(kept)) = (store, &kept) {
        let stored = kept.as_ref().map(to_json);
        let stored = stored.as_deref().or(json.as_deref()).unwrap_or_default();
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
        let written = match &json {
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
    if !a.out.quiet {
        if a.out.json.as_deref() == Some("-") {
            eprint!("{summary}");
        } else {
            print_out(&summary);
        }
    }
    if interrupted.is_some() {
        Exit::Interrupted
    } else {
        Exit::Ok
    }
}
