//! Write verification (`--verify`, `--verify-journal FILE`): what it refuses, and the job's
//! VerifySpec when it is asked for.

use crate::error::SpecError;
use crate::raw::RawJob;
use dbio_model::verify::{VerifySpec, VERIFY_UNIT};
use dbio_model::{BsWeight, DataKind, EngineKind, Rw};

/// The settings of a job that verification depends on, as the job will have them.
pub struct Verified<'a> {
    /// The engine of the run.
    pub engine: EngineKind,
    /// Whether the run is in session mode.
    pub session: bool,
    /// The access pattern.
    pub rw: Rw,
    /// The block sizes.
    pub bs: &'a [BsWeight],
    /// The alignment of offsets.
    pub align: u64,
    /// The region's start.
    pub offset: u64,
    /// The data written.
    pub data: &'a DataKind,
    /// The targets of the run.
    pub targets: &'a [String],
}

/// The job's VerifySpec when the flags ask for verification, or why it cannot be verified.
pub fn verify_spec(a: &RawJob, j: &Verified) -> Result<Option<VerifySpec>, SpecError> {
    if !a.verify && a.verify_journal.is_none() {
        return Ok(None);
    }
    let flag = if a.verify_journal.is_some() {
        "--verify-journal"
    } else {
        "--verify"
    };
    if j.engine == EngineKind::Sim || j.engine == EngineKind::Null {
        return Err(format!(
            "{flag}: --engine {} does no I/O, so there is nothing to verify; use uring or psync",
            format!("{:?}", j.engine).to_lowercase()
        )
        .into());
    }
    if j.session {
        return Err(format!(
            "{flag}: session mode (--sessions) is not verified; use a queue-depth run (leave out --sessions)"
        ).into());
    }
    if !j.rw.writes() {
        return Err(format!(
            "{flag}: --rw {} only reads, so this run writes nothing to verify; use write, randwrite or randrw (dbio verify --journal FILE checks an earlier run)",
            format!("{:?}", j.rw).to_lowercase()
        ).into());
    }
    if let Some(b) = j.bs.iter().find(|b| !b.size.is_multiple_of(VERIFY_UNIT)) {
        return Err(format!(
            "{flag}: --bs {}: verification checks 4 KiB blocks; use block sizes that are multiples of 4k",
            b.size
        ).into());
    }
    if !j.align.is_multiple_of(VERIFY_UNIT) || !j.offset.is_multiple_of(VERIFY_UNIT) {
        return Err(format!(
            "{flag}: --align and --offset must be multiples of 4k: verification checks 4 KiB blocks"
        )
        .into());
    }
    if let DataKind::Reducible(r) = j.data {
        if r.dedupe > 1.0 {
            return Err(format!(
                "{flag}: --data dedupe:{}: every verified block carries its own offset and write sequence, so no two blocks are alike; leave out dedupe (compress:C alone keeps its ratio)",
                r.dedupe
            ).into());
        }
    }
    if let Some(journal) = &a.verify_journal {
        if journal.is_empty() {
            return Err("--verify-journal: give a file name".into());
        }
        if j.targets.iter().any(|t| same_file(t, journal)) {
            return Err(format!(
                "--verify-journal {journal}: that is a target of the run; keep the journal on another file (best on another device)"
            ).into());
        }
    }
    Ok(Some(VerifySpec {
        journal: a.verify_journal.clone(),
    }))
}

/// Whether `a` and `b` name the same file (or the same path when neither exists yet); a
/// `ROLE=` before either is left out.
fn same_file(a: &str, b: &str) -> bool {
    let path = |t: &str| t.split_once('=').map_or(t, |(_, p)| p).to_string();
    crate::targets::same_file(&path(a), &path(b))
}
