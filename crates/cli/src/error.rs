//! The CLI's one error: why a command cannot start or go on, in the words the user reads.
//! Each command decides the status of its own (crate::exit).

use std::fmt;

/// Why a command cannot start: a library's refusal (its own typed error, kept whole) or a
/// check of the CLI's own. Its Display is the message as printed (after `dbio CMD: ` where
/// the command adds it); the status is the caller's (2 before anything ran, 1 for a result
/// that could not be written).
#[derive(Debug)]
pub struct CliError(Box<dyn std::error::Error + Send + Sync>);

impl CliError {
    /// A check of the CLI's own: the message names the flag or file, the value and what to do.
    pub fn msg(m: impl Into<String>) -> CliError {
        CliError(m.into().into())
    }
}

/// Any library's error, as it says itself.
impl<E: std::error::Error + Send + Sync + 'static> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(Box::new(e))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
