//! `dbio collect`: samples a database, its devices and the CPU every interval into the
//! history (dbio-orchestrate's loop), or prints a stored collection's report.

use crate::exit::Exit;
use crate::output::{emit_json, print_out};
use crate::prologue::{failure, usage};
use dbio_orchestrate::collect::{
    begin, check, collect_on_hosts, read_exports, report, CollectRequest, Ended, Fleet, Progress,
};
use dbio_spec::collect_args::CollectArgs;
use std::sync::atomic::AtomicBool;

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
    let req = CollectRequest {
        url: a.url.clone(),
        device: a.device.clone(),
        interval: a.interval.clone(),
        duration: a.duration.clone(),
        name: a.name.clone(),
        resume: a.resume.clone(),
        exports: a.exports.clone(),
    };
    check(&req).map_err(usage(CMD))?;
    let stop = crate::signals::stop_flag();
    if a.emit {
        return ended(dbio_orchestrate::collect::emit(&req, stop));
    }
    if !a.hosts.is_empty() {
        return hosts(&req, &a, &stop);
    }
    let store = dbio_store::lookup::open(db).map_err(usage(CMD))?;
    if let Some((name, n)) = read_exports(&req, &store).map_err(usage(CMD))? {
        eprintln!("{CMD}: collection {name}: {n} samples read from the exports");
        return show(&report(&store, &name).map_err(failure(CMD))?, &a);
    }
    let mut b = begin(&req, Some(store)).map_err(usage(CMD))?;
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
    let done = b.run(&stop, &mut shown);
    bar.inspect(|bar| bar.finish_and_clear());
    let exit = ended(done)?;
    if !a.quiet {
        let store = b.keep.store().expect("samples went to the history");
        let r = report(store, &name).map_err(failure(CMD))?;
        print_out(&dbio_report::collect::text(&r, 10));
    }
    Ok(exit)
}

/// The exit status of a collection that ended so.
fn ended(e: Ended) -> Result<Exit, Exit> {
    match e {
        Ended::Complete => Ok(Exit::Ok),
        Ended::Interrupted => Ok(Exit::Interrupted),
        Ended::Failed(why) => Err(failure(CMD)(why)),
    }
}

/// `--hosts`: a collection on each host, stored here as NAME@HOST; a line per host on how
/// it ended, status 1 when one failed.
fn hosts(req: &CollectRequest, a: &CollectArgs, stop: &AtomicBool) -> Result<Exit, Exit> {
    let fleet = Fleet {
        hosts: a.hosts.clone(),
        remote_dbio: a.remote_dbio.clone(),
        ssh_config: a.ssh_config.clone(),
        db: a.history.db.clone(),
    };
    let bar = (!a.quiet).then(|| crate::progress::bar(None, "{spinner} {msg}"));
    let mut shown = |line: &str| bar.iter().for_each(|b| b.set_message(line.to_string()));
    let done = collect_on_hosts(req, &fleet, stop, &mut shown).map_err(usage(CMD))?;
    bar.inspect(|b| b.finish_and_clear());
    for h in &done {
        let c = h.collection.as_deref().unwrap_or("no collection");
        match &h.ended {
            Ok(state) => eprintln!("{CMD}: {}: {c} {state}", h.host),
            Err(why) => eprintln!("{CMD}: {}: {c}: {why}", h.host),
        }
    }
    if let Some(c) = done.iter().find_map(|h| h.collection.as_deref()) {
        let fleet = c.rsplit_once('@').map_or(c, |x| x.0);
        eprintln!("{CMD}: the hosts summed, interval by interval: dbio collect --report {fleet}");
    }
    Ok(match done.iter().any(|h| h.ended.is_err()) {
        true => Exit::Failure,
        false if stop.load(std::sync::atomic::Ordering::Relaxed) => Exit::Interrupted,
        false => Exit::Ok,
    })
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
    let md =
        a.md.as_ref()
            .map(|_| dbio_report::collect::markdown(r, 20))
            .unwrap_or_default();
    let outs = [
        ("--json", &a.json, &json),
        ("--csv", &a.csv, &csv),
        ("--html", &a.html, &html),
        ("--md", &a.md, &md),
    ];
    for (flag, path, body) in outs {
        if let Some(p) = path {
            emit_json(p, body).map_err(|e| failure(CMD)(format!("{flag} {p}: {e}")))?;
        }
    }
    if ![&a.json, &a.csv, &a.md]
        .iter()
        .any(|o| o.as_deref() == Some("-"))
    {
        print_out(&dbio_report::collect::text(r, 20));
    }
    Ok(Exit::Ok)
}
