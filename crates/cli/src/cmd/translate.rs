//! `dbio sqlio`, `dbio diskspd`, `dbio fio`: another tool's command line or job files in,
//! the equivalent `dbio run` printed first, then run by `dbio run` itself (same validation,
//! same safety). `--dry-run` prints without running.

use crate::args::{Cli, Command, RunCmd};
use crate::exit::Exit;
use crate::output::print_out;
use clap::{CommandFactory, Parser};
use dbio_report::fio_join::FioParts;
use dbio_spec::translate::runs::{run_lines, RunLine};
use dbio_spec::translate::said::{before_runs, refusals, Said, To};
use dbio_spec::translate::split::Words;
use dbio_spec::translate::tool::{translate, Tool};
use dbio_spec::translate::Translation;

/// Runs `dbio sqlio`, `dbio diskspd` or `dbio fio`.
pub fn run(tool: Tool, raw: &[String]) -> Result<Exit, Exit> {
    let (name, w) = (tool.name(), Words::of(tool, raw));
    if w.help {
        return Ok(help(name));
    }
    let t = translate(tool, &w.theirs).map_err(|e| e.map(|m| format!("dbio {name}: {m}")))?;
    if let Some((said, closing)) = refusals(name, &t, w.dry_run) {
        say(&said);
        return Err(Exit::usage(closing));
    }
    let runs = parse_runs(name, &t, &w.ours)?;
    let lines = runs.iter().map(|(l, r, _)| (l.as_str(), r.as_slice()));
    say(&before_runs(name, &t, lines, &w));
    if w.dry_run {
        return Ok(Exit::Ok);
    }
    let each: Vec<_> = runs
        .iter()
        .map(|(_, _, c)| (c.formats.json_format.as_str(), c.run.out.json.as_deref()))
        .collect();
    let parts = FioParts::of(&each).map_err(|e| Exit::Failure.with(format!("dbio {name}: {e}")))?;
    let mut ended = Ok(Exit::Ok);
    for (i, (_, _, mut cmd)) in runs.into_iter().enumerate() {
        cmd.formats.sqlio_buffering = t.sqlio_buffering;
        cmd.formats.fio_part = parts.as_ref().map(|p| p.part(i));
        ended = crate::cmd::run::run(cmd.run, &cmd.formats);
        if ended != Ok(Exit::Ok) {
            break;
        }
    }
    let joined = parts.map_or(Ok(()), |p| p.join(print_out));
    joined.map_err(|e| Exit::Failure.with(format!("dbio {name}: {e}")))?;
    ended.and_then(|e| if e == Exit::Ok { Ok(e) } else { Err(e) })
}

/// Prints what a front end says, each line where it goes.
fn say(said: &Said) {
    for (to, line) in said {
        match to {
            To::Stdout => print_out(line),
            To::Stderr => eprint!("{line}"),
        }
    }
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
        crate::raw::plan(&cmd.run)
            .map_err(|e| Exit::usage(format!("dbio {name}: {line}\ndbio run: {e}")))?;
        out.push((line, replaced, *cmd));
    }
    Ok(out)
}
