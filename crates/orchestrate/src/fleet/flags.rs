//! The flags of a run across hosts as plain data, checked into a [`FleetPlan`]: the hosts,
//! each host's own targets, the ssh setup, where each host's result is kept.

use super::hosts::{parse_hosts, HostsError};
use super::ssh::SshSetup;
use super::{check_targets_on, FleetError, FleetPlan};
use dbio_spec::SpecError;

/// What the user asked of a fleet run (`--hosts`, `--hosts-file`, `--target-on`, …), nothing
/// checked yet.
#[derive(Debug, Clone, Default)]
pub struct FleetFlags {
    /// `--hosts`: host names, each possibly a comma-separated list.
    pub hosts: Vec<String>,
    /// `--hosts-file`: one host per line.
    pub hosts_file: Option<String>,
    /// `--target-on HOST=PATH`, as written.
    pub target_on: Vec<String>,
    /// `--split-region`: "" alone, "PART/PARTS" for one host's part.
    pub split_region: Option<String>,
    /// `--job-json` was given too (what --hosts sends to each host).
    pub job_json: bool,
    /// The ssh client to run (`DBIO_SSH`, else "ssh").
    pub ssh: Option<String>,
    /// `--ssh-config FILE`.
    pub ssh_config: Option<String>,
    /// `--remote-dbio PATH`.
    pub remote_dbio: Option<String>,
    /// `--host-json DIR`.
    pub host_json: Option<String>,
    /// `--label`: the label each host's result carries.
    pub label: Option<String>,
}

/// Why the flags of a fleet run make no fleet; Display names the flag, the value and what
/// to try.
#[derive(Debug, thiserror::Error)]
pub enum FlagsError {
    /// `--hosts`/`--hosts-file` name no usable hosts.
    #[error("{0}")]
    Hosts(#[from] HostsError),
    /// `--split-region` does not fit the run.
    #[error("{0}")]
    Split(#[from] SpecError),
    /// `--job-json` given with `--hosts`.
    #[error("--job-json is what --hosts sends to each host; do not give both")]
    JobJson,
    /// `--target-on` not written HOST=PATH.
    #[error("--target-on {0}: write HOST=PATH")]
    TargetOn(String),
    /// `--target-on` names a host not in the fleet, or cannot be used there.
    #[error("{0}")]
    Targets(#[from] FleetError),
    /// `--host-json` is not a folder.
    #[error("--host-json {0}: not a folder")]
    HostJson(String),
}

impl FleetFlags {
    /// True when the flags ask for several hosts.
    pub fn wanted(&self) -> bool {
        !self.hosts.is_empty() || self.hosts_file.is_some()
    }

    /// The fleet these flags describe, checked (a single run: `step` None).
    pub fn plan(&self) -> Result<FleetPlan, FlagsError> {
        let hosts = parse_hosts(&self.hosts, self.hosts_file.as_deref())?;
        dbio_spec::region::explicit_split(self.split_region.as_deref(), self.wanted())?;
        if self.job_json {
            return Err(FlagsError::JobJson);
        }
        let mut targets_on = Vec::new();
        for t in &self.target_on {
            let (h, p) = t
                .split_once('=')
                .filter(|(h, p)| !h.is_empty() && !p.is_empty())
                .ok_or_else(|| FlagsError::TargetOn(t.clone()))?;
            targets_on.push((h.to_string(), p.to_string()));
        }
        check_targets_on(&hosts, &targets_on)?;
        let host_json = match &self.host_json {
            Some(d) if !std::path::Path::new(d).is_dir() => {
                return Err(FlagsError::HostJson(d.clone()))
            }
            d => d.as_ref().map(std::path::PathBuf::from),
        };
        Ok(FleetPlan {
            hosts,
            ssh: SshSetup {
                ssh: self.ssh.clone().unwrap_or_else(|| "ssh".into()),
                config: self.ssh_config.clone(),
                remote_dbio: self.remote_dbio.clone().unwrap_or_else(|| "dbio".into()),
            },
            targets_on,
            split_region: self.split_region.is_some(),
            label: self.label.clone(),
            host_json,
            step: None,
        })
    }
}
