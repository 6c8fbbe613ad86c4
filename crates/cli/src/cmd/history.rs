//! `dbio history`, `dbio show` and `dbio export`: the stored runs and sweeps, listed, printed
//! as they were printed at the time, and given back as their exact JSON.

use crate::args::{ExportArgs, HistoryArgs, ShowArgs};
use crate::exit::Exit;
use crate::history::{find, no_history, open_existing};
use crate::output::{emit_json, print_out};
use crate::prologue::{failure, usage};
use dbio_orchestrate::collect::report;
use dbio_store::Filter;

use dbio_store::since::since;

/// Runs `dbio history`.
pub fn history(a: HistoryArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio history";
    if let Some(other) = a.export_to.as_ref().or(a.import_from.as_ref()) {
        let done =
            dbio_store::lookup::copy(a.history.db.as_deref(), other, a.import_from.is_some());
        eprintln!("{CMD}: {}", done.map_err(usage(CMD))?);
        return Ok(Exit::Ok);
    }
    let filter = Filter {
        target: a.target,
        profile: a.profile,
        since: a
            .since
            .as_deref()
            .map(since)
            .transpose()
            .map_err(usage(CMD))?,
        label: a.label,
        limit: Some(a.limit),
    };
    let store = match open_existing(a.history.db.as_deref()) {
        Ok(Some(s)) => s,
        Ok(None) if a.history.db.is_none() => {
            eprintln!("dbio history: {}", no_history(None));
            return Ok(Exit::Ok);
        }
        Ok(None) => return Err(usage(CMD)(no_history(a.history.db.as_deref()))),
        Err(m) => return Err(usage(CMD)(m)),
    };
    let rows = store.list(&filter).map_err(failure(CMD))?;
    let collections = dbio_report::history::collections(&store, &filter).map_err(failure(CMD))?;
    if rows.is_empty() {
        eprintln!(
            "dbio history: no stored runs match (history {})",
            store.path().display()
        );
    } else {
        print_out(&dbio_report::history::table(rows));
    }
    print_out(&collections);
    Ok(Exit::Ok)
}

/// Runs `dbio show`: the summary as printed at the time (rendered anew for a JSON file).
pub fn show(a: ShowArgs) -> Result<Exit, Exit> {
    let db = a.history.db.as_deref();
    let found = match find(db, &a.run) {
        Ok(f) => f,
        // A collection's name shows its report.
        Err(e) => match open_existing(db).ok().flatten().map(|s| report(&s, &a.run)) {
            Some(Ok(r)) => {
                print_out(&dbio_report::collect::text(&r, 20));
                return Ok(Exit::Ok);
            }
            _ => return Err(usage("dbio show")(e)),
        },
    };
    if let Some(s) = found.summary {
        print_out(&s);
        return Ok(Exit::Ok);
    }
    match dbio_report::history::summary_of_json(&found.json) {
        Some(text) => print_out(&text),
        None => {
            return Err(Exit::usage(format!(
                "dbio show: {}: not a dbio run or sweep result (JSON from --json)",
                a.run
            )))
        }
    }
    Ok(Exit::Ok)
}

/// Runs `dbio export`: the stored JSON, byte for byte.
pub fn export(a: ExportArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio export";
    let inputs = crate::history::lookup_inputs(&[a.run.as_str()], a.history.db.as_deref());
    crate::output::check_outputs(&[("--json", a.json.as_deref())], &inputs).map_err(usage(CMD))?;
    let found = find(a.history.db.as_deref(), &a.run).map_err(usage(CMD))?;
    let to = a.json.as_deref().unwrap_or("-");
    match emit_json(to, &found.json) {
        Ok(()) => Ok(Exit::Ok),
        Err(e) => Err(Exit::Failure.with(format!("dbio export: cannot write {to}: {e}"))),
    }
}
