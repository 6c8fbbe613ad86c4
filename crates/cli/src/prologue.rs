//! What every measuring command does before it measures: checks that its outputs write over
//! none of its inputs, builds what it runs from its flags, opens the history (a bad `--db`
//! stops it before any I/O) and gives the Ctrl-C stop flag.

use crate::args::StoreArgs;
use crate::exit::Exit;
use crate::history;
use crate::output::check_outputs;
use dbio_store::Store;
use std::cell::OnceCell;
use std::fmt::Display;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A command ready to measure: what it runs, the history its results go to (None with
/// `--no-store`) and the flag the first Ctrl-C or SIGTERM sets.
pub struct Ready<T> {
    pub work: T,
    pub store: Option<Store>,
    pub stop: Stop,
}

/// The Ctrl-C stop flag, set up at its first [`Stop::flag`]: before it a Ctrl-C ends dbio at
/// once (a fleet's host checks are not left to finish).
pub struct Stop(OnceCell<Arc<AtomicBool>>);

impl Stop {
    /// The flag the first Ctrl-C or SIGTERM sets from now on.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.get_or_init(crate::signals::stop_flag).clone()
    }
}

/// The prologue of command `cmd`: `outputs` (flag, path) checked against `inputs`, then
/// `build` (what the command runs), then the history of `store` opened; the stop flag comes
/// with it. Err is status 2 after saying, after `cmd: `, what is wrong.
pub fn prologue<T, E: Display, S: AsRef<str>>(
    cmd: &str,
    outputs: &[(&str, Option<&str>)],
    inputs: &[S],
    store: &StoreArgs,
    build: impl FnOnce() -> Result<T, E>,
) -> Result<Ready<T>, Exit> {
    check_outputs(outputs, inputs).map_err(usage(cmd))?;
    let work = build().map_err(usage(cmd))?;
    let store = history::store_unless(store).map_err(usage(cmd))?;
    let ready = Ready {
        work,
        store,
        stop: Stop(OnceCell::new()),
    };
    Ok(ready)
}

/// Bad input to command `cmd`: what is wrong said after `cmd: `, status 2.
pub fn usage<E: Display>(cmd: &str) -> impl Fn(E) -> Exit + '_ {
    move |e| Exit::usage(format!("{cmd}: {e}"))
}

/// A failure of command `cmd`: what went wrong said after `cmd: `, status 1.
pub fn failure<E: Display>(cmd: &str) -> impl Fn(E) -> Exit + '_ {
    move |e| Exit::Failure.with(format!("{cmd}: {e}"))
}
