//! dbio: a storage benchmark and analyzer for database workloads. The command line: flags in,
//! a command run, an exit status out; what the flags mean as a job is `dbio-spec`'s. A
//! library so that the `dbio` binary (`src/main.rs`) is one call and the fuzz targets (`fuzz/`)
//! reach the command lines.
#![forbid(unsafe_code)]

mod advise_args;
mod advise_wait;
mod args;
mod cmd;
mod db_args;
mod deliver;
mod error;
mod exit;
mod fleet_args;
mod formats;
#[doc(hidden)]
pub mod fuzz;
mod history;
mod out_args;
mod output;
mod progress;
mod prologue;
mod raw;
mod signals;
mod tool_args;
mod tool_formats;
mod verify_args;
mod workload;

use clap::Parser;
use dbio_spec::translate::tool::Tool;
use std::process::ExitCode;

/// Parses the process's arguments, runs the command and returns its exit status.
pub fn main() -> ExitCode {
    dbio_engine::sys::return_freed_memory();
    let cli = args::Cli::parse_from(db_args::canonical(std::env::args_os().collect()));
    match cli.command {
        args::Command::Run(a) => cmd::run::run(a.run, &a.formats).into(),
        args::Command::Profiles(a) => cmd::profiles::run(a).into(),
        args::Command::Sweep(a) => cmd::sweep::run(*a).into(),
        args::Command::History(a) => cmd::history::history(a).into(),
        args::Command::Show(a) => cmd::history::show(a).into(),
        args::Command::Export(a) => cmd::history::export(a).into(),
        args::Command::Compare(a) => cmd::compare::run(a).into(),
        args::Command::Suite(a) => cmd::suite::run(*a).into(),
        args::Command::Path(a) => cmd::path::run(a).into(),
        args::Command::Reduce(a) => cmd::reduce::run(*a).into(),
        args::Command::Report(a) => cmd::report::run(a).into(),
        args::Command::Sqlio(a) => cmd::translate::run(Tool::Sqlio, &a.args).into(),
        args::Command::Diskspd(a) => cmd::translate::run(Tool::Diskspd, &a.args).into(),
        args::Command::Fio(a) => cmd::translate::run(Tool::Fio, &a.args).into(),
        args::Command::Merge(a) => cmd::merge::run(*a).into(),
        args::Command::Clock => cmd::clock::run().into(),
        args::Command::Advise(a) => cmd::advise::run(*a).into(),
        args::Command::Db(a) => cmd::db::run(a.cmd).into(),
        args::Command::Verify(a) => cmd::verify::run(a).into(),
    }
}
