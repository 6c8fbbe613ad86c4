//! `dbio sweep`: one run per value of a setting, a table row per step as it finishes (in the
//! spirit of SLOB's AWR tables), then the knee, the saturation point and where bandwidth
//! levels off. The whole sweep is one JSON result.

use crate::args::SweepArgs;
use crate::cmd::fleet::executor;
use crate::deliver::{keep_and_stream, Delivery};
use crate::error::CliError;
use crate::exit::Exit;
use crate::history;
use crate::output::Transcript;
use crate::progress::Progress;
use crate::prologue::{failure, prologue, usage};
use crate::raw::raw_job;
use dbio_model::spill::sweep::SpilledSweep;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_orchestrate::executor::Executor;
use dbio_orchestrate::sweep::{run_sweep_spilled, SweepObserver, SweepPlan};
use dbio_orchestrate::sweep_words::SweepWords;
use dbio_report::sweep as text;
use dbio_store::Store;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Checks `--vary`, the objective and every step's job; the message says what is wrong.
pub fn plan(a: &SweepArgs) -> Result<SweepPlan, CliError> {
    let words = SweepWords {
        run: raw_job(&a.run),
        vary: a.vary.clone().unwrap_or_default(),
        slo: a.slo.clone(),
        target_latency: a.target_latency.clone(),
    };
    Ok(words.plan()?)
}

/// The sweep's table as it goes: its header, a progress display per step, a row per
/// finished step, and the conclusions.
pub struct Table<'a> {
    /// Seconds planned after the sweep (by a suite), for the time left in all.
    after_secs: f64,
    /// Without an objective, say that --slo would find the knee.
    knee_hint: bool,
    quiet: bool,
    /// The varied setting and its values, as written.
    key: &'static str,
    values: Vec<String>,
    progress: Option<Progress>,
    say: &'a dyn Fn(&str),
}

impl<'a> Table<'a> {
    /// A table printed through `say`, `after_secs` planned after the sweep.
    pub fn new(after_secs: f64, knee_hint: bool, quiet: bool, say: &'a dyn Fn(&str)) -> Self {
        Table {
            after_secs,
            knee_hint,
            quiet,
            key: "",
            values: Vec::new(),
            progress: None,
            say,
        }
    }
}

impl SweepObserver for Table<'_> {
    fn start(&mut self, s: &SweepPlan) {
        self.key = s.key;
        self.values = s.values.clone();
        (self.say)(&text::header(&s.specs[0], s.key));
    }

    fn step_start(&mut self, _: usize, later_secs: f64) {
        let more = later_secs + self.after_secs;
        self.progress = Some(Progress::new(self.quiet).more_after(more));
    }

    fn event(&mut self, ev: dbio_runner::Event) {
        if let Some(p) = self.progress.as_mut() {
            p.on(ev);
        }
    }

    fn step_end(&mut self, i: usize, r: Option<&RunResult>) {
        if let Some(mut p) = self.progress.take() {
            p.finish();
        }
        if let Some(r) = r {
            (self.say)(&text::row(&self.values[i], r));
        }
    }

    fn step_failed(&mut self, i: usize, why: &str) {
        eprintln!("{}", text::step_failed(self.key, &self.values[i], why));
    }

    fn end(&mut self, r: &SweepResult) {
        (self.say)(&text::conclusions(r, self.knee_hint));
    }
}

/// Runs the steps of `p` through `exec` (every one, or a bisection with --target-latency),
/// printing the table through `say`; the steps stay in their spill files. `knee_hint`:
/// without an objective, say that --slo would find the knee. Err when the first step cannot run at all; a later failure or Ctrl-C ends
/// the sweep early with the steps so far, marked partial.
pub fn execute(
    p: &SweepPlan,
    knee_hint: bool,
    exec: &mut dyn Executor,
    quiet: bool,
    stop: &Arc<AtomicBool>,
    say: &dyn Fn(&str),
) -> Result<SpilledSweep, CliError> {
    let mut table = Table::new(0.0, knee_hint, quiet, say);
    run_sweep_spilled(p, exec, stop, &mut table).map_err(CliError::from)
}

/// Runs `dbio sweep` and returns its exit status.
pub fn run(a: SweepArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio sweep";
    let outputs = Delivery::of(&a.run).outputs();
    let inputs = crate::cmd::run::inputs(&a.run);
    let ready = prologue(CMD, &outputs, &inputs, &a.run.store, || plan(&a))?;
    let stop = ready.stop.flag();
    let transcript = Transcript::new(a.run.out.quiet, a.run.out.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let run = &a.run;
    let exec = executor(&run.fleet, run.store.label.as_deref(), run.out.quiet);
    let sweep = exec
        .and_then(|mut e| execute(&ready.work, true, &mut *e, run.out.quiet, &stop, &say))
        .map_err(usage(CMD))?;
    let d = Delivery::of(run);
    let name = || format!("vary {}", sweep.outline.vary);
    deliver(&sweep, &d, ready.store.as_ref(), &transcript, name, CMD)?;
    // --verify: any step whose writes did not all read back ends the sweep with status 3.
    let bad = sweep.outline.bad_blocks();
    if bad > 0 {
        return Err(Exit::Corrupt.with(format!(
            "{CMD}: verify found {bad} bad blocks (exit status 3)"
        )));
    }
    Ok(Exit::ended(
        sweep.outline.partial,
        stop.load(Ordering::Relaxed),
    ))
}

/// Delivers a finished sweep: kept in the history with what was said (`transcript`), its
/// JSON written (both streamed, one step read back at a time), and its HTML page, named
/// `name` unless labelled. Err is the exit status.
pub fn deliver(
    sweep: &SpilledSweep,
    d: &Delivery,
    store: Option<&Store>,
    transcript: &Transcript,
    name: impl FnOnce() -> String,
    cmd: &str,
) -> Result<(), Exit> {
    let entry = || history::spilled_sweep_entry(sweep, &transcript.text(), d.to.label);
    keep_and_stream(store, entry, sweep, d, cmd)?;
    d.to.write_sweep_html(sweep, name).map_err(failure(cmd))
}
