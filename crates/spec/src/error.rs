//! The one error of this crate: why what a user wrote makes no job. Its text is the message
//! the command line prints (exit status 2), naming the flag or key, the value and what to try.

/// Why the words given make no valid job.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A flag's or a profile key's value, or values that do not fit together in one job.
    #[error("{0}")]
    Invalid(String),
    /// A profile that is unknown, cannot be read or is not valid TOML of a profile.
    #[error("{0}")]
    Profile(String),
    /// Another tool's words (SQLIO, DiskSpd, fio) that cannot be read or translated.
    #[error("{0}")]
    Translation(String),
}

impl SpecError {
    /// The message, as the command line prints it.
    pub fn message(&self) -> &str {
        match self {
            SpecError::Invalid(m) | SpecError::Profile(m) | SpecError::Translation(m) => m,
        }
    }

    /// The same kind of error with its message changed by `f` (e.g. prefixed with the
    /// stream or the profile it is about).
    pub fn map(self, f: impl FnOnce(String) -> String) -> SpecError {
        match self {
            SpecError::Invalid(m) => SpecError::Invalid(f(m)),
            SpecError::Profile(m) => SpecError::Profile(f(m)),
            SpecError::Translation(m) => SpecError::Translation(f(m)),
        }
    }
}

/// A message built by this crate's checks: a value that makes no job.
impl From<String> for SpecError {
    fn from(m: String) -> SpecError {
        SpecError::Invalid(m)
    }
}

/// A fixed message of this crate's checks.
impl From<&str> for SpecError {
    fn from(m: &str) -> SpecError {
        SpecError::Invalid(m.to_string())
    }
}

/// The message, for whatever prints text.
impl AsRef<str> for SpecError {
    fn as_ref(&self) -> &str {
        self.message()
    }
}
