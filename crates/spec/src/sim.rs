//! The `--engine sim` flags: the modelled device (`--sim`), what a simulated run refuses,
//! and its default length.

use crate::error::SpecError;
use crate::raw::RawJob;
use dbio_model::{EngineKind, SimDevice, StopAfter, SyncMode};

/// I/Os a simulated run measures when the command line gives no --duration, --ops or
/// --bytes: enough for stable percentiles on any preset, and a sweep takes well under a second.
pub const DEFAULT_OPS: u64 = 200_000;

/// The simulated device of the run (None for real engines), or why the flags do not fit.
pub fn check(a: &RawJob, engine: EngineKind) -> Result<Option<SimDevice>, SpecError> {
    if engine != EngineKind::Sim {
        return match &a.sim {
            Some(v) => Err(format!(
                "--sim {v}: describes the simulated device; add --engine sim, or leave --sim out"
            )
            .into()),
            None => Ok(None),
        };
    }
    if let Some(t) = a.targets.first() {
        return Err(format!(
            "--target {t}: --engine sim models a device and touches no file; leave --target out"
        )
        .into());
    }
    if a.sync.is_some() {
        return Err("--sync: the simulated device has no cache to flush; leave --sync out with --engine sim".into());
    }
    if a.buffered {
        return Err("--buffered: the simulated device has no page cache; leave --buffered out with --engine sim".into());
    }
    match &a.sim {
        Some(v) => SimDevice::parse(v)
            .map(Some)
            .map_err(|e| format!("--sim {v}: {e}").into()),
        None => Ok(Some(SimDevice::default())),
    }
}

/// The sync mode of the run: none for a simulated one, which models no volatile cache (a
/// profile's `sync` is dropped; the flag is refused by [`check`]).
pub fn sync(engine: EngineKind, merged: SyncMode) -> SyncMode {
    if engine == EngineKind::Sim {
        SyncMode::None
    } else {
        merged
    }
}

/// The run's length: a simulated run takes --duration, --ops or --bytes only from the command
/// line, and otherwise measures [`DEFAULT_OPS`] I/Os.
pub fn stop(a: &RawJob, engine: EngineKind, merged: StopAfter) -> StopAfter {
    if engine == EngineKind::Sim && a.duration.is_none() && a.ops.is_none() && a.bytes.is_none() {
        StopAfter::Ops(DEFAULT_OPS)
    } else {
        merged
    }
}
