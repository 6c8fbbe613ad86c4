//! dbio: a storage benchmark and analyzer for database workloads. The command line: flags in,
//! a command run, an exit status out; what the flags mean as a job is `dbio-spec`'s. A
//! library so that the `dbio` binary (`src/main.rs`) is one call and the fuzz targets (`fuzz/`)
//! reach the command lines.
#![forbid(unsafe_code)]

mod advise_wait;
mod args;
mod cmd;
use dbio_spec::db_args;
mod deliver;
mod error;
mod exit;
use dbio_spec::fleet_args;
mod formats;
#[doc(hidden)]
pub mod fuzz;
mod history;
mod output;
mod progress;
mod prologue;
mod raw;
mod signals;
mod tool_args;
mod tool_formats;
use dbio_spec::verify_args;

use clap::Parser;
use dbio_spec::translate::tool::Tool;
use std::process::ExitCode;

/// The exit status of a command that ended early (Err) or at its end (Ok).
fn status(r: Result<exit::Exit, exit::Exit>) -> ExitCode {
    r.unwrap_or_else(|e| e).into()
}

/// Parses the process's arguments, runs the command and returns its exit status.
pub fn main() -> ExitCode {
    dbio_engine::sys::return_freed_memory();
    let cli = args::Cli::parse();
    match cli.command {
        args::Command::Run(a) => status(cmd::run::run(a.run, &a.formats)),
        args::Command::Profiles(a) => cmd::profiles::run(a).into(),
        args::Command::Sweep(a) => match a.db {
            Some(args::SweepDb::Db(db)) => status(cmd::db::run(db_args::DbCmd::Sweep(db))),
            None => status(cmd::sweep::run(*a)),
        },
        args::Command::History(a) => status(cmd::history::history(a)),
        args::Command::Show(a) => status(cmd::history::show(a)),
        args::Command::Export(a) => status(cmd::history::export(a)),
        args::Command::Compare(a) => status(cmd::compare::run(a)),
        args::Command::Suite(a) => status(cmd::suite::run(*a)),
        args::Command::Path(a) => status(cmd::path::run(a)),
        args::Command::Reduce(a) => status(cmd::reduce::run(*a)),
        args::Command::Report(a) => status(cmd::report::run(a)),
        args::Command::Sqlio(a) => status(cmd::translate::run(Tool::Sqlio, &a.args)),
        args::Command::Diskspd(a) => status(cmd::translate::run(Tool::Diskspd, &a.args)),
        args::Command::Fio(a) => status(cmd::translate::run(Tool::Fio, &a.args)),
        args::Command::Merge(a) => status(cmd::merge::run(*a)),
        args::Command::Clock => cmd::clock::run().into(),
        args::Command::Advise(a) => status(cmd::advise::run(*a)),
        args::Command::Db(a) => status(cmd::db::run(a.cmd)),
        args::Command::Verify(a) => status(cmd::verify::run(a)),
        args::Command::Capture(a) => status(cmd::capture::run(a)),
        args::Command::Collect(a) => status(cmd::collect::run(*a)),
        args::Command::Replay(a) => status(cmd::run::replay(*a)),
        args::Command::Completions(a) => cmd::shell::completions(a).into(),
        args::Command::Man(a) => status(cmd::shell::man(a)),
    }
}
