//! `dbio clock` (hidden): the far end of a launching dbio's clock probe over ssh. It names
//! its result schema and version, then answers every line on stdin with its wall clock in
//! nanoseconds since the epoch, until stdin closes.

use crate::exit::Exit;
use std::io::{BufRead, Write};
use std::time::SystemTime;

/// Serves clock probes until stdin closes.
pub fn run() -> Exit {
    let mut out = std::io::stdout().lock();
    let hello = format!(
        "dbio-clock {} {}",
        dbio_model::RUN_SCHEMA,
        env!("CARGO_PKG_VERSION")
    );
    if writeln!(out, "{hello}").and_then(|_| out.flush()).is_err() {
        return Exit::Failure;
    }
    for line in std::io::stdin().lock().lines() {
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
    Exit::Ok
}
