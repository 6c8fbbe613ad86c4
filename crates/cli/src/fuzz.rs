//! Entry points of the fuzz targets in `fuzz/`: the parsers of user input that live in the
//! command line, called as `dbio` calls them. Each returns the parser's message on refusal;
//! what they must never do is panic. Not an interface for anything else.

use crate::args::{Cli, Command, RunArgs};
use crate::cmd::translate::{self, Tool};
use crate::translate::{diskspd, fio_job, sqlio};
use clap::Parser;
use dbio_model::profile::Profile;

/// Every flag value parser, chosen by `which` (taken modulo their number): sizes, durations,
/// latencies, `--bs`, `--skew`, `--sync`, `--vary`, `--steady`, `--burst`, `--think`,
/// `--data`, `--buckets`, `--sim`, `--slo`, path rates, host names, `--devices`, `--since`,
/// `--io-wait-share`, `--target ROLE=PATH`.
pub fn flag_value(which: u8, v: &str) -> Result<(), String> {
    use dbio_model::units;
    let e = |e: units::UnitError| e.to_string();
    match which % 20 {
        0 => units::parse_size(v).map(drop).map_err(e),
        1 => units::parse_duration(v).map(drop).map_err(e),
        2 => units::parse_latency(v).map(drop).map_err(e),
        3 => crate::job::parse_bs(v).map(drop),
        4 => crate::job::parse_skew(v).map(drop),
        5 => crate::job::parse_sync(v).map(drop),
        6 => crate::vary::parse_vary(v).map(drop),
        7 => {
            // The steady criterion with its window and cap, split at the first two '|'.
            let mut p = v.splitn(3, '|');
            let (c, w, m) = (p.next().unwrap_or(""), p.next(), p.next());
            crate::phases::parse_steady(c, w, m).map(drop)
        }
        8 => crate::phases::parse_burst(v).map(drop),
        9 => crate::session::parse_think(v).map(drop),
        10 => crate::data::parse_data(v).map(drop),
        11 => crate::buckets::parse(v).map(drop),
        12 => dbio_model::sim::SimDevice::parse(v).map(drop),
        13 => dbio_analyze::slo::Slo::parse(v).map(drop),
        14 => dbio_model::path::parse_rate(v).map(drop),
        15 => dbio_orchestrate::fleet::hosts::parse_host(v).map(drop),
        16 => crate::cmd::compare::devices(v).map(drop),
        17 => crate::cmd::history::since(v)
            .map(drop)
            .map_err(|e| e.to_string()),
        18 => crate::cmd::advise::share(v)
            .map(drop)
            .map_err(|e| e.to_string()),
        _ => crate::targets::check_value(v),
    }
}

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
        Command::Run(c) => crate::cmd::run::plan(&c.run).map(drop),
        Command::Sweep(s) => crate::cmd::sweep::plan(&s).map(drop),
        Command::Advise(a) => crate::cmd::advise::plan(&a)
            .map(drop)
            .map_err(|e| e.to_string()),
        _ => Ok(()),
    }
}

/// A profile's TOML, parsed and validated as `dbio run --profile-file` does it (every
/// stream of a multi-stream profile too), under the flags of a plain `dbio run`.
pub fn profile_toml(text: &str) -> Result<(), String> {
    let p = Profile::parse(text, "fuzz.toml")?;
    let a = plain_run_args();
    if p.stream.is_empty() {
        crate::streams::single_stream(&a, "fuzz.toml", &p)?;
        crate::job::spec_of(&a, "fuzz.toml", &p).map(drop)
    } else {
        crate::streams::stream_specs(&a, "fuzz.toml", &p).map(drop)
    }
}

fn plain_run_args() -> RunArgs {
    match Cli::try_parse_from(["dbio", "run"]).map(|c| c.command) {
        Ok(Command::Run(c)) => c.run,
        _ => unreachable!("`dbio run` alone parses"),
    }
}

/// Another tool's words: `which` picks SQLIO arguments, DiskSpd arguments (`-X` reads an
/// XML profile) or fio job files. `args` are the arguments, `files` what each file name
/// reads as (a name not in it is a missing file); the environment of fio's `${VAR}` is empty.
/// The translation is then checked as `dbio sqlio|diskspd|fio --dry-run` checks it.
pub fn job_files(which: u8, args: &[String], files: &[(String, String)]) -> Result<(), String> {
    let read = |path: &str| {
        files
            .iter()
            .find(|(n, _)| n == path)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| format!("{path}: No such file or directory"))
    };
    let (tool, t) = match which % 3 {
        0 => (Tool::Sqlio, sqlio::translate(args, &read)),
        1 => (Tool::Diskspd, diskspd::translate(args, &read)),
        _ => {
            if args.is_empty() {
                return Err("no job file".into());
            }
            let env = |_: &str| None;
            let world = crate::translate::fio_ini::World {
                read: &read,
                env: &env,
            };
            (Tool::Fio, fio_job::translate(args, &world)?)
        }
    };
    if !t.refusals().is_empty() {
        return Err("refused options".into());
    }
    translate::parse_runs(tool.name(), &t, &[]).map(drop)
}
