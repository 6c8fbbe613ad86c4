//! `dbio sqlio`, `dbio diskspd`, `dbio fio`: another tool's command line or job files in,
//! the equivalent `dbio run` printed first, then run by `dbio run` itself (same validation,
//! same safety). `--dry-run` prints without running.

use crate::args::{Cli, Command, RunCmd};
use crate::exit::Exit;
use crate::output::print_out;
use clap::{CommandFactory, Parser};
use dbio_spec::translate::runs::{run_lines, RunLine};
use dbio_spec::translate::split::split;
use dbio_spec::translate::tool::{translate, Tool};
use dbio_spec::translate::{Fate, Translation};

/// Runs `dbio sqlio`, `dbio diskspd` or `dbio fio`.
pub fn run(tool: Tool, raw: &[String]) -> Result<Exit, Exit> {
    let name = tool.name();
    let (theirs, mut ours) = split(raw);
    if ours.iter().any(|a| a == "--help") || theirs.iter().any(|a| a == "-?") || raw.is_empty() {
        return Ok(help(name));
    }
    let dry_run = ours.iter().any(|a| a == "--dry-run");
    ours.retain(|a| a != "--dry-run");
    let t = translate(tool, &theirs).map_err(|e| e.map(|m| format!("dbio {name}: {m}")))?;
    let refused = t.refusals();
    if !refused.is_empty() {
        if dry_run {
            t.notes
                .iter()
                .for_each(|n| print_out(&format!("  {}\n", n.line())));
        }
        for n in &refused {
            eprintln!("dbio {name}: {}", n.line());
        }
        return Err(Exit::usage(format!(
            "dbio {name}: nothing was run: {} option(s) above have no dbio counterpart",
            refused.len()
        )));
    }
    let runs = parse_runs(name, &t, &ours)?;
    let to_stdout = dbio_spec::translate::outputs::lines_on_stdout(&t, &ours);
    let say = |s: String| {
        if to_stdout {
            print_out(&s)
        } else {
            eprint!("{s}")
        }
    };
    for (line, replaced, _) in &runs {
        say(format!("{line}\n"));
        for r in replaced {
            eprintln!("note: {r} of the {name} job is replaced by yours (the later word wins)");
        }
    }
    for n in &t.notes {
        if dry_run {
            say(format!("  {}\n", n.line()));
        } else if n.fate == Fate::Differs && to_stdout {
            eprintln!("note: {}", n.line());
        }
    }
    if dry_run {
        return Ok(Exit::Ok);
    }
    for (_, _, cmd) in runs {
        let exit = crate::cmd::run::run(cmd.run, &cmd.formats)?;
        if exit != Exit::Ok {
            return Err(exit);
        }
    }
    Ok(Exit::Ok)
}

/// Prints the long help of `dbio NAME`.
fn help(name: &str) -> Exit {
    let mut cmd = Cli::command();
    if let Some(sub) = cmd.find_subcommand_mut(name) {
        print_out(&format!("{}", sub.render_long_help()));
    }
    Exit::Ok
}

/// Each job's `dbio run` command line, the job's flags the user's replace, and its parsed
/// flags, all validated before any runs;
/// Err after saying what is wrong (status 2).
pub(crate) fn parse_runs(
    name: &str,
    t: &Translation,
    ours: &[String],
) -> Result<Vec<(String, Vec<String>, RunCmd)>, Exit> {
    let lines = run_lines(t, ours).map_err(|e| Exit::usage(format!("dbio {name}: {e}")))?;
    let mut out = Vec::new();
    for RunLine {
        argv,
        line,
        replaced,
    } in lines
    {
        let parsed =
            Cli::try_parse_from(std::iter::once("dbio".to_string()).chain(argv)).map_err(|e| {
                Exit::usage(format!(
                    "dbio {name}: {line}\n{}",
                    e.render().to_string().trim_end()
                ))
            })?;
        let Command::Run(cmd) = parsed.command else {
            return Err(Exit::usage(format!(
                "dbio {name}: {line}: not a dbio run command line"
            )));
        };
        crate::raw::job_spec(&cmd.run)
            .map_err(|e| Exit::usage(format!("dbio {name}: {line}\ndbio run: {e}")))?;
        out.push((line, replaced, *cmd));
    }
    Ok(out)
}
