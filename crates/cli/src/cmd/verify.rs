//! `dbio verify --journal FILE`: check targets against a verifying run's journal.

use crate::exit::Exit;
use crate::output::{check_outputs, emit_json, print_out};
use crate::prologue::usage;
use crate::verify_args::VerifyArgs;

/// Runs `dbio verify` and returns its exit status.
pub fn run(a: VerifyArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio verify";
    check_outputs(&[("--json", a.out.json.as_deref())], &[a.journal.as_str()])
        .map_err(usage(CMD))?;
    let report = dbio_runner::verify::journal::check(&a.journal, &a.target).map_err(usage(CMD))?;
    let summary = report.summary(20);
    if let Some(path) = a.out.json.as_deref() {
        let json = serde_json::to_string_pretty(&report).expect("a report serialises") + "\n";
        if let Err(e) = emit_json(path, &json) {
            eprint!("{summary}");
            return Err(Exit::Failure.with(format!(
                "dbio verify: cannot write the JSON report to {path}: {e}"
            )));
        }
    }
    if a.out.json.as_deref() == Some("-") || (a.out.quiet && report.corrupt()) {
        eprint!("{summary}");
    } else if !a.out.quiet {
        print_out(&summary);
    }
    Ok(if report.corrupt() {
        Exit::Corrupt.with(format!(
            "dbio verify: {} bad blocks (exit status 3)",
            report.corrupt.total()
        ))
    } else if report.final_pass != "done" {
        Exit::Failure.with(format!("dbio verify: {}", report.final_pass))
    } else {
        Exit::Ok
    })
}
