//! `dbio run`: validate, run, then print and write the result (also when interrupted).

use crate::args::{RunArgs, StoreArgs};
use crate::deliver::deliver_as;
pub use crate::deliver::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::formats::FormatArgs;
use crate::history;
use crate::progress::Progress;
use crate::prologue::prologue;
use crate::raw::{plan, start_at, Workload};
use dbio_orchestrate::executor::Local;
use dbio_orchestrate::run_one;

/// What `run` and `sweep` read or measure, which no output may overwrite: the targets,
/// the profile file and the history.
pub fn inputs(a: &RunArgs) -> Vec<String> {
    let mut v = measured(&a.job.targets, &a.store);
    v.extend(a.job.profile_file.clone());
    v
}

/// The targets (also without their `role=`; the default test file when none is given) and
/// the history a measuring command writes to.
pub fn measured(targets: &[String], store: &StoreArgs) -> Vec<String> {
    let mut v = dbio_spec::measured::measured_paths(targets);
    v.extend(history::stored_in(store));
    v
}

/// Runs `dbio run` and returns its exit status; `formats` may ask for other tools' layouts.
pub fn run(a: RunArgs, formats: &FormatArgs) -> Result<Exit, Exit> {
    if let Some(exit) = crate::formats::before_run(&a, formats) {
        return Ok(exit);
    }
    if crate::cmd::fleet::wanted(&a.fleet) {
        return crate::cmd::fleet::run(a);
    }
    let plan = || Ok((plan(&a)?, start_at(&a)?));
    run_planned(&a, "dbio run", formats, inputs(&a), plan)
}

/// `dbio replay`: the trace's requests, run as `dbio run` runs a job.
pub fn replay(a: crate::args::ReplayCmd) -> Result<Exit, Exit> {
    let (r, formats) = (&a.run, &FormatArgs::default());
    let read = [inputs(r), vec![a.replay.trace.clone()]].concat();
    run_planned(r, "dbio replay", formats, read, || {
        let job = dbio_orchestrate::replay::replay_job(&crate::raw::raw_job(r), &a.replay);
        Ok((
            Workload::Single(Box::new(job.map_err(CliError::msg)?)),
            None,
        ))
    })
}

/// Runs the workload `plan` gives (after checking that no output overwrites what it reads,
/// `read`) and delivers its result as command `cmd`.
fn run_planned(
    a: &RunArgs,
    cmd: &str,
    formats: &FormatArgs,
    read: Vec<String>,
    plan: impl FnOnce() -> Result<(Workload, Option<std::time::SystemTime>), CliError>,
) -> Result<Exit, Exit> {
    let outputs = Delivery::of(a).outputs();
    let ready = prologue(cmd, &outputs, &read, &a.store, plan)?;
    let ((work, start_at), stop) = (&ready.work, ready.stop.flag());
    if a.fleet.stop_on_eof {
        dbio_orchestrate::fleet::remote::stop_on_eof(std::io::stdin(), stop.clone());
    }
    if let (Workload::Streams(_, notices), false) = (work, a.out.quiet) {
        notices.iter().for_each(|n| eprintln!("dbio run: {n}"));
    }
    let mut progress = Progress::new(a.out.quiet).line_mode(a.fleet.progress_lines);
    let result = run_one(&mut Local, &work.plan().at(*start_at), &stop, &mut |ev| {
        progress.on(ev)
    });
    progress.finish();
    let r = result.map_err(|e| Exit::no_result(&e, Ran::Here, cmd))?;
    Ok(deliver_as(
        r,
        &Delivery::of(a),
        ready.store.as_ref(),
        cmd,
        formats,
    ))
}
