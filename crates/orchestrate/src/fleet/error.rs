//! Why a fleet run could not start or gave no result; Display names the flag or the hosts and
//! says what to try.

/// A fleet run's failure before or after its hosts ran.
#[derive(Debug, thiserror::Error)]
pub enum FleetError {
    /// `--target-on HOST=…` names a host that is not in the fleet.
    #[error("--target-on {host}=…: {host} is not one of the hosts ({known})")]
    UnknownHost { host: String, known: String },
    /// Session mode would put a host's redo log beside its device.
    #[error("--target-on {host}={target}: session mode puts its redo log beside the data target, and a device has no folder beside it; give the host's log its own target: --target-on {host}=log=PATH")]
    LogBesideDevice { host: String, target: String },
    /// A host failed its check: each such host and why ("HOST: WHY; …").
    #[error("no host was started, because {0}")]
    NotStarted(String),
    /// Every host ran and none gave a result: each host and why ("HOST: WHY; …").
    #[error("no host gave a result: {0}")]
    NoResult(String),
    /// A host's result could not be kept in `--host-json`'s folder.
    #[error("--host-json: {path}: {source}")]
    HostJson {
        path: String,
        source: std::io::Error,
    },
    /// The hosts' results could not be merged.
    #[error("{0}")]
    Merge(dbio_analyze::error::AnalyzeError),
}
