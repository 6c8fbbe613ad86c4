//! A host's own targets (`--target-on HOST=PATH`) in the job it is sent. In session mode the
//! redo log goes beside the host's own data target, as it goes beside the job's on one host,
//! or to `--target-on HOST=log=PATH`.

use super::hosts::Host;
use super::FleetPlan;
use dbio_model::JobSpec;

/// The `--target-on` paths given for `host`, as written.
fn given<'a>(plan: &'a FleetPlan, host: &Host) -> Vec<&'a str> {
    plan.targets_on
        .iter()
        .filter(|(h, _)| *h == host.name || *h == host.destination)
        .map(|(_, p)| p.as_str())
        .collect()
}

/// `job` with `host`'s own targets, if it was given any: its data targets, and in session mode
/// its log (`log=PATH`, else PATH.redo beside its first data target when the job's log was
/// beside the job's own first target).
pub fn apply(plan: &FleetPlan, host: &Host, job: &mut JobSpec) {
    let own = given(plan, host);
    if own.is_empty() {
        return;
    }
    let Some(session) = job.session.as_mut() else {
        job.targets = own.iter().map(|p| p.to_string()).collect();
        return;
    };
    let beside = job
        .targets
        .first()
        .is_some_and(|t| session.log_target == format!("{t}.redo"));
    let (logs, data): (Vec<&str>, Vec<&str>) = own.iter().partition(|p| p.starts_with("log="));
    let data: Vec<String> = data
        .iter()
        .map(|p| p.strip_prefix("data=").unwrap_or(p).to_string())
        .collect();
    if let Some(log) = logs.first() {
        session.log_target = log["log=".len()..].to_string();
    } else if beside {
        if let Some(first) = data.first() {
            session.log_target = format!("{first}.redo");
        }
    }
    if !data.is_empty() {
        job.targets = data;
    }
}

/// Refuses, before any host starts, a session-mode job whose redo log would go beside a
/// host's device (`/dev/…`), where no file belongs.
pub fn check(plan: &FleetPlan, job: &JobSpec) -> Result<(), String> {
    for host in &plan.hosts {
        let mut theirs = job.clone();
        apply(plan, host, &mut theirs);
        let Some(s) = &theirs.session else {
            return Ok(());
        };
        if s.log_target.starts_with("/dev/") {
            return Err(format!(
                "--target-on {}={}: session mode puts its redo log beside the data target, and a device has no folder beside it; give the host's log its own target: --target-on {}=log=PATH",
                host.name, theirs.targets[0], host.name
            ));
        }
    }
    Ok(())
}
