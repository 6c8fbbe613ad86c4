//! The far end of a launching dbio's clock probe (see `fleet/clock.rs`): name the result
//! schema and version, then answer every line read with the wall clock in nanoseconds
//! since the epoch, until the input closes.

use std::io::{BufRead, Write};
use std::time::SystemTime;

/// Answers the probe on `input`/`out`; `version` is the answering dbio's. An error only when
/// the greeting could not be written; a probe that goes away later ends the answering.
pub fn answer(input: impl BufRead, mut out: impl Write, version: &str) -> std::io::Result<()> {
    let hello = format!("dbio-clock {} {version}", dbio_model::RUN_SCHEMA);
    writeln!(out, "{hello}").and_then(|_| out.flush())?;
    for line in input.lines() {
        if line.is_err() {
            break;
        }
        let ns = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        if writeln!(out, "{ns}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
    Ok(())
}
