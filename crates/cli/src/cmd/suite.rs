//! `dbio suite`: the database storage assessment in one command: an oltp-read concurrency
//! ramp with its knee, oltp at the knee, log commit latency with 1–8 writers, TempDB, and a
//! DSS I/O-size sweep; then a scorecard against thresholds. The whole is one JSON result.
//! Each part is a validated job (a profile on its role's targets), and a sweep part is that
//! job varied step by step as a value.

use crate::args::{RunArgs, SuiteArgs};
use crate::cmd::report::write_html;
use crate::cmd::sweep;
use crate::exit::Exit;
use crate::history;
use crate::job::job_spec;
use crate::output::{check_outputs, emit_json, Transcript};
use crate::progress::Progress;
use crate::signals::stop_flag;
use crate::targets::role_targets;
use dbio_analyze::slo::Slo;
use dbio_model::suite::{RoleTarget, SuiteResult, Thresholds, SUITE_SCHEMA};
use dbio_model::sweep::SweepResult;
use dbio_model::units::{format_size, parse_size};
use dbio_model::{JobSpec, Outcome, RunResult};
use dbio_orchestrate::executor::Executor;
use dbio_orchestrate::sweep::SweepPlan;
use dbio_orchestrate::vary::{Vary, Varying};
use dbio_report::item::Item;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The steps of each part: (quick, full).
const RAMP_QD: (&[u32], &[u32]) = (&[1, 4, 16, 64], &[1, 2, 4, 8, 16, 32, 64, 128]);
const LOG_WRITERS: &[u32] = &[1, 2, 4, 8];
const DSS_SIZES: (&[u64], &[u64]) = (
    &[64 << 10, 256 << 10, 1 << 20],
    &[8 << 10, 64 << 10, 256 << 10, 1 << 20],
);
/// Seconds measured per step, and ramp before each.
const STEP: ((f64, f64), (f64, f64)) = ((2.0, 0.0), (30.0, 5.0));

/// Everything the parts share: the settings of every part's job and each role's targets.
struct Setup {
    quick: bool,
    /// The settings of every part (engine, duration, ramp, size, ...), before its profile.
    base: RunArgs,
    /// Per role, its paths (none for the simulated device).
    targets: Vec<(String, Vec<String>)>,
}

impl Setup {
    /// The validated job of `profile` on the targets of `role`.
    fn job(&self, profile: &str, role: &str) -> Result<JobSpec, String> {
        let mut a = self.base.clone();
        a.profile = Some(profile.to_string());
        a.targets = self
            .targets
            .iter()
            .find(|(r, _)| r == role)
            .map(|(_, p)| p.clone())
            .unwrap_or_default();
        job_spec(&a)
    }

    /// The qd steps of the ramp, the block sizes of the DSS part.
    fn ramp_qd(&self) -> Varying {
        let qd = if self.quick { RAMP_QD.0 } else { RAMP_QD.1 };
        Varying::new(qd.iter().map(|q| Vary::Qd(*q)).collect())
    }

    fn dss_sizes(&self) -> Varying {
        let bs = if self.quick { DSS_SIZES.0 } else { DSS_SIZES.1 };
        Varying::new(bs.iter().map(|b| Vary::Bs(*b)).collect())
    }
}

/// The suite's settings checked: the parts' setup, the thresholds, every role's targets.
struct Checked {
    setup: Setup,
    thresholds: Thresholds,
    targets: Vec<(String, Vec<String>)>,
    /// Seconds measured per step, and ramp before each.
    secs: f64,
    ramp: f64,
}

/// Checks the suite's flags before any part runs; the message says what is wrong.
fn check(a: &SuiteArgs) -> Result<Checked, String> {
    if !a.fleet.target_on.is_empty() {
        return Err("--target-on: the suite puts each part on its role's --target; with --hosts give paths that exist on every host".into());
    }
    let mut inputs = crate::cmd::run::measured(&a.targets, &a.store);
    inputs.extend(a.thresholds.clone());
    check_outputs(
        &[("--json", a.json.as_deref()), ("--html", a.html.as_deref())],
        &inputs,
    )?;
    let thresholds = match &a.thresholds {
        None => Thresholds::default(),
        Some(f) => {
            let text = crate::input::read_text(f).map_err(|e| format!("--thresholds {f}: {e}"))?;
            Thresholds::from_toml(&text, f)?
        }
    };
    let sim = a.engine == "sim";
    let targets = if sim {
        if !a.targets.is_empty() {
            return Err(
                "--engine sim models a device and touches no file; leave out --target".into(),
            );
        }
        Vec::new()
    } else {
        let values = if a.targets.is_empty() {
            vec!["./dbio-testfile".to_string()]
        } else {
            a.targets.clone()
        };
        let rt = role_targets(&values, &["data", "log", "tempdb"])?;
        if !a.quiet {
            rt.notices.iter().for_each(|n| eprintln!("dbio suite: {n}"));
        }
        rt.paths
    };
    let (secs, ramp) = if a.quick { STEP.0 } else { STEP.1 };
    let mut base = RunArgs::defaults();
    base.engine = a.engine.clone();
    base.duration = Some(format!("{secs}s"));
    base.ramp = Some(format!("{ramp}s"));
    base.store.no_store = true;
    base.sim = a.sim.clone();
    base.destroy_data = a.destroy_data;
    base.quiet = a.quiet;
    if !sim {
        let quick_size = if a.quick { "256MiB" } else { "1GiB" };
        base.size = Some(a.size.clone().unwrap_or_else(|| quick_size.into()));
    }
    let setup = Setup {
        quick: a.quick,
        base,
        targets: targets.clone(),
    };
    // Every part's files take the DSS part's largest I/O: say so now, not after four parts.
    if let Some(size) = &a.size {
        let largest = setup
            .dss_sizes()
            .steps
            .iter()
            .filter_map(|v| match v {
                Vary::Bs(b) => Some(*b),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        match parse_size(size) {
            Ok(n) if n < largest => {
                return Err(format!(
                    "--size {size}: smaller than the suite's largest I/O ({}, in the DSS part); use at least that",
                    format_size(largest)
                ))
            }
            Ok(_) => {}
            Err(e) => return Err(format!("--size {size}: {e}")),
        }
    }
    Ok(Checked {
        setup,
        thresholds,
        targets,
        secs,
        ramp,
    })
}

/// Runs `dbio suite` and returns its exit status.
pub fn run(a: SuiteArgs) -> Exit {
    let fail = |m: String| Exit::usage(format!("dbio suite: {m}"));
    let Checked {
        setup,
        thresholds,
        targets,
        secs,
        ramp,
    } = match check(&a) {
        Ok(c) => c,
        Err(m) => return fail(m),
    };
    let quick = setup.quick;
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return fail(m),
    };
    let stop = stop_flag();
    let transcript = Transcript::new(a.quiet, a.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let mut s = SuiteResult {
        schema: SUITE_SCHEMA.into(),
        dbio_version: env!("CARGO_PKG_VERSION").into(),
        quick,
        targets: targets
            .iter()
            .flat_map(|(role, paths)| {
                paths.iter().map(|p| RoleTarget {
                    role: role.clone(),
                    path: p.clone(),
                })
            })
            .collect(),
        thresholds: thresholds.clone(),
        oltp_read: None,
        oltp_at_knee: None,
        log: None,
        tempdb: None,
        dss: None,
        scorecard: Vec::new(),
        partial: false,
    };
    let parts = Parts {
        setup: &setup,
        per_step: secs + ramp,
        slo: format!("read:p99<{}us", thresholds.data_read_p99_us),
        stop: &stop,
        quiet: a.quiet,
        say: &say,
    };
    let result = crate::cmd::fleet::executor(&a.fleet, a.store.label.as_deref(), a.quiet)
        .and_then(|mut exec| parts.run(&mut *exec, &mut s));
    let interrupted = stop.load(Ordering::Relaxed);
    if let Err(m) = &result {
        if s.oltp_read.is_none() && !interrupted {
            return fail(m.clone());
        }
        eprintln!("dbio suite: {m}");
    }
    s.partial = result.is_err()
        || interrupted
        || [&s.oltp_read, &s.log, &s.dss]
            .iter()
            .any(|x| x.as_ref().is_some_and(|w| w.partial));
    s.scorecard = dbio_analyze::scorecard::scorecard(&s);
    say(&dbio_report::suite::scorecard(&s));
    let json = dbio_report::json::to_json(&s);
    if let Some(store) = &store {
        history::keep(
            store,
            &history::suite_entry(&s, &json, &transcript.text(), a.store.label.as_deref()),
            a.quiet,
            "dbio suite",
        );
    }
    if let Some(path) = a.json.as_deref() {
        if let Err(e) = emit_json(path, &json) {
            return Exit::Failure.with(format!(
                "dbio suite: cannot write the JSON result to {path}: {e}"
            ));
        }
    }
    if let Some(path) = a.html.as_deref() {
        let item = Item {
            name: a.store.label.clone().unwrap_or_else(|| "suite".into()),
            result: dbio_report::item::Result::Suite(Box::new(s.clone())),
        };
        if let Err(m) = write_html(path, item) {
            return Exit::Failure.with(format!("dbio suite: {m}"));
        }
    }
    match (s.partial, interrupted) {
        (_, true) => Exit::Interrupted,
        (true, false) => Exit::Failure,
        (false, false) => Exit::Ok,
    }
}

/// The five parts, run in turn through one executor.
struct Parts<'a> {
    setup: &'a Setup,
    /// Seconds of one step (ramp and measuring), for the time left.
    per_step: f64,
    /// The data-read objective of the ramp's knee.
    slo: String,
    stop: &'a Arc<AtomicBool>,
    quiet: bool,
    say: &'a dyn Fn(&str),
}

impl Parts<'_> {
    /// Steps of every part, for the time left.
    fn steps(&self) -> [usize; 5] {
        let ramp = self.setup.ramp_qd().steps.len();
        [
            ramp,
            1,
            LOG_WRITERS.len(),
            1,
            self.setup.dss_sizes().steps.len(),
        ]
    }

    /// Says part `i` starts, with the measuring time left in the suite; the seconds planned
    /// after it.
    fn start(&self, i: usize, name: &str) -> f64 {
        let steps = self.steps();
        let left: usize = steps[i..].iter().sum();
        (self.say)(&format!(
            "\n== part {}/5: {name} (about {:.0} s of measuring left in the suite)\n",
            i + 1,
            left as f64 * self.per_step
        ));
        steps[i + 1..].iter().sum::<usize>() as f64 * self.per_step
    }

    /// Runs every part into `s`; Err at the first part that fails or is interrupted.
    fn run(&self, exec: &mut dyn Executor, s: &mut SuiteResult) -> Result<(), String> {
        let setup = self.setup;
        let after = self.start(
            0,
            "oltp-read concurrency ramp, knee under the data-read objective",
        );
        let slo = Slo::parse(&self.slo)?;
        let ramp_job = setup.job("oltp-read", "data")?;
        let ramp = self.sweep(
            &ramp_job,
            setup.ramp_qd(),
            Some((self.slo.clone(), slo)),
            after,
            exec,
        )?;
        let knee_qd = ramp.knee.as_ref().map_or_else(
            || ramp.values.first().cloned().unwrap_or("1".into()),
            |k| k.value.clone(),
        );
        s.oltp_read = Some(ramp);
        let after = self.start(
            1,
            &format!("oltp, 70 % reads, at the knee's queue depth {knee_qd}"),
        );
        let qd = knee_qd
            .parse::<u64>()
            .map_err(|_| format!("knee qd {knee_qd}"))?;
        let at_knee = Vary::of("qd", qd)?.apply(&setup.job("oltp", "data")?)?;
        s.oltp_at_knee = Some(self.one(&at_knee, after, exec)?);
        let after = self.start(2, "log commit latency with 1, 2, 4 and 8 writers");
        let writers = Varying::new(LOG_WRITERS.iter().map(|t| Vary::Threads(*t)).collect());
        s.log = Some(self.sweep(&setup.job("log", "log")?, writers, None, after, exec)?);
        let after = self.start(3, "TempDB");
        s.tempdb = Some(self.one(&setup.job("tempdb", "tempdb")?, after, exec)?);
        let after = self.start(4, "DSS bandwidth against I/O size");
        let dss = setup.job("dss", "data")?;
        s.dss = Some(self.sweep(&dss, setup.dss_sizes(), None, after, exec)?);
        Ok(())
    }

    /// One sweep part; an interrupted or failed sweep ends the suite.
    fn sweep(
        &self,
        job: &JobSpec,
        varying: Varying,
        objective: Option<(String, Slo)>,
        after_secs: f64,
        exec: &mut dyn Executor,
    ) -> Result<SweepResult, String> {
        let key = varying.key;
        let plan = sweep::Plan {
            after_secs,
            knee_hint: false,
            steps: SweepPlan::new(job, varying, objective, false)?,
        };
        let r = sweep::execute(&plan, exec, self.quiet, self.stop, self.say)?;
        if r.partial {
            return Err(format!("the {key} sweep stopped before its last step"));
        }
        Ok(r)
    }

    /// One run part, its summary printed.
    fn one(
        &self,
        job: &JobSpec,
        after_secs: f64,
        exec: &mut dyn Executor,
    ) -> Result<RunResult, String> {
        let mut progress = Progress::new(self.quiet).more_after(after_secs);
        let r = exec
            .run(job, self.stop, &mut |ev| progress.on(ev))
            .map_err(|e| e.to_string());
        progress.finish();
        let r = crate::cmd::run::judged(r?);
        (self.say)(&dbio_report::text::summary(&r));
        if r.outcome != Outcome::Complete {
            return Err(format!("{} did not complete", job.profile));
        }
        Ok(r)
    }
}
