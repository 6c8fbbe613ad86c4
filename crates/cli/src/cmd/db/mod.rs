//! `dbio db`: setup, run, sweep and drop of dbio's schema in a real PostgreSQL or
//! MariaDB/MySQL. A run is an executor ([`DbExec`]), so a sweep is the ordinary sweep
//! driven through it, and results go to the history and JSON as any run's.

use crate::cmd::sweep::deliver;
use crate::db_args::{DbCmd, DbDropArgs, DbRunArgs, DbSetupArgs, DbSweepArgs};
use crate::deliver::{keep_and_write, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::history;
use crate::output::{check_outputs, Transcript};
use crate::progress::Progress;
use crate::prologue::{failure, prologue, usage};
use crate::signals::stop_flag;
use dbio_db::slob::flags::{RunFlags, SetupFlags};
use dbio_db::slob::run::RunOpts;
use dbio_db::slob::setup::{drop, setup};
use dbio_db::url::redact;
use dbio_orchestrate::db::{job, DbExec};
use dbio_orchestrate::db_sweep;
use dbio_orchestrate::executor::Plan;
use dbio_orchestrate::run_one;
use dbio_orchestrate::sweep::SweepPlan;
use dbio_report::db_schema as schema;
use std::sync::atomic::Ordering;

/// Runs `dbio db …` and returns its exit status.
pub fn run(cmd: DbCmd) -> Result<Exit, Exit> {
    match cmd {
        DbCmd::Setup(a) => setup_cmd(a),
        DbCmd::Run(a) => run_cmd(a),
        DbCmd::Sweep(a) => sweep_cmd(a),
        DbCmd::Drop(a) => drop_cmd(a),
    }
}

/// Runs `dbio db setup`: dbio's schema made and loaded, with a progress display.
fn setup_cmd(a: DbSetupArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio db setup";
    let flags = SetupFlags {
        sessions: a.sessions,
        size: a.size.clone(),
        parallel: a.parallel,
    };
    let opts = flags.check().map_err(usage(CMD))?;
    let stop = stop_flag();
    let mut p = Progress::new(a.quiet);
    let target = dbio_db::slob::SCHEMA;
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
                "{}",
                schema::set_up(target, &redact(&a.url), l.tables, l.rows)
            );
            Ok(Exit::Ok)
        }
        Err(m) if stop.load(Ordering::Relaxed) => {
            Err(Exit::Interrupted.with(format!("dbio db setup: {m}")))
        }
        Err(m) => Err(failure(CMD)(m)),
    }
}

/// Runs `dbio db drop`: exactly what setup recorded, removed.
fn drop_cmd(a: DbDropArgs) -> Result<Exit, Exit> {
    let tables = drop(&a.url).map_err(failure("dbio db drop"))?;
    println!(
        "{}",
        schema::dropped(dbio_db::slob::SCHEMA, &redact(&a.url), tables.as_deref())
    );
    Ok(Exit::Ok)
}

/// The run's flags as plain data.
fn flags(a: &DbRunArgs) -> RunFlags {
    RunFlags {
        url: a.url.clone(),
        sessions: a.sessions,
        work_unit: a.work_unit,
        update_pct: a.update_pct,
        think: a.think.clone(),
        duration: a.duration.clone(),
        ramp: a.ramp.clone(),
        seed: a.seed,
        lock_memory: a.lock_memory.clone(),
    }
}

/// Runs `dbio db run`: one run through the database executor, its report said, then kept.
fn run_cmd(a: DbRunArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio db run";
    let none: [&str; 0] = [];
    let ready = prologue(CMD, &[], &none, &a.store, || flags(&a).check())?;
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
    let mut r = r.map_err(|e| Exit::no_result(&e, Ran::Db, CMD))?;
    r.label = a.store.label.clone();
    let transcript = Transcript::new(a.out.quiet, a.out.json.as_deref());
    transcript.say(&dbio_report::db::report(&r).unwrap_or_default());
    let json = dbio_report::json::to_json(&r);
    let d = Delivery::new(&a.out, None, &a.store);
    let entry = || history::run_entry(&r, &json, &transcript.text(), d.to.label);
    keep_and_write(ready.store.as_ref(), entry, &json, &d, CMD)?;
    Ok(Exit::of_db_run(&r, CMD))
}

/// The steps of a database sweep, each a job of its own number of sessions, all checked
/// before the first runs.
fn sweep_plan(a: &DbSweepArgs) -> Result<(SweepPlan, RunOpts), CliError> {
    check_outputs(
        &delivery(a).outputs(),
        &crate::cmd::run::measured(&[], &a.run.store),
    )?;
    Ok(db_sweep::plan(&a.vary, &flags(&a.run))?)
}

/// Where a database sweep's result goes.
fn delivery(a: &DbSweepArgs) -> Delivery<'_> {
    Delivery::new(&a.run.out, a.html.as_deref(), &a.run.store)
}

/// Runs `dbio sweep db`: the ordinary sweep through the database executor.
fn sweep_cmd(a: DbSweepArgs) -> Result<Exit, Exit> {
    const CMD: &str = "dbio sweep db";
    let none: [&str; 0] = [];
    let ready = prologue(CMD, &[], &none, &a.run.store, || sweep_plan(&a))?;
    let (plan, o) = ready.work;
    let stop = ready.stop.flag();
    let transcript = Transcript::new(a.run.out.quiet, a.run.out.json.as_deref());
    let say = |s: &str| transcript.say(s);
    let mut exec = DbExec {
        url: a.run.url.clone(),
        opts: o,
    };
    let sweep = crate::cmd::sweep::execute(&plan, false, &mut exec, a.run.out.quiet, &stop, &say)
        .map_err(failure(CMD))?;
    // The views read every step whole (a database sweep has few, short steps).
    let views = dbio_report::db::sweep_views(&sweep.whole().map_err(failure(CMD))?);
    say(&views.unwrap_or_default());
    let d = delivery(&a);
    let name = || format!("{CMD}, vary {}", sweep.outline.vary);
    deliver(&sweep, &d, ready.store.as_ref(), &transcript, name, CMD)?;
    Ok(Exit::ended(
        sweep.outline.partial,
        stop.load(Ordering::Relaxed),
    ))
}
