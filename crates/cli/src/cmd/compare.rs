//! `dbio compare A B [C…]`: each run against the first, named by id, label or JSON file.

use crate::args::CompareArgs;
use crate::exit::Exit;
use crate::history::find;
use crate::output::print_out;
use crate::prologue::usage;
use dbio_analyze::flags::devices;
use dbio_model::RunResult;

/// Runs `dbio compare`.
pub fn run(a: CompareArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio compare";
    let devices = a
        .devices
        .as_deref()
        .map(devices)
        .transpose()
        .map_err(usage(CMD))?;
    let names: Vec<&str> = a.runs.iter().map(String::as_str).collect();
    let inputs = crate::history::lookup_inputs(&names, a.history.db.as_deref());
    crate::output::check_outputs(&[("--html", a.html.as_deref())], &inputs).map_err(usage(CMD))?;
    let mut runs: Vec<(String, RunResult)> = Vec::new();
    for name in &a.runs {
        let found = find(a.history.db.as_deref(), name).map_err(usage(CMD))?;
        match serde_json::from_str::<RunResult>(&found.json) {
            Ok(r) => runs.push((name.clone(), r)),
            Err(_) => {
                return Err(Exit::usage(format!(
                    "dbio compare: {name} is not a run result (a sweep?); compare takes runs: compare a sweep's steps by exporting them"
                )))
            }
        }
    }
    let (first, rest) = runs.split_first().expect("clap requires two runs");
    let out = dbio_report::compare_all::compare_all(first, rest, devices).map_err(usage(CMD))?;
    print_out(&out);
    if let Some(path) = a.html.as_deref() {
        let others: Vec<(&str, &RunResult)> = rest.iter().map(|(n, r)| (n.as_str(), r)).collect();
        let page = dbio_report::html::compare_page((&first.0, &first.1), &others);
        if let Err(e) = crate::output::write_file_atomic(path, page.as_bytes()) {
            return Err(Exit::Failure.with(format!("dbio compare: cannot write {path}: {e}")));
        }
    }
    Ok(Exit::Ok)
}
