//! A host's own targets (`--target-on HOST=PATH`) in the job it is sent. In session mode the
//! redo log goes beside the host's own data target, as it goes beside the job's on one host,
//! or to `--target-on HOST=log=PATH`.

use super::error::FleetError;
use super::hosts::Host;
use dbio_model::JobSpec;

/// Refuses `--target-on` entries naming a host that is not in the fleet.
pub fn check_targets_on(hosts: &[Host], targets_on: &[(String, String)]) -> Result<(), FleetError> {
    for (h, _) in targets_on {
        if !hosts.iter().any(|x| x.name == *h || x.destination == *h) {
            return Err(FleetError::UnknownHost {
                host: h.clone(),
                known: hosts
                    .iter()
                    .map(|h| h.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    Ok(())
}

/// The `--target-on` paths given for `host`, as written.
fn given<'a>(targets_on: &'a [(String, String)], host: &Host) -> Vec<&'a str> {
    targets_on
        .iter()
        .filter(|(h, _)| *h == host.name || *h == host.destination)
        .map(|(_, p)| p.as_str())
        .collect()
}

/// `job` with `host`'s own targets, if `targets_on` gave it any: its data targets, and in
/// session mode its log (`log=PATH`, else PATH.redo beside its first data target when the
/// job's log was beside the job's own first target).
pub fn apply(targets_on: &[(String, String)], host: &Host, job: &mut JobSpec) {
    let own = given(targets_on, host);
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
pub fn check(
    hosts: &[Host],
    targets_on: &[(String, String)],
    job: &JobSpec,
) -> Result<(), FleetError> {
    for host in hosts {
        let mut theirs = job.clone();
        apply(targets_on, host, &mut theirs);
        let Some(s) = &theirs.session else {
            return Ok(());
        };
        if s.log_target.starts_with("/dev/") {
            return Err(FleetError::LogBesideDevice {
                host: host.name.clone(),
                target: theirs.targets[0].clone(),
            });
        }
    }
    Ok(())
}
