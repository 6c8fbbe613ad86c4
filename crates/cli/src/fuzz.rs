//! The entry point of the `flags` fuzz target (`fuzz/`) for what only the command line
//! parses: whole command lines (clap, then each command's own checks). Flag values are the
//! libraries' parsers, fuzzed directly. It returns the parser's message on refusal; what it
//! must never do is panic.

use crate::args::{Cli, Command};
use clap::Parser;

/// A `dbio run`, `dbio sweep` or `dbio advise` command line (without the program name)
/// parsed by clap and checked as the command checks it before it does anything. Command
/// lines that would read a file (`--profile-file`, `--job-json` is read from the flag
/// itself and kept) are left out, so a run of the fuzzer reads nothing from the disk.
pub fn command_line(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a.contains("profile-file")) {
        return Ok(());
    }
    let argv = std::iter::once("dbio".to_string()).chain(args.iter().cloned());
    let cli = Cli::try_parse_from(argv).map_err(|e| e.to_string())?;
    match cli.command {
        Command::Run(c) => crate::raw::plan(&c.run)
            .map(drop)
            .map_err(|e| e.to_string()),
        Command::Sweep(s) => crate::cmd::sweep::plan(&s)
            .map(drop)
            .map_err(|e| e.to_string()),
        Command::Advise(a) => crate::cmd::advise::plan(&a)
            .map(drop)
            .map_err(|e| e.to_string()),
        _ => Ok(()),
    }
}
