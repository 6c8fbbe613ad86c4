//! `dbio completions SHELL` and `dbio man`: the shell's and man's view of dbio's flags, made
//! by dbio-spec's `shell` from the clap definitions here.

use crate::args::Cli;
use crate::exit::Exit;
use crate::output::print_out;
use clap::CommandFactory;
use dbio_spec::shell::{self, CompletionsArgs, ManArgs};

/// Runs `dbio completions SHELL`: prints the shell's completion script.
pub fn completions(a: CompletionsArgs) -> Exit {
    print_out(&shell::completions(a.shell, Cli::command()));
    Exit::Ok
}

/// Runs `dbio man`: prints dbio.1, or writes every command's page into `--out DIR`.
pub fn man(a: ManArgs) -> Result<Exit, Exit> {
    match a.out {
        Some(dir) => shell::write_man_pages(Cli::command(), &dir)
            .map_err(|e| Exit::Failure.with(format!("dbio man: {e}")))?,
        None => print_out(&shell::man_page(Cli::command())),
    }
    Ok(Exit::Ok)
}
