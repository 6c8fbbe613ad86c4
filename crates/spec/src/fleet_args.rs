//! Flags of a run across hosts (`--hosts`, `--start-at`) and of `dbio merge`.

use crate::out_args::{Outputs, StoreArgs};
use clap::Args;

/// Where else a run goes: other hosts, a common start.
#[derive(Debug, Clone, Args, Default)]
pub struct FleetArgs {
    /// Run on these hosts at once through OpenSSH (your ~/.ssh/config, keys and agent apply),
    /// started together and merged: host,user@host:port,...
    #[arg(
        long,
        value_name = "HOSTS",
        value_delimiter = ',',
        help_heading = "Several hosts"
    )]
    pub hosts: Vec<String>,
    /// The hosts, one per line (user@host:port; '#' starts a comment).
    #[arg(long, value_name = "FILE", help_heading = "Several hosts")]
    pub hosts_file: Option<String>,
    /// A host's own target instead of --target: HOST=PATH (repeat for several).
    #[arg(long, value_name = "HOST=PATH", help_heading = "Several hosts")]
    pub target_on: Vec<String>,
    /// The dbio to run on the hosts [default: dbio, on the remote PATH].
    #[arg(long, value_name = "PATH", help_heading = "Several hosts")]
    pub remote_dbio: Option<String>,
    /// An ssh config file to use instead of ~/.ssh/config (ssh -F).
    #[arg(long, value_name = "FILE", help_heading = "Several hosts")]
    pub ssh_config: Option<String>,
    /// Hosts sharing one device each take their own part of the region: alone with --hosts
    /// (host i of n gets the i-th 1/n), or PART/PARTS on each host of a --start-at run (2/4).
    #[arg(
        long,
        value_name = "PART/PARTS",
        num_args = 0..=1,
        default_missing_value = "",
        help_heading = "Several hosts"
    )]
    pub split_region: Option<String>,
    /// Also keep each host's own JSON result in DIR, as HOST.json (a sweep's or a suite's
    /// steps as DIR/step-N/HOST.json).
    #[arg(long, value_name = "DIR", help_heading = "Several hosts")]
    pub host_json: Option<String>,
    /// Start measuring at this instant (RFC 3339, e.g. 2026-12-01T10:00:00Z) once the targets
    /// are ready: run the same command on every host (Ansible, pdsh, a Kubernetes Job), then
    /// `dbio merge` their JSON results.
    #[arg(long, value_name = "TIME", help_heading = "Several hosts")]
    pub start_at: Option<String>,
    /// Run this validated job (JSON) as it is: what --hosts sends to each host.
    #[arg(long, value_name = "JSON", hide = true)]
    pub job_json: Option<String>,
    /// Progress as lines on stderr that a launching dbio reads (`dbio-tick …`, then
    /// `dbio-finishing` every second after the window until the result is delivered).
    #[arg(long, hide = true)]
    pub progress_lines: bool,
    /// Stop as on Ctrl-C when standard input closes (the launching ssh session went away).
    #[arg(long, hide = true)]
    pub stop_on_eof: bool,
}

pub const MERGE_HELP: &str = include_str!("../help/merge.txt");

/// Flags of `dbio merge`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// JSON results of `dbio run --json`, one per host.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
    /// Merge results of different workloads on purpose (the result says so).
    #[arg(long)]
    pub allow_different: bool,
    #[command(flatten)]
    pub out: Outputs,
    /// Also write the merged result as HTML with charts to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}
