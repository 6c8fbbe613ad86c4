//! `dbio run --hosts …`: the same validated job on every host, through the user's OpenSSH,
//! started at one instant and merged into one result.

use crate::args::RunArgs;
use crate::cmd::run::{deliver, plan, start_at, Delivery, Plan};
use crate::exit::Exit;
use crate::history;
use crate::output::check_outputs;
use crate::signals::stop_flag;
use dbio_orchestrate::fleet::{self, hosts::parse_hosts, ssh::SshSetup, FleetPlan};

/// Checks the fleet and its job; the message says what is wrong.
fn fleet_plan(a: &RunArgs) -> Result<FleetPlan, String> {
    let hosts = parse_hosts(&a.fleet.hosts, a.fleet.hosts_file.as_deref())?;
    if a.fleet.job_json.is_some() {
        return Err("--job-json is what --hosts sends to each host; do not give both".into());
    }
    let job = match plan(a)? {
        Plan::Single(spec) => *spec,
        Plan::Streams(..) => {
            return Err(
                "--hosts runs single-stream workloads; run a multi-stream profile with --start-at on each host and `dbio merge` the results"
                    .into(),
            )
        }
    };
    let mut targets_on = Vec::new();
    for t in &a.fleet.target_on {
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
            config: a.fleet.ssh_config.clone(),
            remote_dbio: a.fleet.remote_dbio.clone().unwrap_or_else(|| "dbio".into()),
        },
        job,
        targets_on,
        start_at: start_at(a)?,
        label: a.store.label.clone(),
        host_json: match &a.fleet.host_json {
            Some(d) if !std::path::Path::new(d).is_dir() => {
                return Err(format!("--host-json {d}: not a folder"))
            }
            d => d.as_ref().map(std::path::PathBuf::from),
        },
    })
}

/// Runs the job on every host and delivers the merged result like a run's.
pub fn run(a: RunArgs) -> Exit {
    let outputs = [("--json", a.json.as_deref()), ("--html", a.html.as_deref())];
    let inputs: Vec<String> = history::stored_in(&a.store).into_iter().collect();
    let plan = match check_outputs(&outputs, &inputs).and_then(|()| fleet_plan(&a)) {
        Ok(p) => p,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    let store = match history::store_unless(&a.store) {
        Ok(s) => s,
        Err(m) => return Exit::usage(format!("dbio run: {m}")),
    };
    let say = |m: String| {
        if !a.quiet {
            eprintln!("{m}");
        }
    };
    say(format!(
        "dbio run: checking {} hosts (ssh, dbio, clock)",
        plan.hosts.len()
    ));
    let offsets = match fleet::check_hosts(&plan) {
        Ok(o) => o,
        Err(m) => return Exit::Failure.with(format!("dbio run: {m}")),
    };
    for o in &offsets {
        say(format!(
            "dbio run: {}: clock {:+.3} ms (round trip {:.3} ms)",
            o.host, o.offset_ms, o.rtt_ms
        ));
    }
    let stop = stop_flag();
    let quiet = a.quiet;
    let merged = fleet::run(&plan, offsets, &stop, &mut |host, line| {
        if !quiet || line.starts_with("warning") || line.contains("error") {
            eprintln!("[{host}] {line}");
        }
    });
    let r = match merged {
        Ok(r) => r,
        Err(m) => return Exit::Failure.with(format!("dbio run: {m}")),
    };
    if let Some(c) = &r.cluster {
        for f in &c.failed {
            eprintln!("dbio run: {}: {}", f.name, f.reason);
        }
    }
    let mut r = crate::cmd::run::judged(r);
    r.label = a.store.label.clone();
    deliver(r, &Delivery::of(&a), store.as_ref(), "dbio run")
}
