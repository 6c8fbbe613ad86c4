//! The runner's errors: why a run could not start or was abandoned before measuring.

/// Why a run could not start or had to be abandoned before measuring.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A target could not be used; the message says why and what to do.
    #[error("{0}")]
    Target(String),
    /// The job does not fit the targets (block size, region).
    #[error("{0}")]
    Invalid(String),
    /// Stopped (Ctrl-C) before measuring began.
    #[error("interrupted before measuring began; nothing was measured")]
    Interrupted,
}
