//! One workload on many hosts (`--hosts`): every host is checked and its clock measured
//! before any starts; all start at one instant of the launching host's clock, translated
//! to each host's own; their results are merged exactly.

pub mod clock;
pub mod error;
pub mod flags;
pub mod hosts;
pub mod launch;
pub mod remote;
pub mod share;
pub mod ssh;
pub mod steps;
pub mod targets;

use dbio_analyze::merge::{merge, HostResult, MergeOptions};
use dbio_model::cluster::{ClockOffset, HostFailure};
use dbio_model::{JobSpec, RunResult, RUN_SCHEMA};
pub use error::FleetError;
use hosts::Host;
use ssh::SshSetup;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime};
pub use targets::check_targets_on;

/// A fleet run, checked and ready.
pub struct FleetPlan {
    pub hosts: Vec<Host>,
    pub ssh: SshSetup,
    /// `--target-on HOST=PATH`: a host's own targets (else the job's are every host's).
    pub targets_on: Vec<(String, String)>,
    /// `--split-region`: host i of n takes the i-th 1/n of the region.
    pub split_region: bool,
    /// The label each host's result carries.
    pub label: Option<String>,
    /// A folder to keep each host's own JSON result in (HOST.json).
    pub host_json: Option<std::path::PathBuf>,
    /// The step of a sweep or a suite that runs next, counted from 1: its hosts' results are
    /// kept in the folder's step-N/ (None: one run, kept in the folder itself).
    pub step: Option<usize>,
}

/// Time between the end of the checks and the common start when none is given: enough for
/// every ssh session to be up and every target opened.
const LEAD: Duration = Duration::from_secs(3);

/// Checks every host (reachable, a dbio of the same result schema, a readable clock) in
/// parallel; Err names each host that cannot take part, and then no host has started.
pub fn check_hosts(plan: &FleetPlan) -> Result<Vec<ClockOffset>, FleetError> {
    let answers: Vec<Result<ClockOffset, clock::ProbeError>> = std::thread::scope(|s| {
        let probes: Vec<_> = plan
            .hosts
            .iter()
            .map(|h| s.spawn(|| clock::probe(&plan.ssh, h, RUN_SCHEMA)))
            .collect();
        probes
            .into_iter()
            .map(|p| p.join().unwrap_or(Err(clock::ProbeError::Panicked)))
            .collect()
    });
    let bad: Vec<String> = plan
        .hosts
        .iter()
        .zip(&answers)
        .filter_map(|(h, a)| a.as_ref().err().map(|e| format!("{}: {e}", h.name)))
        .collect();
    if !bad.is_empty() {
        return Err(FleetError::NotStarted(bad.join("; ")));
    }
    Ok(answers.into_iter().map(|a| a.expect("checked")).collect())
}

/// RFC 3339 with nanoseconds, what `--start-at` reads.
pub fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_nanos(t).to_string()
}

/// The remote command line of host `index`: its job (its own seed and part), its start in
/// its own clock.
fn remote_args(
    plan: &FleetPlan,
    job: &JobSpec,
    index: usize,
    start: SystemTime,
    offset: &ClockOffset,
) -> Vec<String> {
    let host = &plan.hosts[index];
    let mut job = share::host_job(job, index, plan.hosts.len(), plan.split_region);
    targets::apply(&plan.targets_on, host, &mut job);
    let theirs = if offset.offset_ms >= 0.0 {
        start + Duration::from_secs_f64(offset.offset_ms / 1e3)
    } else {
        start - Duration::from_secs_f64(-offset.offset_ms / 1e3)
    };
    let mut args: Vec<String> = [
        "run",
        "--job-json",
        &serde_json::to_string(&job).expect("a job serializes"),
        "--start-at",
        &rfc3339(theirs),
        "--json",
        "-",
        "-q",
        "--progress-lines",
        "--no-store",
        "--stop-on-eof",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Some(l) = &plan.label {
        args.extend(["--label".to_string(), l.clone()]);
    }
    args
}

/// Runs `job` on every host of `plan` at `start_at` (the launching host's clock; None: a few
/// seconds after the checks): the merged result, or the reason no host gave one.
pub fn run(
    plan: &FleetPlan,
    job: &JobSpec,
    start_at: Option<SystemTime>,
    offsets: Vec<ClockOffset>,
    stop: &AtomicBool,
    on_line: &mut dyn FnMut(&str, &str),
) -> Result<RunResult, FleetError> {
    targets::check(&plan.hosts, &plan.targets_on, job)?;
    let start = start_at.unwrap_or_else(|| SystemTime::now() + LEAD);
    let runs = plan
        .hosts
        .iter()
        .zip(&offsets)
        .enumerate()
        .map(|(i, (h, o))| (h.clone(), remote_args(plan, job, i, start, o)))
        .collect();
    let finished = launch::run_all(&plan.ssh, runs, stop, on_line);
    let mut hosts = Vec::new();
    let mut failed = Vec::new();
    for f in finished {
        match serde_json::from_str::<RunResult>(f.stdout.trim()) {
            Ok(result) => {
                if let Some(dir) = &plan.host_json {
                    keep_json(dir, plan.step, &f.host.name, &f.stdout)?;
                }
                hosts.push(HostResult {
                    name: f.host.name.clone(),
                    result,
                })
            }
            Err(_) => failed.push(HostFailure {
                name: f.host.name.clone(),
                reason: failure_reason(&plan.ssh, &f),
            }),
        }
    }
    // Keep the order the hosts were given in.
    hosts.sort_by_key(|h| plan.hosts.iter().position(|x| x.name == h.name));
    if hosts.is_empty() {
        let why: Vec<String> = failed
            .iter()
            .map(|f| format!("{}: {}", f.name, f.reason))
            .collect();
        return Err(FleetError::NoResult(why.join("; ")));
    }
    merge(
        &hosts,
        MergeOptions {
            failed,
            clock_offsets: offsets,
            allow_different: false,
        },
    )
    .map_err(FleetError::Merge)
}

/// Writes one host's result as DIR/HOST.json, or DIR/step-N/HOST.json for step N of a sweep
/// or a suite (characters other than letters, digits, `.`, `-` and `_` in the host's name
/// become `_`).
fn keep_json(
    dir: &std::path::Path,
    step: Option<usize>,
    host: &str,
    json: &str,
) -> Result<(), FleetError> {
    let dir = match step {
        Some(n) => dir.join(format!("step-{n}")),
        None => dir.to_path_buf(),
    };
    let failed = |path: &std::path::Path| {
        let path = path.display().to_string();
        move |source| FleetError::HostJson { path, source }
    };
    std::fs::create_dir_all(&dir).map_err(failed(&dir))?;
    let name: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, json).map_err(failed(&path))
}

/// Why a host gave no result, in words: what its session ended with and the last line it
/// wrote that was not a progress line (`dbio-tick …` says nothing about a failure).
fn failure_reason(setup: &SshSetup, f: &launch::Finished) -> String {
    let said = f
        .stderr_tail
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !crate::progress::is_progress(l))
        .map_or(String::new(), |l| format!(": {l}"));
    if f.cut_off {
        return format!(
            "lost: it went silent and did not stop when told to, so its session was cut off{said}"
        );
    }
    match f.code {
        Some(127) => format!("{}{said}", ssh::dbio_not_found(setup, &f.host)),
        // ssh's own status: the connection failed, or the remote dbio died of a signal.
        Some(255) if f.silent_for >= ssh::SILENT_AFTER => format!(
            "lost: nothing came from it for {:.0} s, then ssh gave up on the connection{said}",
            f.silent_for.as_secs_f64()
        ),
        Some(255) => format!(
            "its session ended without a result (its dbio was killed, or the connection failed){said}"
        ),
        // dbio's own status when it was told to stop before it had a result to give (the
        // signal branch below would read it as SIGINT).
        Some(130) => format!("its dbio was interrupted before it gave a result{said}"),
        // A shell reports a command killed by signal N as 128 + N.
        Some(c) if (129..=192).contains(&c) => format!(
            "its dbio was killed (signal {}) before it gave a result{said}",
            c - 128
        ),
        Some(c) => format!("its dbio exited with status {c} and no result{said}"),
        None => format!("its session ended without a result (killed){said}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(code: Option<i32>) -> launch::Finished {
        launch::Finished {
            host: hosts::parse_host("db1").expect("a host"),
            code,
            stdout: String::new(),
            stderr_tail: vec!["dbio-tick 1 2 3 4 5".into()],
            cut_off: false,
            silent_for: Duration::ZERO,
        }
    }

    fn setup() -> SshSetup {
        SshSetup {
            ssh: "ssh".into(),
            config: None,
            remote_dbio: "/opt/dbio".into(),
        }
    }

    #[test]
    fn dbio_s_own_130_is_interrupted_not_a_signal() {
        let why = failure_reason(&setup(), &ended(Some(130)));
        assert_eq!(why, "its dbio was interrupted before it gave a result");
        let why = failure_reason(&setup(), &ended(Some(137)));
        assert!(why.contains("killed (signal 9)"), "{why}");
    }

    #[test]
    fn exit_127_names_the_dbio_looked_for() {
        let why = failure_reason(&setup(), &ended(Some(127)));
        assert_eq!(
            why,
            "dbio not found on db1 (looked for '/opt/dbio'; give its path with --remote-dbio)"
        );
    }
}
