//! `--hosts`: the same validated job on every host, through the user's OpenSSH, started at
//! one instant and merged into one result; for a sweep or a suite, every step so.

use crate::args::RunArgs;
use crate::deliver::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::fleet_args::FleetArgs;
use crate::history;
use crate::prologue::{failure, prologue};
use crate::raw::{plan, start_at, Workload};
use dbio_orchestrate::executor::{Executor, Fleet, Local, Plan, FLEET_STREAMS};
use dbio_orchestrate::fleet::{flags::FleetFlags, FleetPlan};
use dbio_orchestrate::run_one;

/// The flags of a fleet run as the library's plain data.
fn flags(f: &FleetArgs, label: Option<&str>) -> FleetFlags {
    FleetFlags {
        hosts: f.hosts.clone(),
        hosts_file: f.hosts_file.clone(),
        target_on: f.target_on.clone(),
        split_region: f.split_region.clone(),
        job_json: f.job_json.is_some(),
        ssh: std::env::var("DBIO_SSH").ok(),
        ssh_config: f.ssh_config.clone(),
        remote_dbio: f.remote_dbio.clone(),
        host_json: f.host_json.clone(),
        label: label.map(str::to_string),
    }
}

/// True when the flags ask for several hosts.
pub fn wanted(f: &FleetArgs) -> bool {
    !f.hosts.is_empty() || f.hosts_file.is_some()
}

/// Checks every host before anything starts, saying what it found; the fleet executor.
fn checked_fleet(plan: FleetPlan, quiet: bool) -> Result<Fleet<'static>, CliError> {
    if !quiet {
        eprintln!(
            "dbio: checking {} hosts (ssh, dbio, clock)",
            plan.hosts.len()
        );
    }
    let on_line = Box::new(move |host: &str, line: &str| {
        if !quiet || line.starts_with("warning") || line.contains("error") {
            eprintln!("[{host}] {line}");
        }
    });
    let fleet = Fleet::checked(plan, on_line)?;
    if !quiet {
        for o in &fleet.offsets {
            eprintln!(
                "dbio: {}: clock {:+.3} ms (round trip {:.3} ms)",
                o.host, o.offset_ms, o.rtt_ms
            );
        }
    }
    Ok(fleet)
}

/// The executor of a sweep's or a suite's steps: this host, or the fleet (every host checked
/// first).
pub fn executor(
    f: &FleetArgs,
    label: Option<&str>,
    quiet: bool,
) -> Result<Box<dyn Executor>, CliError> {
    if !wanted(f) {
        return Ok(Box::new(Local));
    }
    let plan = flags(f, label).steps_plan(f.start_at.is_some())?;
    Ok(Box::new(checked_fleet(plan, quiet)?))
}

/// Runs `dbio run --hosts …` and delivers the merged result like a run's.
pub fn run(a: RunArgs) -> Result<Exit, Exit> {
    let outputs = Delivery::of(&a).outputs();
    let inputs: Vec<String> = history::stored_in(&a.store).into_iter().collect();
    let ready = prologue("dbio run", &outputs, &inputs, &a.store, || {
        let job = match plan(&a)? {
            Workload::Single(spec) => *spec,
            Workload::Streams(..) => return Err(CliError::msg(FLEET_STREAMS)),
        };
        let fp = flags(&a.fleet, a.store.label.as_deref()).plan()?;
        Ok((job, fp, start_at(&a)?))
    });
    let (job, fp, start_at, store, stop) =
        ready.map(|r| (r.work.0, r.work.1, r.work.2, r.store, r.stop))?;
    let mut exec = checked_fleet(fp, a.out.quiet).map_err(failure("dbio run"))?;
    let stop = stop.flag();
    let mut progress = crate::progress::Progress::new(a.out.quiet);
    let plan = Plan::job(&job).at(start_at);
    let merged = run_one(&mut exec, &plan, &stop, &mut |ev| progress.on(ev));
    progress.finish();
    let r = merged.map_err(|e| Exit::no_result(&e, Ran::Fleet, "dbio run"))?;
    if let Some(c) = &r.cluster {
        for f in &c.failed {
            eprintln!("dbio run: {}: {}", f.name, f.reason);
        }
    }
    Ok(deliver(r, &Delivery::of(&a), store.as_ref(), "dbio run"))
}
