//! Why a target could not be opened, in one line that names the path and what to do.

use dbio_model::units::format_size;
use thiserror::Error;

/// Why a target could not be opened; its Display is one line naming the path,
/// what was wrong and what to do.
#[derive(Debug, Error)]
pub enum TargetError {
    /// The directory of a file to create does not exist.
    #[error("cannot create {path}: directory {dir} does not exist; create it or choose another --target")]
    NoParent {
        /// The target path as given.
        path: String,
        /// The missing directory.
        dir: String,
    },
    /// A path under /dev that does not exist: a device misnamed, never a file to create.
    #[error("{path} does not exist, and dbio does not create files under /dev: a device name that is not there is a mistake (lsblk lists the block devices); give an existing device, or a file elsewhere")]
    NoDevice {
        /// The target path as given.
        path: String,
    },
    /// Not enough free space for the file to create or grow.
    #[error(
        "no space for {path}: {} needed, {} free on its file system; use a smaller --size or another place",
        format_size(*needed),
        format_size(*free)
    )]
    NoSpace {
        /// The target path as given.
        path: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes free.
        free: u64,
    },
    /// A write run on an existing file dbio did not create, without `--destroy-data`.
    #[error("refusing to write to {path}: it exists and dbio did not create it; pass --destroy-data to overwrite its contents, or give a new path")]
    ForeignFile {
        /// The target path as given.
        path: String,
    },
    /// A write run on a block device without `--destroy-data`.
    #[error("refusing to write to block device {path} (found: {found}); pass --destroy-data to overwrite it")]
    BlockDevice {
        /// The target path as given.
        path: String,
        /// What is on the device, in plain words.
        found: String,
    },
    /// The file system refused O_DIRECT.
    #[error(
        "{path}: O_DIRECT is not supported on this file system{}; pass --buffered",
        fs_hint(fs)
    )]
    NoDirect {
        /// The target path as given.
        path: String,
        /// The file system, when known.
        fs: Option<String>,
    },
    /// `--size` differs from the size of an existing file dbio did not create.
    #[error(
        "{path} exists with size {} and dbio did not create it, so it will not resize it to {}; drop --size or choose another path",
        format_size(*size),
        format_size(*wanted)
    )]
    ForeignResize {
        /// The target path as given.
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The `--size` asked for.
        wanted: u64,
    },
    /// `--size` is larger than the block device.
    #[error(
        "block device {path} has {}, less than --size {}; drop --size or use a smaller one",
        format_size(*size),
        format_size(*wanted)
    )]
    DeviceTooSmall {
        /// The target path as given.
        path: String,
        /// Its size in bytes.
        size: u64,
        /// The `--size` asked for.
        wanted: u64,
    },
    /// The path is a directory.
    #[error("{path} is a directory; give a file or block device path")]
    IsDirectory {
        /// The target path as given.
        path: String,
    },
    /// The path is a character device, FIFO or socket.
    #[error(
        "{path} is a {what}, not a regular file or block device; give a file or block device path"
    )]
    Unsupported {
        /// The target path as given.
        path: String,
        /// What it is instead.
        what: &'static str,
    },
    /// The block device is mounted or held exclusively by someone else (EBUSY on O_EXCL).
    #[error(
        "cannot open {path}: device busy (mounted or in use); unmount it or choose another device"
    )]
    Busy {
        /// The target path as given.
        path: String,
    },
    /// Another process (another dbio run) holds the write lock of the file.
    #[error(
        "cannot write {path}: another process is writing it ({holder}); wait for it to end, or choose another --target"
    )]
    Locked {
        /// The target path as given.
        path: String,
        /// Who holds the lock: pids and command names, when they can be found.
        holder: String,
    },
    /// Any other OS error, e.g. `cannot open /x: Permission denied (os error 13)`.
    #[error("cannot {action} {path}: {source}")]
    Os {
        /// What dbio was doing, e.g. "open".
        action: &'static str,
        /// The target path as given.
        path: String,
        /// The OS error.
        source: std::io::Error,
    },
}

fn fs_hint(fs: &Option<String>) -> String {
    match fs {
        Some(name) => format!(" ({name})"),
        None => String::new(),
    }
}

impl TargetError {
    /// Shorthand for [`TargetError::Os`].
    pub(crate) fn os(action: &'static str, path: &str, source: std::io::Error) -> Self {
        TargetError::Os {
            action,
            path: path.to_string(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_say_what_to_do() {
        let e = TargetError::NoSpace {
            path: "/mnt/x/dbio-testfile".into(),
            needed: 1 << 30,
            free: 200 << 20,
        };
        assert_eq!(
            e.to_string(),
            "no space for /mnt/x/dbio-testfile: 1 GiB needed, 200 MiB free on its file system; \
             use a smaller --size or another place"
        );
        let e = TargetError::NoDirect {
            path: "/data/file".into(),
            fs: Some("tmpfs".into()),
        };
        assert_eq!(
            e.to_string(),
            "/data/file: O_DIRECT is not supported on this file system (tmpfs); pass --buffered"
        );
        let e = TargetError::ForeignResize {
            path: "/data/file".into(),
            size: 100 << 20,
            wanted: 1 << 30,
        };
        assert!(e.to_string().starts_with(
            "/data/file exists with size 100 MiB and dbio did not create it, so it will not resize it to 1 GiB"
        ));
        let e = TargetError::os(
            "open",
            "/x",
            std::io::Error::from_raw_os_error(libc::EACCES),
        );
        assert_eq!(
            e.to_string(),
            "cannot open /x: Permission denied (os error 13)"
        );
    }
}
