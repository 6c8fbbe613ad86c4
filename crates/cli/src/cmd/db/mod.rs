//! `dbio db`: setup, run, sweep and drop of dbio's schema in a real PostgreSQL or
//! MariaDB/MySQL. A run is an executor ([`DbExec`]), so a sweep is the ordinary sweep
//! driven through it, and results go to the history and JSON as any run's.

use crate::db_args::{DbCmd, DbDropArgs, DbRunArgs, DbSetupArgs, DbSweepArgs};
use crate::deliver::{html, keep_and_write, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::history;
use crate::output::{check_outputs, Transcript};
use crate::progress::Progress;
use crate::prologue::prologue;
use crate::signals::stop_flag;
use dbio_db::slob::run::RunOpts;
use dbio_db::slob::setup::{drop, setup, SetupOpts};
use dbio_db::url::redact;
use dbio_model::units::{parse_duration, parse_size};
use dbio_orchestrate::db::{self, job, DbExec};
use dbio_orchestrate::executor::Plan;
use dbio_orchestrate::run_one;
use dbio_report::item::Item;
use std::sync::atomic::Ordering;

/// Runs `dbio db …` and returns its exit status.
pub fn run(cmd: DbCmd) -> Exit {
    match cmd {
        DbCmd::Setup(a) => setup_cmd(a),
        DbCmd::Run(a) => run_cmd(a),
        DbCmd::Sweep(a) => sweep_cmd(a),
        DbCmd::Drop(a) => drop_cmd(a),
    }
}

fn setup_cmd(a: DbSetupArgs) -> Exit {
    let size = match parse_size(&a.size) {
        Ok(s) if s > 0 => s,
        _ => {
            return Exit::usage(format!(
                "dbio db setup: --size {}: give a size such as 256MiB or 1GiB",
                a.size
            ))
        }
    };
    if a.sessions == 0 || a.sessions > 4096 {
        return Exit::usage(format!(
            "dbio db setup: --sessions {}: use 1 to 4096",
            a.sessions
        ));
    }
    let stop = stop_flag();
    let mut p = Progress::new(a.quiet);
    let target = dbio_db::slob::SCHEMA;
    let opts = SetupOpts {
        sessions: a.sessions,
        table_bytes: size,
        parallel: a.parallel.max(1),
    };
    let r = setup(&a.url, opts, &stop, &mut |done, total| {
        p.on(dbio_runner::Event::Prefill {
            target,
            done,
            total,
        })
    });
    p.finish();
    match r {
        Ok((l, notes)) => {
            for n in notes {
                eprintln!("dbio db setup: {n}");
            }
            println!(
                "dbio db setup: {} at {}: {} tables of {} rows, loaded and indexed; remove with `dbio db drop --url {}`",
                target,
                redact(&a.url),
                l.tables,
                l.rows,
                redact(&a.url)
            );
            Exit::Ok
        }
        Err(m) if stop.load(Ordering::Relaxed) => {
            Exit::Interrupted.with(format!("dbio db setup: {m}"))
        }
        Err(m) => Exit::Failure.with(format!("dbio db setup: {m}")),
    }
}

fn drop_cmd(a: DbDropArgs) -> Exit {
    match drop(&a.url) {
        Ok(None) => {
            println!(
                "dbio db drop: nothing to drop: {} has no schema {}",
                redact(&a.url),
                dbio_db::slob::SCHEMA
            );
            Exit::Ok
        }
        Ok(Some(tables)) => {
            println!(
                "dbio db drop: dropped {} ({} tables: {}) at {}",
                dbio_db::slob::SCHEMA,
                tables.len(),
                tables.join(", "),
                redact(&a.url)
            );
            Exit::Ok
        }
        Err(m) => Exit::Failure.with(format!("dbio db drop: {m}")),
    }
}

/// The run's settings, checked.
fn opts(a: &DbRunArgs) -> Result<RunOpts, CliError> {
    let dur = |flag: &str, v: &str| parse_duration(v).map_err(|e| format!("{flag} {v}: {e}"));
    let think_ns = match a.think.as_deref() {
        None => None,
        Some(t) => {
            let (lo, hi) = t.split_once(':').unwrap_or((t, t));
            let (lo, hi) = (dur("--think", lo)?, dur("--think", hi)?);
            if hi < lo {
                return Err(format!("--think {t}: MIN:MAX with MIN at most MAX").into());
            }
            Some((lo.as_nanos() as u64, hi.as_nanos() as u64))
        }
    };
    if a.sessions == 0 || a.sessions > 4096 {
        return Err(format!("--sessions {}: use 1 to 4096", a.sessions).into());
    }
    if a.work_unit == 0 || a.work_unit > 10_000 {
        return Err(format!("--work-unit {}: use 1 to 10000 keys", a.work_unit).into());
    }
    if a.update_pct > 100 {
        return Err(format!("--update-pct {}: use 0 to 100", a.update_pct).into());
    }
    let duration = dur("--duration", &a.duration)?;
    if duration.is_zero() {
        return Err("--duration: give a time above zero, e.g. 30s".into());
    }
    dbio_db::url::system(&a.url)?;
    let lock_bytes = match a.lock_memory.as_deref() {
        None => 0,
        Some(v) => match parse_size(v) {
            Ok(b) if b > 0 => b,
            _ => {
                return Err(format!("--lock-memory {v}: give a size such as 512MiB or 4GiB").into())
            }
        },
    };
    Ok(RunOpts {
        sessions: a.sessions,
        work_unit: a.work_unit,
        update_pct: a.update_pct,
        think_ns,
        ramp: dur("--ramp", &a.ramp)?,
        duration,
        seed: a.seed,
        lock_bytes,
    })
}

/// Runs `dbio db run`: one run through the database executor, its report said, then kept.
fn run_cmd(a: DbRunArgs) -> Exit {
    const CMD: &str = "dbio db run";
    let none: [&str; 0] = [];
    let ready = match prologue(CMD, &[], &none, &a.store, || opts(&a)) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let o = ready.work;
    let stop = ready.stop.flag();
    let mut exec = DbExec {
        url: a.url.clone(),
        opts: o,
    };
    let job = job(&o, &redact(&a.url));
    let mut p = Progress::new(a.out.quiet);
    let r = run_one(&mut exec, &Plan::job(&job), &stop, &mut |ev| p.on(ev));
    p.finish();
    let mut r = match r {
        Ok(r) => r,
        Err(e) => return Exit::no_result(&e, Ran::Db, CMD),
    };
    r.label = a.store.label.clone();
    let transcript = Transcript::new(a.out.quiet, a.out.json.as_deref());
    transcript.say(&dbio_report::db::report(&r).unwrap_or_default());
    let json = dbio_report::json::to_json(&r);
    let d = Delivery {
        json: a.out.json.as_deref(),
        html: None,
        label: a.store.label.as_deref(),
        quiet: a.out.quiet,
    };
    let entry = || history::run_entry(&r, &json, &transcript.text(), d.label);
    if let Err(exit) = keep_and_write(ready.store.as_ref(), entry, &json, &d, CMD) {
        return exit;
    }
    Exit::of_db_run(&r, CMD)
}

/// The steps of a database sweep, each a job of its own number of sessions, all checked
/// before the first runs.
fn sweep_plan(a: &DbSweepArgs) -> Result<(crate::cmd::sweep::Plan, RunOpts), CliError> {
    let outputs = [
        ("--json", a.run.out.json.as_deref()),
        ("--html", a.html.as_deref()),
    ];
    check_outputs(&outputs, &crate::cmd::run::measured(&[], &a.run.store))?;
    let vary = dbio_spec::vary_flag::parse_vary(&a.vary)?;
    db::varies_sessions(vary.key).map_err(|e| e.to_string())?;
    let o = opts(&a.run)?;
    let steps = db::sweep_plan(&o, &redact(&a.run.url), vary.values).map_err(|e| e.to_string())?;
    let plan = crate::cmd::sweep::Plan {
        knee_hint: false,
        steps,
    };
    Ok((plan, o))
}

/// Runs `dbio sweep db`: the ordinary sweep through the database executor.
fn sweep_cmd(a: DbSweepArgs) -> Exit {
    const CMD: &str = "dbio sweep db";
    let none: [&str; 0] = [];
    let ready = match prologue(CMD, &[], &none, &a.run.store, || sweep_plan(&a)) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let (plan, o) = ready.work;
    let stop = ready.stop.flag();
    let transcript = Transcript::new(a.run.out.quiet, a.run.out.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let mut exec = DbExec {
        url: a.run.url.clone(),
        opts: o,
    };
    let sweep = match crate::cmd::sweep::execute(&plan, &mut exec, a.run.out.quiet, &stop, &say) {
        Ok(s) => s,
        Err(m) => return Exit::Failure.with(format!("{CMD}: {m}")),
    };
    say(&dbio_report::db::sweep_views(&sweep).unwrap_or_default());
    let json = dbio_report::json::to_json(&sweep);
    let d = Delivery {
        json: a.run.out.json.as_deref(),
        html: a.html.as_deref(),
        label: a.run.store.label.as_deref(),
        quiet: a.run.out.quiet,
    };
    let entry = || history::sweep_entry(&sweep, &json, &transcript.text(), d.label);
    if let Err(exit) = keep_and_write(ready.store.as_ref(), entry, &json, &d, CMD) {
        return exit;
    }
    let item = || Item {
        name: d
            .label
            .map_or_else(|| format!("{CMD}, vary {}", sweep.vary), str::to_string),
        result: dbio_report::item::Result::Sweep(Box::new(sweep.clone())),
    };
    if let Err(exit) = html(&d, item, CMD) {
        return exit;
    }
    Exit::ended(sweep.partial, stop.load(Ordering::Relaxed))
}
