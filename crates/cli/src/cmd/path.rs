//! `dbio path TOPOLOGY.toml`: the ceilings of every hop, the weakest one, the ceilings at
//! other I/O sizes, and optionally a measured run held against the path.

use crate::args::PathArgs;
use crate::exit::Exit;
use crate::history::{find, lookup_inputs};
use crate::output::{check_outputs, emit_json, print_out};
use dbio_analyze::flags::io_sizes;
use dbio_model::path::Topology;
use dbio_model::RunResult;

/// Runs `dbio path`.
pub fn run(a: PathArgs) -> Exit {
    let fail = |m: String| Exit::usage(format!("dbio path: {m}"));
    // The history is read only for --run.
    let mut inputs = match &a.run {
        Some(run) => lookup_inputs(&[run.as_str()], a.history.db.as_deref()),
        None => Vec::new(),
    };
    inputs.push(a.topology.clone());
    if let Err(m) = check_outputs(&[("--json", a.json.as_deref())], &inputs) {
        return fail(m.to_string());
    }
    let text = match dbio_spec::input::read_text(&a.topology) {
        Ok(t) => t,
        Err(e) => return fail(format!("{}: {e}", a.topology)),
    };
    let t = match Topology::parse(&text, &a.topology) {
        Ok(t) => t,
        Err(m) => return fail(m.to_string()),
    };
    let sizes = match a.io_size.as_deref().map(io_sizes).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(e) => return fail(e.to_string()),
    };
    let mut p = dbio_analyze::path::analyse(&t, &sizes);
    if let Some(name) = &a.run {
        let found = match find(a.history.db.as_deref(), name) {
            Ok(f) => f,
            Err(m) => return fail(m.to_string()),
        };
        match serde_json::from_str::<RunResult>(&found.json) {
            Ok(r) => p.run = Some(dbio_analyze::path::hold(&t, &r)),
            Err(_) => {
                return fail(format!(
                    "--run {name}: not a run result; give a run id, label or JSON file"
                ))
            }
        }
    }
    if let Some(path) = a.json.as_deref() {
        if let Err(e) = emit_json(path, &dbio_report::json::to_json(&p)) {
            return Exit::Failure.with(format!("dbio path: cannot write {path}: {e}"));
        }
        if path == "-" {
            return Exit::Ok;
        }
    }
    print_out(&dbio_report::path::path(&p));
    Exit::Ok
}
