//! Write verification flags: `dbio run --verify [--verify-journal FILE]` and
//! `dbio verify --journal FILE`, and what they refuse.

use crate::args::RunArgs;
use clap::Args;
use dbio_model::verify::{VerifySpec, VERIFY_UNIT};
use dbio_model::{DataKind, EngineKind, JobSpec};

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

/// Sets `spec.verify` from the flags, refusing what verification cannot check.
pub fn apply(a: &RunArgs, spec: &mut JobSpec) -> Result<(), String> {
    let v = &a.verify;
    if !v.verify && v.verify_journal.is_none() {
        return Ok(());
    }
    let flag = if v.verify_journal.is_some() {
        "--verify-journal"
    } else {
        "--verify"
    };
    if spec.engine == EngineKind::Sim || spec.engine == EngineKind::Null {
        return Err(format!(
            "{flag}: --engine {} does no I/O, so there is nothing to verify; use uring or psync",
            format!("{:?}", spec.engine).to_lowercase()
        ));
    }
    if spec.session.is_some() {
        return Err(format!(
            "{flag}: session mode (--sessions) is not verified; use a queue-depth run (leave out --sessions)"
        ));
    }
    if !spec.rw.writes() {
        return Err(format!(
            "{flag}: --rw {} only reads, so this run writes nothing to verify; use write, randwrite or randrw (dbio verify --journal FILE checks an earlier run)",
            format!("{:?}", spec.rw).to_lowercase()
        ));
    }
    if let Some(b) = spec.bs.iter().find(|b| !b.size.is_multiple_of(VERIFY_UNIT)) {
        return Err(format!(
            "{flag}: --bs {}: verification checks 4 KiB blocks; use block sizes that are multiples of 4k",
            b.size
        ));
    }
    if !spec.align.is_multiple_of(VERIFY_UNIT) || !spec.region.offset.is_multiple_of(VERIFY_UNIT) {
        return Err(format!(
            "{flag}: --align and --offset must be multiples of 4k: verification checks 4 KiB blocks"
        ));
    }
    if let DataKind::Reducible(r) = &spec.data {
        if r.dedupe > 1.0 {
            return Err(format!(
                "{flag}: --data dedupe:{}: every verified block carries its own offset and write sequence, so no two blocks are alike; leave out dedupe (compress:C alone keeps its ratio)",
                r.dedupe
            ));
        }
    }
    if let Some(j) = &v.verify_journal {
        if j.is_empty() {
            return Err("--verify-journal: give a file name".into());
        }
        if spec.targets.iter().any(|t| same_file(t, j)) {
            return Err(format!(
                "--verify-journal {j}: that is a target of the run; keep the journal on another file (best on another device)"
            ));
        }
    }
    spec.verify = Some(VerifySpec {
        journal: v.verify_journal.clone(),
    });
    Ok(())
}

/// Whether `a` and `b` name the same file (or the same path when neither exists yet).
fn same_file(a: &str, b: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    let path = |t: &str| t.split_once('=').map_or(t, |(_, p)| p).to_string();
    let (a, b) = (path(a), path(b));
    match (std::fs::metadata(&a), std::fs::metadata(&b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => std::path::absolute(&a).ok() == std::path::absolute(&b).ok(),
    }
}

pub const VERIFY_HELP: &str = "\
A verifying run keeps its journal with --verify-journal FILE: the last acknowledged write of
every 4 KiB block of every target, synced every 100 ms. After a crash, a power cut, a failover
or a reboot, dbio verify reads every block of those targets back: a block must hold its last
journaled write or a later one of the same run.

Examples:
  dbio run --rw randwrite --verify-journal /mnt/other/dbio.journal --target /mnt/data/f
  dbio verify --journal /mnt/other/dbio.journal
  dbio verify --journal j --json verify.json
  dbio verify --journal j --target /mnt/data/f=/mnt/restored/f

Exit status: 0 every block as it must be; 3 bad blocks found (torn or corrupt, misdirected,
lost, never written; the first are listed); 1 a target could not be read to the end;
2 the journal cannot be used (not a journal, damaged, or incomplete: its run could not write
it).";

/// Flags of `dbio verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The journal a run kept with --verify-journal.
    #[arg(long, value_name = "FILE")]
    pub journal: String,
    /// A target that has a new path since the run (after a reboot or a failover): OLD=NEW,
    /// OLD as the journal names it; or just NEW when the journal names one target.
    /// Repeat for several targets.
    #[arg(long, value_name = "[OLD=]NEW")]
    pub target: Vec<String>,
    /// Write the report as JSON to FILE, or to stdout with '-' (then the summary goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Print nothing but errors and bad blocks.
    #[arg(long, short)]
    pub quiet: bool,
}
