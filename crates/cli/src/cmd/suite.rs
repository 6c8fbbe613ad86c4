//! `dbio suite`: the database storage assessment in one command: an oltp-read concurrency
//! ramp with its knee, oltp at the knee, log commit latency with 1–8 writers, TempDB, and a
//! DSS I/O-size sweep; then a scorecard against thresholds. The whole is one JSON result.
//! The parts are run by `dbio_orchestrate::suite`; here the flags become each part's job,
//! and what the suite says as it goes is printed.

use crate::args::SuiteArgs;
use crate::cmd::sweep::Table;
use crate::deliver::{html, keep_and_stream, Delivery};
use crate::error::CliError;
use crate::exit::Exit;
use crate::history;
use crate::output::{check_outputs, Transcript};
use crate::progress::Progress;
use crate::prologue::{prologue, usage};
use dbio_model::RunResult;
use dbio_orchestrate::suite::{self, Suite, SuiteObserver};
use dbio_orchestrate::suite_fleet;
use dbio_orchestrate::suite_setup::{Checked, SuiteWords};
use dbio_orchestrate::sweep::SweepObserver;
use std::sync::atomic::Ordering;

/// Checks the suite's flags before any part runs; the message says what is wrong.
fn check(a: &SuiteArgs) -> Result<Checked, CliError> {
    let (f, on_hosts) = (&a.fleet, crate::cmd::fleet::wanted(&a.fleet));
    suite_fleet::check(!f.target_on.is_empty(), f.split_region.as_deref(), on_hosts)?;
    let mut inputs = crate::cmd::run::measured(&a.targets, &a.store);
    inputs.extend(a.thresholds.clone());
    check_outputs(&delivery(a).outputs(), &inputs)?;
    let words = SuiteWords {
        engine: a.engine.clone(),
        targets: a.targets.clone(),
        size: a.size.clone(),
        quick: a.quick,
        sim: a.sim.clone(),
        destroy_data: a.destroy_data,
        device_latency: a.device_latency,
        profile: a.profile.clone(),
        thresholds: a.thresholds.clone(),
    };
    let quiet = a.out.quiet;
    let mut notice = |n: &str| {
        if !quiet {
            eprintln!("dbio suite: {n}");
        }
    };
    Ok(words.check(&mut notice)?)
}

/// Runs `dbio suite` and returns its exit status.
pub fn run(a: SuiteArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio suite";
    // The outputs are checked among the suite's own flags, in their order.
    let none: [&str; 0] = [];
    let ready = prologue(CMD, &[], &none, &a.store, || check(&a))?;
    let Checked {
        setup,
        thresholds,
        captured,
    } = ready.work;
    let stop = ready.stop.flag();
    let transcript = Transcript::new(a.out.quiet, a.out.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let mut s = suite::empty_result(a.quick, &setup.targets, thresholds);
    let jobs = |profile: &str, role: &str| setup.job(profile, role);
    let parts = Suite {
        quick: a.quick,
        jobs: &jobs,
        captured: captured.as_ref(),
        stop: &stop,
    };
    let mut show = Show {
        quiet: a.out.quiet,
        say: &say,
        progress: None,
    };
    let result = crate::cmd::fleet::executor(&a.fleet, a.store.label.as_deref(), a.out.quiet)
        .and_then(|mut exec| {
            parts
                .run(&mut *exec, &mut show, &mut s)
                .map_err(CliError::from)
        });
    let interrupted = stop.load(Ordering::Relaxed);
    if let Err(m) = &result {
        if s.oltp_read.is_none() && !interrupted {
            return Err(usage(CMD)(m));
        }
        eprintln!("{CMD}: {m}");
    }
    suite::conclude(&mut s, result.is_err() || interrupted);
    say(&dbio_report::suite::scorecard(&s));
    let d = delivery(&a);
    let entry = || history::suite_entry(&s, "", &transcript.text(), d.to.label);
    keep_and_stream(ready.store.as_ref(), entry, &s, &d, CMD)?;
    html(&d, || d.to.suite_item(&s), CMD)?;
    Ok(Exit::ended(s.partial, interrupted))
}

/// Where the suite's result goes.
fn delivery(a: &SuiteArgs) -> Delivery<'_> {
    Delivery::new(&a.out, a.html.as_deref(), &a.store)
}

/// The suite as it goes: a heading per part, a sweep part's table, a run part's progress
/// display and summary.
struct Show<'a> {
    quiet: bool,
    say: &'a dyn Fn(&str),
    /// The running run part's display.
    progress: Option<Progress>,
}

impl SuiteObserver for Show<'_> {
    fn part_start(&mut self, i: usize, parts: usize, name: &str, left_secs: f64) {
        (self.say)(&dbio_report::suite::part_heading(i, parts, name, left_secs));
    }

    fn sweep(&mut self, after_secs: f64) -> Box<dyn SweepObserver + '_> {
        Box::new(Table::new(after_secs, false, self.quiet, self.say))
    }

    fn run_start(&mut self, after_secs: f64) {
        self.progress = Some(Progress::new(self.quiet).more_after(after_secs));
    }

    fn event(&mut self, ev: dbio_runner::Event) {
        if let Some(p) = self.progress.as_mut() {
            p.on(ev);
        }
    }

    fn run_end(&mut self, r: Option<&RunResult>) {
        if let Some(mut p) = self.progress.take() {
            p.finish();
        }
        if let Some(r) = r {
            (self.say)(&dbio_report::text::summary(r));
        }
    }
}
