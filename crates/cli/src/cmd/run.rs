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
    let outputs = Delivery::of(&a).outputs();
    let ready = prologue("dbio run", &outputs, &inputs(&a), &a.store, || {
        Ok::<_, CliError>((plan(&a)?, start_at(&a)?))
    })?;
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
    let r = result.map_err(|e| Exit::no_result(&e, Ran::Here, "dbio run"))?;
    let d = Delivery::of(&a);
    Ok(deliver_as(r, &d, ready.store.as_ref(), "dbio run", formats))
}
