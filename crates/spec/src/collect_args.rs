//! Flags of `dbio collect`.

use crate::out_args::HistoryDb;
use clap::Args;

pub const COLLECT_HELP: &str = include_str!("../help/collect.txt");

/// Flags of `dbio collect`.
#[derive(Debug, Args)]
pub struct CollectArgs {
    /// The database: postgres://… or mysql://… (mariadb:// too); without it, devices and CPU.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Devices to sample: auto (the disk of the database's data folder) or names (sda,nvme0n1).
    #[arg(long, value_name = "auto|DEV,...", default_value = "auto")]
    pub device: String,
    /// Time between samples [default: 60s].
    #[arg(long, value_name = "DURATION")]
    pub interval: Option<String>,
    /// How long to collect (e.g. 7d); without it, until Ctrl-C.
    #[arg(long, value_name = "DURATION")]
    pub duration: Option<String>,
    /// The collection's name in the history [default: collect-DATE-TIME].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Read a folder of exports saved every interval (SQL Server, Oracle; as `dbio advise`
    /// reads them) as a collection; --resume NAME later reads the ones added since.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["url", "resume"])]
    pub exports: Option<String>,
    /// Go on with a stored collection: the same database, devices and interval.
    #[arg(long, value_name = "NAME", conflicts_with = "name")]
    pub resume: Option<String>,
    /// Sum up a stored collection instead of collecting.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["url", "resume", "interval", "duration", "name"])]
    pub report: Option<String>,
    /// With --report: write the report's JSON to FILE, or stdout with '-'.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub json: Option<String>,
    /// With --report: write one CSV row per interval to FILE, or stdout with '-'.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub csv: Option<String>,
    /// With --report: write the report as Markdown to FILE, or stdout with '-'.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub md: Option<String>,
    /// With --report: write the report as one HTML page with charts to FILE.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub html: Option<String>,
    /// Collect on these hosts at once through OpenSSH (your ~/.ssh/config, keys and agent
    /// apply), each into a collection NAME@HOST: host,user@host:port,...
    #[arg(long, value_name = "HOSTS", value_delimiter = ',')]
    pub hosts: Vec<String>,
    /// The dbio to run on the hosts [default: dbio, on the remote PATH].
    #[arg(long, value_name = "PATH", requires = "hosts")]
    pub remote_dbio: Option<String>,
    /// An ssh config file to use instead of ~/.ssh/config (ssh -F).
    #[arg(long, value_name = "FILE", requires = "hosts")]
    pub ssh_config: Option<String>,
    /// Samples as JSON lines on stdout for a launching dbio, stopping when stdin closes.
    #[arg(long, hide = true)]
    pub emit: bool,
    /// Print nothing but errors while collecting.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    #[command(flatten)]
    pub history: HistoryDb,
}
