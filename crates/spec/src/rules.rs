//! What makes a job a valid one, checked on the job itself: the rules every job obeys
//! whether it came from flags, a profile, or another job with one setting changed (a sweep's
//! step). The messages name the flag that sets the value, as the CLI's own do.

use crate::error::SpecError;
use dbio_model::units::format_size;
use dbio_model::{Arrivals, DataKind, EngineKind, JobSpec, Rw};

/// Largest block size dbio accepts.
pub const MAX_BS: u64 = 256 << 20;
/// Most outstanding I/Os per thread: as many as the engine's io_uring ring has slots for.
pub const MAX_QD: u32 = dbio_engine::uring::MAX_SLOTS;
/// Most worker threads (and sessions).
pub const MAX_THREADS: u32 = 4096;
/// Verification checks blocks of this size.
const VERIFY_UNIT: u64 = dbio_model::verify::VERIFY_UNIT;

/// Checks the rules between a job's values; Err is one message naming the flag and what to do.
pub fn check(j: &JobSpec) -> Result<(), SpecError> {
    // Session mode first: its threads are its sessions, and the message names those.
    check_session(j)?;
    if j.qd == 0 || j.qd > MAX_QD {
        return Err(format!(
            "--qd {}: use 1 to {MAX_QD} outstanding I/Os per thread (for more, add --threads)",
            j.qd
        )
        .into());
    }
    if j.threads == 0 || j.threads > MAX_THREADS {
        return Err(format!("--threads {}: use 1 to {MAX_THREADS}", j.threads).into());
    }
    if j.invalidate && j.direct {
        return Err("--invalidate drops the page cache before a --buffered run; with O_DIRECT (the default) there is none to drop: add --buffered, or leave --invalidate out".into());
    }
    check_sizes(j)?;
    check_mix(j)?;
    check_rate(j)?;
    check_units(j)?;
    check_verify(j)
}

/// Block sizes, alignment, file size, region.
fn check_sizes(j: &JobSpec) -> Result<(), SpecError> {
    if j.bs.is_empty() {
        return Err("--bs: give at least one block size, e.g. 8k".into());
    }
    for b in &j.bs {
        if b.size == 0 || b.size > MAX_BS {
            return Err(format!("--bs {}: out of range; use 512 bytes to 256 MiB", b.size).into());
        }
        if b.weight == 0 {
            return Err(format!(
                "--bs {}: weight 0; leave it out instead",
                format_size(b.size)
            )
            .into());
        }
    }
    let max_bs = j.max_bs();
    if j.align == 0 {
        return Err("--align: must be at least 1 byte".into());
    }
    if let Some(s) = j.file_size.filter(|s| *s < max_bs) {
        return Err(format!(
            "--size {}: smaller than the largest block size {}; use a larger --size",
            format_size(s),
            format_size(max_bs)
        )
        .into());
    }
    match j.region.range {
        Some(0) => return Err("--range 0: the region must hold at least one block".into()),
        Some(r) if r < max_bs => {
            return Err(format!(
                "--range {}: smaller than the largest block size {}",
                format_size(r),
                format_size(max_bs)
            )
            .into())
        }
        _ => {}
    }
    if let Some(s) = j.region.split.filter(|s| s.part == 0 || s.part > s.parts) {
        return Err(format!(
            "--split-region {}/{}: the part is a number from 1 to {}, e.g. --split-region 1/{}",
            s.part,
            s.parts,
            s.parts,
            s.parts.max(1)
        )
        .into());
    }
    let offset = j.region.offset;
    if !offset.is_multiple_of(j.align) {
        return Err(format!(
            "--offset {offset}: not a multiple of the alignment {}; use e.g. --offset {}",
            j.align,
            offset / j.align * j.align
        )
        .into());
    }
    Ok(())
}

/// The read share agrees with the access pattern.
fn check_mix(j: &JobSpec) -> Result<(), SpecError> {
    if j.read_pct > 100 {
        return Err(format!(
            "--mix {}: the read share is a percentage, 0 to 100",
            j.read_pct
        )
        .into());
    }
    let fixed = match j.rw {
        Rw::Read | Rw::RandRead => Some(100),
        Rw::Write | Rw::RandWrite => Some(0),
        Rw::RandRw | Rw::ReadWrite => None,
    };
    match fixed {
        Some(p) if p != j.read_pct => Err(format!(
            "--mix applies to --rw randrw or readwrite (the read share of a mixed run); --rw {} has none",
            j.rw.name()
        )
        .into()),
        _ => Ok(()),
    }
}

/// An open loop's rate.
fn check_rate(j: &JobSpec) -> Result<(), SpecError> {
    if j.rate == Some(0) {
        return Err(
            "--rate 0: give the IOPS to issue, or leave --rate out for a closed loop".into(),
        );
    }
    if j.arrivals == Arrivals::Poisson && j.rate.is_none() {
        return Err("--arrivals poisson spaces open-loop I/Os: give --rate IOPS too".into());
    }
    Ok(())
}

/// Session mode: one synchronous thread per session, pages of one size.
fn check_session(j: &JobSpec) -> Result<(), SpecError> {
    let Some(s) = &j.session else { return Ok(()) };
    if s.sessions == 0 || s.sessions > MAX_THREADS {
        return Err(format!("--sessions {}: use 1 to {MAX_THREADS} sessions", s.sessions).into());
    }
    if j.rate.is_some() {
        return Err(
            "--rate does not apply to session mode: sessions are a closed loop; slow them with --think"
                .into(),
        );
    }
    if j.threads != s.sessions {
        return Err(format!(
            "--threads does not apply to session mode: each session is a thread; use --sessions (here {})",
            s.sessions
        ).into());
    }
    if j.bs.len() != 1 || j.bs[0].size != s.page {
        return Err("--bs: session mode reads pages of one size; give one size, e.g. 8k".into());
    }
    Ok(())
}

/// Reducible data is written in whole dedupe units.
fn check_units(j: &JobSpec) -> Result<(), SpecError> {
    let DataKind::Reducible(r) = &j.data else {
        return Ok(());
    };
    if j.engine == EngineKind::Sim {
        return Ok(());
    }
    let u = r.unit;
    match j.bs.iter().map(|b| b.size).chain([j.align]).find(|s| s % u != 0) {
        Some(s) => Err(format!(
            "--data: reducible data is written in whole dedupe units of {}, and {} (--bs or --align) is not a multiple of it; use blocks that are multiples of {}, or a smaller unit (e.g. unit:4k with sizes in whole 4 KiB)",
            format_size(u),
            format_size(s),
            format_size(u)
        ).into()),
        None => Ok(()),
    }
}

/// A verifying run checks whole 4 KiB blocks.
fn check_verify(j: &JobSpec) -> Result<(), SpecError> {
    if j.verify.is_none() {
        return Ok(());
    }
    if let Some(b) = j.bs.iter().find(|b| !b.size.is_multiple_of(VERIFY_UNIT)) {
        return Err(format!(
            "--verify: --bs {}: verification checks 4 KiB blocks; use block sizes that are multiples of 4k",
            b.size
        ).into());
    }
    if !j.align.is_multiple_of(VERIFY_UNIT) {
        return Err(
            "--verify: --align and --offset must be multiples of 4k: verification checks 4 KiB blocks"
                .into(),
        );
    }
    Ok(())
}
