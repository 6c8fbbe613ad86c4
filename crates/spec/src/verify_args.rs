//! Write verification flags: `dbio run --verify [--verify-journal FILE]` and
//! `dbio verify --journal FILE` (what they refuse: `dbio_spec::verify`).

use crate::out_args::Outputs;
use clap::Args;

/// The verify flags of `dbio run`.
#[derive(Debug, Clone, Default, Args)]
pub struct RunVerifyArgs {
    /// Verify every block written: each 4 KiB block carries a header (run, target, offset,
    /// write sequence, checksum); reads check what they get and a pass after the run reads
    /// every block back. Bad blocks (torn or corrupt, misdirected, lost, never written) are
    /// counted and listed, and dbio exits 3.
    #[arg(long, help_heading = "Write verification")]
    pub verify: bool,
    /// Also keep, durably, the last acknowledged write of every block in FILE (8 bytes per
    /// 4 KiB block, synced every 100 ms), so `dbio verify --journal FILE` can check the
    /// targets after a crash or a power cut. Implies --verify. FILE must not exist.
    #[arg(long, value_name = "FILE", help_heading = "Write verification")]
    pub verify_journal: Option<String>,
}

pub const VERIFY_HELP: &str = include_str!("../help/verify.txt");

/// Flags of `dbio verify`.
#[derive(Debug, Args)]
#[command(
    mut_arg("json", |a| a.help("Write the report as JSON to FILE, or to stdout with '-' (then the summary goes to stderr)")),
    mut_arg("quiet", |a| a.help("Print nothing but errors and bad blocks"))
)]
pub struct VerifyArgs {
    /// The journal a run kept with --verify-journal.
    #[arg(long, value_name = "FILE")]
    pub journal: String,
    /// A target that has a new path since the run (after a reboot or a failover): OLD=NEW,
    /// OLD as the journal names it; or just NEW when the journal names one target.
    /// Repeat for several targets.
    #[arg(long, value_name = "[OLD=]NEW")]
    pub target: Vec<String>,
    #[command(flatten)]
    pub out: Outputs,
}
