//! The first phase of a run: open and check the targets of every stream, prefill them, and
//! pick each stream's engine.

use crate::data::run_nonce;
use crate::error::RunError;
use crate::event::Event;
use crate::warn;
use dbio_engine::device::{
    discard_created, mark_prefilled, open_target, prefill, OpenTarget, TargetKind, TargetOptions,
};
use dbio_engine::AnyEngine;
use dbio_engine::{open_engine, EngineSetup};
use dbio_model::*;
use fastrand::Rng;
use std::os::fd::AsRawFd;
use std::sync::atomic::AtomicBool;

/// The targets of one stream, open, checked, prefilled, with the engine it will use.
pub(crate) struct Prepared {
    pub targets: Vec<OpenTarget>,
    pub region: (u64, u64),
    pub prefilled: Vec<String>,
    pub engine: EngineKind,
    pub features: Vec<String>,
    pub qd: u32,
    /// Existing content sampled before the run (see `sample.rs`).
    pub sampled: Vec<ContentSample>,
    /// For each target, whether an earlier stream of the run has it too (one file shared
    /// by streams, as fio's jobs share one): it was prefilled and sampled there, once.
    pub shared: Vec<bool>,
}

/// First phase: opens and checks the targets of every stream (a refusal leaves no file it
/// created behind), prefills them, then picks each stream's engine.
pub(crate) fn prepare(
    specs: &[&JobSpec],
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Prepared>, RunError> {
    let mut opened: Vec<Vec<OpenTarget>> = Vec::new();
    let mut regions = Vec::new();
    let discard_all = |opened: Vec<Vec<OpenTarget>>| {
        opened.into_iter().flatten().for_each(discard_created);
    };
    for spec in specs {
        match open_targets(spec, warnings) {
            Ok(t) => opened.push(t),
            Err(e) => {
                discard_all(opened);
                return Err(e);
            }
        }
    }
    for (spec, targets) in specs.iter().zip(&opened) {
        match check_fit(spec, targets) {
            Ok(r) => regions.push(r),
            Err(e) => {
                discard_all(opened);
                return Err(e);
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = Vec::new();
    for ((spec, targets), region) in specs.iter().zip(opened).zip(regions) {
        let shared = crate::shared::earlier(&targets, &mut seen);
        let prefilled = prefill_targets(spec, &targets, &shared, stop, on_event)?;
        let mut sampled = crate::sample::check_targets(spec, &targets, warnings);
        sampled.retain(|c| crate::shared::first_use(&targets, &shared, &c.path));
        drop_caches(spec, &targets)?;
        let (engine, features) = pick_engine(spec, &targets, warnings);
        let qd = if engine == EngineKind::Psync && spec.qd > 1 {
            warnings.push(warn::psync_qd(spec.qd));
            1
        } else {
            spec.qd
        };
        out.push(Prepared {
            targets,
            region,
            prefilled,
            engine,
            features,
            qd,
            sampled,
            shared,
        });
    }
    Ok(out)
}

/// The engine a stream runs on: io_uring is probed once here, so an unavailable io_uring
/// becomes one clear fallback to psync.
pub(crate) fn pick_engine(
    spec: &JobSpec,
    targets: &[OpenTarget],
    warnings: &mut Vec<Warning>,
) -> (EngineKind, Vec<String>) {
    if spec.engine != EngineKind::Uring {
        return (spec.engine, Vec::new());
    }
    let fds: Vec<i32> = targets.iter().map(|t| t.file.as_raw_fd()).collect();
    let probe = EngineSetup {
        fds: &fds,
        slots: 1,
        slot_len: 4096,
        hipri: spec.hipri,
        sqpoll: spec.sqpoll,
    };
    match open_engine(EngineKind::Uring, &probe) {
        Ok(AnyEngine::Uring(e)) => (EngineKind::Uring, dbio_engine::Engine::features(&*e)),
        Ok(_) => (EngineKind::Uring, Vec::new()),
        Err(e) => {
            warnings.push(warn::uring_unavailable(&e));
            (EngineKind::Psync, Vec::new())
        }
    }
}

/// Opens every target with the safety rules applied.
pub(crate) fn open_targets(
    spec: &JobSpec,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<OpenTarget>, RunError> {
    let opts = TargetOptions {
        write: spec.rw.writes(),
        direct: spec.direct,
        dsync: spec.sync == SyncMode::Dsync,
        size: spec.file_size,
        destroy_data: spec.destroy_data,
    };
    let mut out = Vec::new();
    for path in &spec.targets {
        let t = match open_target(path, &opts) {
            Ok(t) => t,
            Err(e) => {
                out.into_iter().for_each(discard_created);
                return Err(RunError::Target(e.to_string()));
            }
        };
        if spec.rw.writes() && (t.kind == TargetKind::Block || !t.owned) {
            warnings.push(warn::destroying(&t));
        }
        out.push(t);
    }
    Ok(out)
}

/// Checks the job against the targets: block sizes and alignment against the logical block
/// size (with O_DIRECT), and the region against the smallest target. Returns the region.
pub(crate) fn check_fit(spec: &JobSpec, targets: &[OpenTarget]) -> Result<(u64, u64), RunError> {
    for t in targets {
        let lbs = dbio_engine::facts::logical_block_size(t);
        if spec.direct {
            if let Some(b) = spec.bs.iter().find(|b| b.size % lbs != 0) {
                return Err(RunError::Invalid(format!(
                    "--bs {}: not a multiple of the logical block size {lbs} of {}; use a multiple of {lbs}, or --buffered",
                    b.size, t.path
                )));
            }
            if !spec.align.is_multiple_of(lbs) || !spec.region.offset.is_multiple_of(lbs) {
                return Err(RunError::Invalid(format!(
                    "--align and --offset must be multiples of the logical block size {lbs} of {}",
                    t.path
                )));
            }
        }
    }
    let smallest = targets.iter().map(|t| t.size).min().unwrap_or(0);
    let start = spec.region.offset;
    if start >= smallest {
        return Err(RunError::Invalid(format!(
            "--offset {}: at or beyond the end of the target ({}); use a smaller --offset or a larger --size",
            units::format_size(start),
            units::format_size(smallest)
        )));
    }
    let end = match spec.region.range {
        Some(r) => start.saturating_add(r),
        None => smallest,
    };
    if end > smallest {
        return Err(RunError::Invalid(format!(
            "--offset {} --range {}: the region ends at {}, beyond the end of the target ({}); lower --offset or --range, or use a larger --size",
            units::format_size(start),
            units::format_size(end - start),
            units::format_size(end),
            units::format_size(smallest)
        )));
    }
    let (start, end) = match spec.region.split {
        Some(s) => s.of(start, end, spec.align),
        None => (start, end),
    };
    if end - start < spec.max_bs() {
        let split = spec.region.split.map_or(String::new(), |s| {
            format!(
                " (this host's part {} of {}, --split-region)",
                s.part, s.parts
            )
        });
        return Err(RunError::Invalid(format!(
            "the region{split} ({}) is smaller than the largest block size ({}); use a larger --size or --range, or a smaller --bs",
            units::format_size(end - start),
            units::format_size(spec.max_bs())
        )));
    }
    // Random I/O picks aligned offsets: one position would make every I/O the same block.
    if spec.rw.is_random() && (end - start - spec.max_bs()) / spec.align == 0 {
        return Err(RunError::Invalid(format!(
            "--align {}: the region ({}) holds only one aligned position for {} blocks, so every random I/O would hit the same offset; use a smaller --align (by default the smallest block size) or a larger --size or --range",
            units::format_size(spec.align),
            units::format_size(end - start),
            units::format_size(spec.max_bs())
        )));
    }
    Ok((start, end))
}

/// With `--invalidate`, drops the targets' pages from the page cache (after the prefill and
/// the sample of their content, which read them), so that the buffered run starts cold.
pub(crate) fn drop_caches(spec: &JobSpec, targets: &[OpenTarget]) -> Result<(), RunError> {
    if !spec.invalidate {
        return Ok(());
    }
    for t in targets {
        dbio_engine::sys::drop_cached(&t.file).map_err(|e| {
            RunError::Target(format!(
                "{}: could not drop its pages from the page cache (--invalidate): {e}",
                t.path
            ))
        })?;
    }
    Ok(())
}

/// Prefills the files that need it, but those `shared` with an earlier stream of the run
/// (prefilled there); returns what each target's content is.
pub(crate) fn prefill_targets(
    spec: &JobSpec,
    targets: &[OpenTarget],
    shared: &[bool],
    stop: &AtomicBool,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<String>, RunError> {
    let mut out = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if shared.get(i) == Some(&true) {
            out.push("as prepared for an earlier stream of the run".to_string());
            continue;
        }
        if !t.needs_prefill {
            out.push(
                if t.owned {
                    "prefilled by dbio earlier"
                } else {
                    "existing content"
                }
                .to_string(),
            );
            continue;
        }
        // New content in every run: two files prefilled by dbio never share a block.
        let mut rng =
            Rng::with_seed(run_nonce() ^ (i as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407));
        let mut fill = crate::datagen::prefill_data(&spec.data, &mut rng);
        let mut progress = |done, total| {
            on_event(Event::Prefill {
                target: &t.path,
                done,
                total,
            })
        };
        let finished = prefill(t, &mut fill, &mut progress, stop)
            .map_err(|e| RunError::Target(format!("prefill failed: {e}")))?;
        if !finished {
            return Err(RunError::Interrupted);
        }
        if let Err(e) = mark_prefilled(t) {
            on_event(Event::Notice(format!(
                "could not record that {} is prefilled: {e}",
                t.path
            )));
        }
        out.push(format!("prefilled by dbio with {} data", spec.data.name()));
    }
    Ok(out)
}
