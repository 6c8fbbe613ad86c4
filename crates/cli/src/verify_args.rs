//! Write verification: what `dbio run --verify [--verify-journal FILE]` refuses, and how
//! it sets the job (the flags themselves are in `verify_flags.rs`).

use crate::args::RunArgs;
use dbio_model::verify::{VerifySpec, VERIFY_UNIT};
use dbio_model::{DataKind, EngineKind, JobSpec};

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
