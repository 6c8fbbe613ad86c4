//! What can stop a report from being written.

/// Why a report, or a file written from a result, cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// The job has a feature fio cannot run the same way; the text names the flag and why.
    #[error("{0}")]
    NotForFio(&'static str),
    /// A second's histogram could not be read back from the run's spill file.
    #[error("{0}")]
    Spill(dbio_model::spill::SpillError),
}
