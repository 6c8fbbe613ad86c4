//! `dbio path TOPOLOGY.toml`: the ceilings of every hop, the weakest one, the ceilings at
//! other I/O sizes, and optionally a measured run held against the path.

use crate::args::PathArgs;
use crate::exit::Exit;
use crate::history::lookup_inputs;
use crate::output::{check_outputs, emit_json, print_out};
use crate::prologue::usage;
use dbio_analyze::flags::io_sizes;
use dbio_model::path::Topology;
use dbio_store::lookup::find_run;

/// Runs `dbio path`.
pub fn run(a: PathArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio path";
    // The history is read only for --run.
    let mut inputs = match &a.run {
        Some(run) => lookup_inputs(&[run.as_str()], a.history.db.as_deref()),
        None => Vec::new(),
    };
    inputs.push(a.topology.clone());
    check_outputs(&[("--json", a.json.as_deref())], &inputs).map_err(usage(CMD))?;
    let text = dbio_spec::input::read_text(&a.topology)
        .map_err(|e| usage(CMD)(format!("{}: {e}", a.topology)))?;
    let t = Topology::parse(&text, &a.topology).map_err(usage(CMD))?;
    let sizes = a
        .io_size
        .as_deref()
        .map(io_sizes)
        .transpose()
        .map_err(usage(CMD))?;
    let sizes = sizes.unwrap_or_default();
    let mut p = dbio_analyze::path::analyse(&t, &sizes);
    if let Some(name) = &a.run {
        let r = find_run(a.history.db.as_deref(), "--run", name).map_err(usage(CMD))?;
        p.run = Some(dbio_analyze::path::hold(&t, &r));
    }
    if let Some(path) = a.json.as_deref() {
        if let Err(e) = emit_json(path, &dbio_report::json::to_json(&p)) {
            return Err(Exit::Failure.with(format!("dbio path: cannot write {path}: {e}")));
        }
        if path == "-" {
            return Ok(Exit::Ok);
        }
    }
    print_out(&dbio_report::path::path(&p));
    Ok(Exit::Ok)
}
