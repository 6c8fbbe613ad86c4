//! I/O errors that say what failed: the operation, the target, the offset and length, the OS error.

use std::fmt;

/// An I/O error with everything a user needs to find its cause, printed as
/// `pwrite at offset 1048576 len 8192 on /dev/loop3: Input/output error (os error 5)`.
#[derive(Debug)]
pub struct IoError {
    /// The operation, e.g. "pread", "pwrite", "fdatasync", "open".
    pub op: &'static str,
    pub target: String,
    /// Offset and length, where the operation has them.
    pub span: Option<(u64, u64)>,
    pub source: std::io::Error,
}

impl IoError {
    /// An error of `op` on `target` at `offset`/`len`.
    pub fn at(
        op: &'static str,
        target: &str,
        offset: u64,
        len: u64,
        source: std::io::Error,
    ) -> Self {
        IoError {
            op,
            target: target.to_string(),
            span: Some((offset, len)),
            source,
        }
    }
    /// An error of `op` on `target` with no offset (open, fsync, ...).
    pub fn on(op: &'static str, target: &str, source: std::io::Error) -> Self {
        IoError {
            op,
            target: target.to_string(),
            span: None,
            source,
        }
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.span {
            Some((off, len)) => write!(
                f,
                "{} at offset {} len {} on {}: {}",
                self.op, off, len, self.target, self.source
            ),
            None => write!(f, "{} on {}: {}", self.op, self.target, self.source),
        }
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_op_target_offset_len_and_os_error() {
        let e = IoError::at(
            "pwrite",
            "/dev/loop3",
            1_048_576,
            8192,
            std::io::Error::from_raw_os_error(libc::EIO),
        );
        assert_eq!(
            e.to_string(),
            "pwrite at offset 1048576 len 8192 on /dev/loop3: Input/output error (os error 5)"
        );
    }
}
