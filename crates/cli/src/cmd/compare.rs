//! `dbio compare A B [C…]`: each run against the first, named by id, label or JSON file.

use crate::args::CompareArgs;
use crate::error::CliError;
use crate::exit::Exit;
use crate::history::find;
use crate::output::print_out;
use dbio_model::RunResult;

/// Parses `--devices A=75,B=6` (A is the first run, B the others).
pub(crate) fn devices(v: &str) -> Result<(f64, f64), CliError> {
    let bad = || {
        format!(
            "--devices {v}: write A=N,B=M with the device counts behind the runs, e.g. A=75,B=6"
        )
    };
    let mut a = None;
    let mut b = None;
    for part in v.split(',') {
        let (k, n) = part.split_once('=').ok_or_else(bad)?;
        let n: f64 = n
            .trim()
            .parse()
            .ok()
            .filter(|n: &f64| *n > 0.0)
            .ok_or_else(bad)?;
        match k.trim() {
            "A" | "a" => a = Some(n),
            "B" | "b" => b = Some(n),
            _ => return Err(bad().into()),
        }
    }
    Ok((a.ok_or_else(bad)?, b.ok_or_else(bad)?))
}

/// Runs `dbio compare`.
pub fn run(a: CompareArgs) -> Exit {
    let devices = match a.devices.as_deref().map(devices).transpose() {
        Ok(d) => d,
        Err(m) => return Exit::usage(format!("dbio compare: {m}")),
    };
    let names: Vec<&str> = a.runs.iter().map(String::as_str).collect();
    let inputs = crate::history::lookup_inputs(&names, a.history.db.as_deref());
    if let Err(m) = crate::output::check_outputs(&[("--html", a.html.as_deref())], &inputs) {
        return Exit::usage(format!("dbio compare: {m}"));
    }
    let mut runs: Vec<(String, RunResult)> = Vec::new();
    for name in &a.runs {
        let found = match find(a.history.db.as_deref(), name) {
            Ok(f) => f,
            Err(m) => return Exit::usage(format!("dbio compare: {m}")),
        };
        match serde_json::from_str::<RunResult>(&found.json) {
            Ok(r) => runs.push((name.clone(), r)),
            Err(_) => {
                return Exit::usage(format!(
                    "dbio compare: {name} is not a run result (a sweep?); compare takes runs: compare a sweep's steps by exporting them"
                ))
            }
        }
    }
    let (first, rest) = runs.split_first().expect("clap requires two runs");
    let mut out = String::new();
    for (name, r) in rest {
        if r == &first.1 {
            return Exit::usage(format!(
                "dbio compare: {} and {name} are the same run; give two different runs",
                first.0
            ));
        }
        out += &dbio_report::compare::compare(&first.1, r, (&first.0, name), devices);
        out.push('\n');
    }
    print_out(&out);
    if let Some(path) = a.html.as_deref() {
        let others: Vec<(&str, &RunResult)> = rest.iter().map(|(n, r)| (n.as_str(), r)).collect();
        let page = dbio_report::html::compare_page((&first.0, &first.1), &others);
        if let Err(e) = crate::output::write_file_atomic(path, page.as_bytes()) {
            return Exit::Failure.with(format!("dbio compare: cannot write {path}: {e}"));
        }
    }
    Exit::Ok
}
