//! The engine chosen at run time: [`AnyEngine`] and [`open_engine`], which builds it. Apart
//! from the trait's file, so that the trait does not depend on the engines that implement it.

use crate::engine::EngineSetup;
use crate::{sync::SyncEngine, uring::UringEngine};
use dbio_model::EngineKind;

/// One of the engines, chosen at run time; workers match on it once and then run monomorphised code.
pub enum AnyEngine {
    Uring(Box<UringEngine>),
    /// psync or null.
    Sync(SyncEngine),
}

/// Builds the engine of `kind`. For `Uring`, an io_uring that cannot be set up is an error
/// the caller may answer by falling back to psync.
pub fn open_engine(kind: EngineKind, setup: &EngineSetup) -> Result<AnyEngine, std::io::Error> {
    Ok(match kind {
        EngineKind::Uring => AnyEngine::Uring(Box::new(UringEngine::new(setup)?)),
        EngineKind::Psync => AnyEngine::Sync(SyncEngine::psync(setup)),
        EngineKind::Null => AnyEngine::Sync(SyncEngine::null(setup)),
        EngineKind::Sim => {
            return Err(std::io::Error::other(
                "the sim engine does no I/O; the runner simulates it in virtual time",
            ))
        }
    })
}
