//! `--hosts`: the same validated job on every host, through the user's OpenSSH, started at
//! one instant and merged into one result; for a sweep or a suite, every step so.

use crate::args::RunArgs;
use crate::cmd::run::{plan, start_at, Workload};
use crate::deliver::{deliver, Delivery};
use crate::error::CliError;
use crate::exit::{Exit, Ran};
use crate::fleet_args::FleetArgs;
use crate::history;
use crate::prologue::prologue;
use dbio_model::RegionSplit;
use dbio_orchestrate::executor::{Executor, Fleet, Local, Plan, FLEET_STREAMS};
use dbio_orchestrate::fleet::{self, hosts::parse_hosts, ssh::SshSetup, FleetPlan};
use dbio_orchestrate::run_one;

/// The fleet of `--hosts`/`--hosts-file`, checked; the message says what is wrong.
fn fleet_plan(f: &FleetArgs, label: Option<&str>) -> Result<FleetPlan, CliError> {
    let hosts = parse_hosts(&f.hosts, f.hosts_file.as_deref())?;
    explicit_split(f)?;
    if f.job_json.is_some() {
        return Err("--job-json is what --hosts sends to each host; do not give both".into());
    }
    let mut targets_on = Vec::new();
    for t in &f.target_on {
        let (h, p) = t
            .split_once('=')
            .filter(|(h, p)| !h.is_empty() && !p.is_empty())
            .ok_or_else(|| format!("--target-on {t}: write HOST=PATH"))?;
        targets_on.push((h.to_string(), p.to_string()));
    }
    fleet::check_targets_on(&hosts, &targets_on)?;
    Ok(FleetPlan {
        hosts,
        ssh: SshSetup {
            ssh: std::env::var("DBIO_SSH").unwrap_or_else(|_| "ssh".into()),
            config: f.ssh_config.clone(),
            remote_dbio: f.remote_dbio.clone().unwrap_or_else(|| "dbio".into()),
        },
        targets_on,
        split_region: f.split_region.is_some(),
        label: label.map(str::to_string),
        host_json: match &f.host_json {
            Some(d) if !std::path::Path::new(d).is_dir() => {
                return Err(format!("--host-json {d}: not a folder").into())
            }
            d => d.as_ref().map(std::path::PathBuf::from),
        },
        step: None,
    })
}

/// The part of the region a one-host job keeps (`--split-region PART/PARTS`); None for the
/// whole region, or when --hosts gives each host its part.
pub fn explicit_split(f: &FleetArgs) -> Result<Option<RegionSplit>, CliError> {
    let Some(v) = f.split_region.as_deref() else {
        return Ok(None);
    };
    match (v.is_empty(), wanted(f)) {
        (true, true) => Ok(None),
        (false, true) => Err(format!(
            "--split-region {v}: with --hosts give --split-region alone, and host i of n gets the i-th 1/n of the region"
        ).into()),
        (true, false) => Err(
            "--split-region alone splits the region among --hosts; on each host of a --start-at run say which part it takes, e.g. --split-region 2/4"
                .into(),
        ),
        (false, false) => parse_split(v).map(Some),
    }
}

/// `PART/PARTS`, e.g. 2/4; the message says what is wrong.
fn parse_split(v: &str) -> Result<RegionSplit, CliError> {
    let bad = || {
        format!("--split-region {v}: write PART/PARTS, e.g. 2/4 (the second quarter of the region)")
    };
    let (p, n) = v.split_once('/').ok_or_else(bad)?;
    let (part, parts) = (
        p.trim().parse::<u32>().map_err(|_| bad())?,
        n.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if parts == 0 || part == 0 || part > parts {
        return Err(format!(
            "--split-region {v}: the part is a number from 1 to the number of parts, e.g. 1/{}",
            parts.max(2)
        )
        .into());
    }
    Ok(RegionSplit { part, parts })
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
    if f.start_at.is_some() {
        return Err(
            "--start-at starts one run; with --hosts dbio starts every step on all hosts at once itself"
                .into(),
        );
    }
    // Every step of a sweep or a suite keeps its hosts' results in a folder of its own.
    let plan = FleetPlan {
        step: Some(1),
        ..fleet_plan(f, label)?
    };
    Ok(Box::new(checked_fleet(plan, quiet)?))
}

/// Runs `dbio run --hosts …` and delivers the merged result like a run's.
pub fn run(a: RunArgs) -> Exit {
    let outputs = [
        ("--json", a.out.json.as_deref()),
        ("--html", a.html.as_deref()),
    ];
    let inputs: Vec<String> = history::stored_in(&a.store).into_iter().collect();
    let ready = prologue("dbio run", &outputs, &inputs, &a.store, || {
        let job = match plan(&a)? {
            Workload::Single(spec) => *spec,
            Workload::Streams(..) => return Err(FLEET_STREAMS.into()),
        };
        let fp = fleet_plan(&a.fleet, a.store.label.as_deref())?;
        Ok((job, fp, start_at(&a)?))
    });
    let (job, fp, start_at, store, stop) = match ready {
        Ok(r) => (r.work.0, r.work.1, r.work.2, r.store, r.stop),
        Err(exit) => return exit,
    };
    let mut exec = match checked_fleet(fp, a.out.quiet) {
        Ok(e) => e,
        Err(m) => return Exit::Failure.with(format!("dbio run: {m}")),
    };
    let stop = stop.flag();
    let mut progress = crate::progress::Progress::new(a.out.quiet);
    let plan = Plan::job(&job).at(start_at);
    let merged = run_one(&mut exec, &plan, &stop, &mut |ev| progress.on(ev));
    progress.finish();
    let r = match merged {
        Ok(r) => r,
        Err(e) => return Exit::no_result(&e, Ran::Fleet, "dbio run"),
    };
    if let Some(c) = &r.cluster {
        for f in &c.failed {
            eprintln!("dbio run: {}: {}", f.name, f.reason);
        }
    }
    deliver(r, &Delivery::of(&a), store.as_ref(), "dbio run")
}
