//! `dbio collect`: samples a database, its devices and the CPU every interval into the
//! history (dbio-orchestrate's loop), or prints a stored collection's report.

use crate::exit::Exit;
use crate::output::{emit_json, print_out};
use crate::prologue::{failure, usage};
use dbio_orchestrate::collect::{begin, read_exports, report, CollectRequest, Ended, Progress};
use dbio_spec::collect_args::CollectArgs;

const CMD: &str = "dbio collect";

/// Runs `dbio collect` and returns its exit status.
pub fn run(a: CollectArgs) -> Result<Exit, Exit> {
    let db = a.history.db.as_deref();
    if let Some(name) = &a.report {
        let store = dbio_store::lookup::open_existing(db)
            .map_err(usage(CMD))?
            .ok_or_else(|| usage(CMD)(dbio_store::lookup::no_history(db)))?;
        return show(&report(&store, name).map_err(usage(CMD))?, &a);
    }
    let store = dbio_store::lookup::open(db).map_err(usage(CMD))?;
    let req = CollectRequest {
        url: a.url.clone(),
        device: a.device.clone(),
        interval: a.interval.clone(),
        duration: a.duration.clone(),
        name: a.name.clone(),
        resume: a.resume.clone(),
        exports: a.exports.clone(),
    };
    if let Some((name, n)) = read_exports(&req, &store).map_err(usage(CMD))? {
        eprintln!("{CMD}: collection {name}: {n} samples read from the exports");
        return show(&report(&store, &name).map_err(failure(CMD))?, &a);
    }
    let mut b = begin(&req, store).map_err(usage(CMD))?;
    let name = b.info.name.clone();
    if !a.quiet {
        eprintln!("{CMD}: {}", b.said());
    }
    let bar = (!a.quiet).then(|| crate::progress::bar(None, "{spinner} {msg}"));
    let mut shown = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_message(p.line(&name));
        }
    };
    let ended = b.run(&crate::signals::stop_flag(), &mut shown);
    bar.inspect(|bar| bar.finish_and_clear());
    let exit = match ended {
        Ended::Complete => Exit::Ok,
        Ended::Interrupted => Exit::Interrupted,
        Ended::Failed(why) => return Err(failure(CMD)(why)),
    };
    if !a.quiet {
        let r = report(&b.keep.store, &name).map_err(failure(CMD))?;
        print_out(&dbio_report::collect::text(&r, 10));
    }
    Ok(exit)
}

/// Prints the report, and writes its JSON and CSV where asked (to stdout with '-', instead of
/// the text).
fn show(r: &dbio_model::collect::CollectionReport, a: &CollectArgs) -> Result<Exit, Exit> {
    let json = serde_json::to_string_pretty(r).expect("a report serialises") + "\n";
    let csv = dbio_report::collect::csv(r);
    let html = a
        .html
        .as_ref()
        .map(|_| dbio_report::html::collect::page(r))
        .unwrap_or_default();
    let outs = [
        ("--json", &a.json, &json),
        ("--csv", &a.csv, &csv),
        ("--html", &a.html, &html),
    ];
    for (flag, path, body) in outs {
        if let Some(p) = path {
            emit_json(p, body).map_err(|e| failure(CMD)(format!("{flag} {p}: {e}")))?;
        }
    }
    if a.json.as_deref() != Some("-") && a.csv.as_deref() != Some("-") {
        print_out(&dbio_report::collect::text(r, 20));
    }
    Ok(Exit::Ok)
}
