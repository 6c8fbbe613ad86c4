//! `dbio sqlio`, `dbio diskspd`, `dbio fio`: another tool's command line or job files in,
//! the equivalent `dbio run` printed first, then run by `dbio run` itself (same validation,
//! same safety). `--dry-run` prints without running.

use crate::args::{Cli, Command, RunCmd};
use crate::exit::Exit;
use crate::output::print_out;
use crate::translate::{command_line, diskspd, fio_ini, fio_job, sqlio, Fate, Translation};
use clap::{CommandFactory, Parser};

/// Which tool's words are being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Sqlio,
    Diskspd,
    Fio,
}

impl Tool {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Tool::Sqlio => "sqlio",
            Tool::Diskspd => "diskspd",
            Tool::Fio => "fio",
        }
    }
}

/// Runs `dbio sqlio`, `dbio diskspd` or `dbio fio`.
pub fn run(tool: Tool, raw: &[String]) -> Exit {
    let name = tool.name();
    let (theirs, mut ours) = split(raw);
    if ours.iter().any(|a| a == "--help") || theirs.iter().any(|a| a == "-?") || raw.is_empty() {
        return help(name);
    }
    let dry_run = ours.iter().any(|a| a == "--dry-run");
    ours.retain(|a| a != "--dry-run");
    let t = match translate(tool, &theirs) {
        Ok(t) => t,
        Err(e) => return Exit::usage(format!("dbio {name}: {e}")),
    };
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
        return Exit::usage(format!(
            "dbio {name}: nothing was run: {} option(s) above have no dbio counterpart",
            refused.len()
        ));
    }
    let runs = match parse_runs(name, &t, &ours) {
        Ok(r) => r,
        Err(e) => return Exit::usage(e),
    };
    let to_stdout =
        !ours.iter().any(|a| a == "-") && !ours.iter().any(|a| a == "-q" || a == "--quiet");
    let say = |s: String| {
        if to_stdout {
            print_out(&s)
        } else {
            eprint!("{s}")
        }
    };
    for (line, _) in &runs {
        say(format!("{line}\n"));
    }
    for n in &t.notes {
        if dry_run {
            say(format!("  {}\n", n.line()));
        } else if n.fate == Fate::Differs && to_stdout {
            eprintln!("note: {}", n.line());
        }
    }
    if dry_run {
        return Exit::Ok;
    }
    for (_, cmd) in runs {
        let exit = crate::cmd::run::run(cmd.run, &cmd.formats);
        if exit != Exit::Ok {
            return exit;
        }
    }
    Exit::Ok
}

/// The tool's arguments, then dbio's: dbio's start at the first `--flag`.
fn split(raw: &[String]) -> (Vec<String>, Vec<String>) {
    let at = raw
        .iter()
        .position(|a| a.starts_with("--"))
        .unwrap_or(raw.len());
    (raw[..at].to_vec(), raw[at..].to_vec())
}

fn help(name: &str) -> Exit {
    let mut cmd = Cli::command();
    if let Some(sub) = cmd.find_subcommand_mut(name) {
        print_out(&format!("{}", sub.render_long_help()));
    }
    Exit::Ok
}

fn read_file(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

/// The tool's words as a translation (an unreadable or malformed job file is an error).
pub fn translate(tool: Tool, args: &[String]) -> Result<Translation, String> {
    match tool {
        Tool::Sqlio => Ok(sqlio::translate(args, &read_file)),
        Tool::Diskspd => Ok(diskspd::translate(args, &read_file)),
        Tool::Fio => {
            if args.is_empty() {
                return Err("give one or more job files, e.g. dbio fio job.fio".into());
            }
            let env = |k: &str| std::env::var(k).ok();
            let world = fio_ini::World {
                read: &read_file,
                env: &env,
            };
            fio_job::translate(args, &world)
        }
    }
}

/// Each job's `dbio run` command line and its parsed flags, all validated before any runs.
pub(crate) fn parse_runs(
    name: &str,
    t: &Translation,
    ours: &[String],
) -> Result<Vec<(String, RunCmd)>, String> {
    if t.jobs.len() > 1 {
        if let Some(f) = ours
            .iter()
            .find(|a| matches!(a.as_str(), "--json" | "--html"))
        {
            return Err(format!(
                "dbio {name}: {f}: the translation has {} runs, which would all write the same file; run the jobs one at a time (one job file each) to keep each result",
                t.jobs.len()
            ));
        }
    }
    let mut out = Vec::new();
    for job in &t.jobs {
        let mut argv = vec!["run".to_string()];
        argv.extend(job.flags.args());
        argv.extend(ours.iter().cloned());
        let line = format!("dbio {}", command_line(&argv));
        let parsed =
            Cli::try_parse_from(std::iter::once("dbio".to_string()).chain(argv.iter().cloned()))
                .map_err(|e| {
                    format!("dbio {name}: {line}\n{}", e.render().to_string().trim_end())
                })?;
        let Command::Run(cmd) = parsed.command else {
            return Err(format!("dbio {name}: {line}: not a dbio run command line"));
        };
        crate::job::job_spec(&cmd.run)
            .map_err(|e| format!("dbio {name}: {line}\ndbio run: {e}"))?;
        out.push((line, *cmd));
    }
    Ok(out)
}
