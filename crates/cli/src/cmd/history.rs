//! `dbio history`, `dbio show` and `dbio export`: the stored runs and sweeps, listed, printed
//! as they were printed at the time, and given back as their exact JSON.

use crate::args::{ExportArgs, HistoryArgs, ShowArgs};
use crate::exit::Exit;
use crate::history::{find, no_history, open_existing};
use crate::output::{emit_json, print_out};
use dbio_store::Filter;

pub(crate) use dbio_store::since::since;

/// Runs `dbio history`.
pub fn history(a: HistoryArgs) -> Exit {
    let filter = Filter {
        target: a.target,
        profile: a.profile,
        since: match a.since.as_deref().map(since).transpose() {
            Ok(s) => s,
            Err(m) => return Exit::usage(format!("dbio history: {m}")),
        },
        label: a.label,
        limit: Some(a.limit),
    };
    let store = match open_existing(a.history.db.as_deref()) {
        Ok(Some(s)) => s,
        Ok(None) if a.history.db.is_none() => {
            eprintln!("dbio history: {}", no_history(None));
            return Exit::Ok;
        }
        Ok(None) => {
            return Exit::usage(format!(
                "dbio history: {}",
                no_history(a.history.db.as_deref())
            ))
        }
        Err(m) => return Exit::usage(format!("dbio history: {m}")),
    };
    let rows = match store.list(&filter) {
        Ok(r) => r,
        Err(e) => return Exit::Failure.with(format!("dbio history: {e}")),
    };
    if rows.is_empty() {
        eprintln!(
            "dbio history: no stored runs match (history {})",
            store.path().display()
        );
        return Exit::Ok;
    }
    print_out(&dbio_report::history::table(rows));
    Exit::Ok
}

/// Runs `dbio show`: the summary as printed at the time (rendered anew for a JSON file).
pub fn show(a: ShowArgs) -> Exit {
    let found = match find(a.history.db.as_deref(), &a.run) {
        Ok(f) => f,
        Err(m) => return Exit::usage(format!("dbio show: {m}")),
    };
    if let Some(s) = found.summary {
        print_out(&s);
        return Exit::Ok;
    }
    match dbio_report::history::summary_of_json(&found.json) {
        Some(text) => print_out(&text),
        None => {
            return Exit::usage(format!(
                "dbio show: {}: not a dbio run or sweep result (JSON from --json)",
                a.run
            ))
        }
    }
    Exit::Ok
}

/// Runs `dbio export`: the stored JSON, byte for byte.
pub fn export(a: ExportArgs) -> Exit {
    let inputs = crate::history::lookup_inputs(&[a.run.as_str()], a.history.db.as_deref());
    if let Err(m) = crate::output::check_outputs(&[("--json", a.json.as_deref())], &inputs) {
        return Exit::usage(format!("dbio export: {m}"));
    }
    let found = match find(a.history.db.as_deref(), &a.run) {
        Ok(f) => f,
        Err(m) => return Exit::usage(format!("dbio export: {m}")),
    };
    let to = a.json.as_deref().unwrap_or("-");
    match emit_json(to, &found.json) {
        Ok(()) => Exit::Ok,
        Err(e) => Exit::Failure.with(format!("dbio export: cannot write {to}: {e}")),
    }
}
