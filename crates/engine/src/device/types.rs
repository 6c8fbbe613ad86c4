//! What a target is and how a run means to use it: the kinds, the options, the opened target,
//! and the sizes files are made in.

/// Size of a test file dbio creates when the user gave no `--size`.
pub const DEFAULT_FILE_SIZE: u64 = 1 << 30;

/// Sizes of created files and of prefill writes are rounded up to this (O_DIRECT alignment).
pub const SIZE_ALIGN: u64 = 4096;

/// What a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// A regular file.
    File,
    /// A block device.
    Block,
}

/// How the run means to use a target.
#[derive(Debug, Clone, Default)]
pub struct TargetOptions {
    /// The run will write.
    pub write: bool,
    /// Open with O_DIRECT.
    pub direct: bool,
    /// Open with O_DSYNC.
    pub dsync: bool,
    /// `--size` as given by the user.
    pub size: Option<u64>,
    /// `--destroy-data`: the user allows overwriting a device or a file dbio did not create.
    pub destroy_data: bool,
}

/// An opened target, ready for a run (after [`prefill`](super::prefill()) when `needs_prefill`).
#[derive(Debug)]
pub struct OpenTarget {
    /// The path as the user gave it.
    pub path: String,
    /// Opened read-write when the run writes or the target needs a prefill, else read-only.
    pub file: std::fs::File,
    /// File or block device.
    pub kind: TargetKind,
    /// Bytes the run may use: the file size, or the device size (or `--size` when smaller).
    pub size: u64,
    /// dbio created this file, now or in an earlier run.
    pub owned: bool,
    /// dbio created this file just now, in this open.
    pub created: bool,
    /// The content is not yet written by dbio; call [`prefill`](super::prefill()) then [`mark_prefilled`](super::mark_prefilled()).
    pub needs_prefill: bool,
    /// Block devices: what was found on it (mounts, holders, signatures), in plain words.
    pub found: Option<String>,
}

/// Rounds `n` up to a multiple of [`SIZE_ALIGN`] (saturating).
pub(crate) fn round_up(n: u64) -> u64 {
    n.checked_next_multiple_of(SIZE_ALIGN)
        .unwrap_or(u64::MAX - u64::MAX % SIZE_ALIGN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round_up(0), 0);
        assert_eq!(round_up(1), 4096);
        assert_eq!(round_up(4096), 4096);
        assert_eq!(round_up(4097), 8192);
        assert_eq!(round_up(u64::MAX), u64::MAX - 4095);
    }
}
