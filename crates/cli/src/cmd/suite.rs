//! `dbio suite`: the database storage assessment in one command: an oltp-read concurrency
//! ramp with its knee, oltp at the knee, log commit latency with 1–8 writers, TempDB, and a
//! DSS I/O-size sweep; then a scorecard against thresholds. The whole is one JSON result.

use crate::args::{RunArgs, SuiteArgs, SweepArgs};
use crate::cmd::report::write_html;
use crate::cmd::sweep;
use crate::exit::Exit;
use crate::history;
use crate::job::job_spec;
use crate::output::{check_outputs, emit_json, Transcript};
use crate::progress::Progress;
use crate::signals::stop_flag;
use crate::targets::role_targets;
use clap::{Args, FromArgMatches};
use dbio_model::suite::{RoleTarget, SuiteResult, Thresholds, SUITE_SCHEMA};
use dbio_model::sweep::SweepResult;
use dbio_model::units::{format_size, parse_size};
use dbio_model::{Outcome, RunResult};
use dbio_orchestrate::executor::Executor;
use dbio_report::item::Item;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The steps of each part and how long each step runs: (quick, full).
const RAMP_QD: (&str, &str) = ("1,4,16,64", "1..128x2");
const LOG_WRITERS: &str = "1,2,4,8";
const DSS_SIZES: (&str, &str) = ("64k,256k,1m", "8k,64k,256k,1m");
/// Seconds measured per step, and ramp before each.
const STEP: ((f64, f64), (f64, f64)) = ((2.0, 0.0), (30.0, 5.0));

/// Flags of one run or sweep step, parsed as `dbio run` would parse them.
fn run_args(words: &[String]) -> Result<RunArgs, String> {
    let cmd = RunArgs::augment_args(clap::Command::new("suite").no_binary_name(true));
    let m = cmd.try_get_matches_from(words).map_err(|e| e.to_string())?;
    RunArgs::from_arg_matches(&m).map_err(|e| e.to_string())
}

/// Everything the parts share, turned into flags.
struct Setup {
    quick: bool,
    base: Vec<String>,
    /// Per role, `--target PATH` words (none for the simulated device).
    targets: Vec<(String, Vec<String>)>,
}

impl Setup {
    fn words(&self, profile: &str, role: &str, extra: &[&str]) -> Vec<String> {
        let mut w = vec![profile.to_string()];
        if let Some((_, t)) = self.targets.iter().find(|(r, _)| r == role) {
            w.extend(t.iter().cloned());
        }
        w.extend(self.base.iter().cloned());
        w.extend(extra.iter().map(|s| s.to_string()));
        w
    }
}

/// Runs `dbio suite` and returns its exit status.
pub fn run(a: SuiteArgs) -> Exit {
    let fail = |m: String| Exit::usage(format!("dbio suite: {m}"));
    if !a.fleet.target_on.is_empty() {
        return fail("--target-on: the suite puts each part on its role's --target; with --hosts give paths that exist on every host".into());
    }
    let mut inputs = crate::cmd::run::measured(&a.targets, &a.store);
    inputs.extend(a.thresholds.clone());
    if let Err(m) = check_outputs(
        &[("--json", a.json.as_deref()), ("--html", a.html.as_deref())],
        &inputs,
    ) {
        return fail(m);
    }
    let thresholds = match &a.thresholds {
        None => Thresholds::default(),
        Some(f) => match crate::input::read_text(f) {
            Ok(text) => match Thresholds::from_toml(&text, f) {
                Ok(t) => t,
                Err(m) => return fail(m),
            },
            Err(e) => return fail(format!("--thresholds {f}: {e}")),
        },
    };
    let sim = a.engine == "sim";
    let targets = if sim {
        if !a.targets.is_empty() {
            return fail(
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
        match role_targets(&values, &["data", "log", "tempdb"]) {
            Ok(rt) => {
                if !a.quiet {
                    rt.notices.iter().for_each(|n| eprintln!("dbio suite: {n}"));
                }
                rt.paths
            }
            Err(m) => return fail(m),
        }
    };
    let ((secs, ramp), quick) = (if a.quick { STEP.0 } else { STEP.1 }, a.quick);
    let mut base: Vec<String> = vec![
        "--engine".into(),
        a.engine.clone(),
        "--duration".into(),
        format!("{secs}s"),
        "--ramp".into(),
        format!("{ramp}s"),
        "--no-store".into(),
    ];
    if let Some(s) = &a.sim {
        base.extend(["--sim".into(), s.clone()]);
    }
    if !sim {
        let size = a
            .size
            .clone()
            .unwrap_or_else(|| if quick { "256MiB" } else { "1GiB" }.into());
        base.extend(["--size".into(), size]);
    }
    if a.destroy_data {
        base.push("--destroy-data".into());
    }
    if a.quiet {
        base.push("-q".into());
    }
    let setup = Setup {
        quick,
        base,
        targets: targets
            .iter()
            .map(|(role, paths)| {
                let words = paths
                    .iter()
                    .flat_map(|p| ["--target".to_string(), p.clone()])
                    .collect();
                (role.clone(), words)
            })
            .collect(),
    };
    let pick = |q: (&'static str, &'static str)| if setup.quick { q.0 } else { q.1 };
    let ramp_qd = pick(RAMP_QD);
    let dss_sizes = pick(DSS_SIZES);
    // Every part's files take the DSS part's largest I/O: say so now, not after four parts.
    if let Some(size) = &a.size {
        let largest = dss_sizes
            .split(',')
            .filter_map(|v| parse_size(v).ok())
            .max()
            .unwrap_or(0);
        match parse_size(size) {
            Ok(n) if n < largest => {
                return fail(format!(
                    "--size {size}: smaller than the suite's largest I/O ({}, in the DSS part); use at least that",
                    format_size(largest)
                ))
            }
            Ok(_) => {}
            Err(e) => return fail(format!("--size {size}: {e}")),
        }
    }
    // Steps of every part, for the time left.
    let steps = [
        crate::vary::parse_vary(&format!("qd={ramp_qd}")).map_or(0, |v| v.values.len()),
        1,
        4,
        1,
        dss_sizes.split(',').count(),
    ];
    let per_step = secs + ramp;
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return fail(m),
    };
    let stop = stop_flag();
    let transcript = Transcript::new(a.quiet, a.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let part = |i: usize, name: &str| {
        let left: usize = steps[i..].iter().sum();
        say(&format!(
            "\n== part {}/5: {name} (about {:.0} s of measuring left in the suite)\n",
            i + 1,
            left as f64 * per_step
        ));
    };
    // Seconds of measuring planned after part i, for the time left in all.
    let after = |i: usize| steps[i + 1..].iter().sum::<usize>() as f64 * per_step;
    let slo = format!("read:p99<{}us", thresholds.data_read_p99_us);
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
    let result = (|| -> Result<(), String> {
        let exec = &mut *crate::cmd::fleet::executor(&a.fleet, a.store.label.as_deref(), a.quiet)?;
        part(
            0,
            "oltp-read concurrency ramp, knee under the data-read objective",
        );
        let ramp = run_sweep(
            &setup.words("oltp-read", "data", &[]),
            &format!("qd={ramp_qd}"),
            Some(&slo),
            after(0),
            exec,
            &stop,
            &say,
        )?;
        let knee_qd = ramp.knee.as_ref().map_or_else(
            || ramp.values.first().cloned().unwrap_or("1".into()),
            |k| k.value.clone(),
        );
        s.oltp_read = Some(ramp);
        part(
            1,
            &format!("oltp, 70 % reads, at the knee's queue depth {knee_qd}"),
        );
        s.oltp_at_knee = Some(run_one(
            &setup.words("oltp", "data", &["--qd", &knee_qd]),
            after(1),
            exec,
            &stop,
            a.quiet,
            &say,
        )?);
        part(2, "log commit latency with 1, 2, 4 and 8 writers");
        s.log = Some(run_sweep(
            &setup.words("log", "log", &[]),
            &format!("threads={LOG_WRITERS}"),
            None,
            after(2),
            exec,
            &stop,
            &say,
        )?);
        part(3, "TempDB");
        s.tempdb = Some(run_one(
            &setup.words("tempdb", "tempdb", &[]),
            after(3),
            exec,
            &stop,
            a.quiet,
            &say,
        )?);
        part(4, "DSS bandwidth against I/O size");
        s.dss = Some(run_sweep(
            &setup.words("dss", "data", &[]),
            &format!("bs={dss_sizes}"),
            None,
            after(4),
            exec,
            &stop,
            &say,
        )?);
        Ok(())
    })();
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

/// One sweep part; an interrupted or failed sweep ends the suite.
fn run_sweep(
    words: &[String],
    vary: &str,
    slo: Option<&str>,
    after_secs: f64,
    exec: &mut dyn Executor,
    stop: &Arc<AtomicBool>,
    say: &dyn Fn(&str),
) -> Result<SweepResult, String> {
    let args = SweepArgs {
        vary: vary.into(),
        slo: slo.map(Into::into),
        target_latency: None,
        run: run_args(words)?,
    };
    let mut plan = sweep::plan(&args)?;
    plan.after_secs = after_secs;
    plan.knee_hint = false;
    let r = sweep::execute(&plan, exec, args.run.quiet, stop, say)?;
    if r.partial {
        return Err(format!("the {vary} sweep stopped before its last step"));
    }
    Ok(r)
}

/// One run part, its summary printed.
fn run_one(
    words: &[String],
    after_secs: f64,
    exec: &mut dyn Executor,
    stop: &Arc<AtomicBool>,
    quiet: bool,
    say: &dyn Fn(&str),
) -> Result<RunResult, String> {
    let spec = job_spec(&run_args(words)?)?;
    let mut progress = Progress::new(quiet).more_after(after_secs);
    let r = exec
        .run(&spec, stop, &mut |ev| progress.on(ev))
        .map_err(|e| e.to_string());
    progress.finish();
    let r = crate::cmd::run::judged(r?);
    say(&dbio_report::text::summary(&r));
    if r.outcome != Outcome::Complete {
        return Err(format!("{} did not complete", spec.profile));
    }
    Ok(r)
}
