//! The files and block devices behind the paths given: files as they are, directory trees
//! walked without following symlinks (a symlink out of the tree is noted), block devices
//! read-only. What cannot be read is reported with the OS error, and the rest goes on.

use dbio_model::reduce::SkippedPath;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// One file or device to read.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: PathBuf,
    pub device: bool,
    /// Size in bytes when listed.
    pub size: u64,
    /// st_blocks × 512 for files; the size for devices.
    pub allocated: u64,
}

/// Every source under `paths`, the paths that could not be used, and notes.
#[derive(Debug, Default)]
pub struct Listing {
    pub sources: Vec<Source>,
    pub skipped: Vec<SkippedPath>,
    pub notes: Vec<String>,
    /// (device, inode) of every file listed: a hard link or a path given twice is read once.
    seen: std::collections::HashSet<(u64, u64)>,
}

/// Lists the sources of `paths` in the order given (a tree in name order).
pub fn list(paths: &[String]) -> Listing {
    let mut l = Listing::default();
    for p in paths {
        let path = Path::new(p);
        match std::fs::metadata(path) {
            Ok(md) if md.is_dir() => {
                let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                let before = (l.sources.len(), l.skipped.len(), l.notes.len());
                walk(path, &root, &mut l);
                if before == (l.sources.len(), l.skipped.len(), l.notes.len()) {
                    l.notes.push(format!(
                        "{}: a directory with no file or block device in it; nothing to read",
                        path.display()
                    ));
                }
            }
            // A path named on the command line that cannot be read is skipped (exit 1); inside
            // a tree, pipes and sockets are only noted.
            Ok(md) if !md.is_file() && !md.file_type().is_block_device() => skip(
                &mut l,
                path,
                &io::Error::other("not a regular file or block device (a pipe, socket or character device); not read"),
            ),
            Ok(md) => add(path, &md, &mut l),
            Err(e) => skip(&mut l, path, &e),
        }
    }
    l
}

fn skip(l: &mut Listing, path: &Path, e: &io::Error) {
    l.skipped.push(SkippedPath {
        path: path.display().to_string(),
        error: e.to_string(),
    });
}

fn add(path: &Path, md: &std::fs::Metadata, l: &mut Listing) {
    let ft = md.file_type();
    if !l.seen.insert((md.dev(), md.ino())) {
        l.notes.push(format!(
            "{}: the same file as one listed before (a hard link or a repeated path); read once",
            path.display()
        ));
        return;
    }
    if ft.is_file() && md.len() == 0 {
        // Empty, or a /proc or /sys file that gives no size: there is nothing to estimate.
        l.notes.push(format!(
            "{}: size 0 (empty, or a /proc or /sys file that states no size); nothing to read",
            path.display()
        ));
    } else if ft.is_file() {
        l.sources.push(Source {
            path: path.to_path_buf(),
            device: false,
            size: md.len(),
            allocated: md.blocks() * 512,
        });
    } else if ft.is_block_device() {
        match File::open(path).and_then(|mut f| f.seek(SeekFrom::End(0))) {
            Ok(size) => l.sources.push(Source {
                path: path.to_path_buf(),
                device: true,
                size,
                allocated: size,
            }),
            Err(e) => skip(l, path, &e),
        }
    } else {
        l.notes.push(format!(
            "{}: not a regular file or block device; not read",
            path.display()
        ));
    }
}

fn walk(dir: &Path, root: &Path, l: &mut Listing) {
    let mut entries: Vec<_> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
        Err(e) => return skip(l, dir, &e),
    };
    entries.sort();
    for path in entries {
        let md = match std::fs::symlink_metadata(&path) {
            Ok(md) => md,
            Err(e) => {
                skip(l, &path, &e);
                continue;
            }
        };
        if md.file_type().is_symlink() {
            let inside = std::fs::canonicalize(&path).is_ok_and(|t| t.starts_with(root));
            if !inside {
                l.notes.push(format!(
                    "{}: a symlink out of the tree; not followed",
                    path.display()
                ));
            }
        } else if md.is_dir() {
            walk(&path, root, l);
        } else {
            add(&path, &md, l);
        }
    }
}

/// Opens `path` read-only, with O_DIRECT unless `buffered`; a file system that refuses
/// O_DIRECT gets a buffered open (the bool says which one it got). A block device is opened
/// exclusively (O_EXCL): one mounted or held by another program is busy, and said so. O_NOATIME
/// where the kernel allows it: reading a database's files leaves their access times alone.
pub fn open(path: &Path, buffered: bool, device: bool) -> io::Result<(File, bool)> {
    let excl = if device { libc::O_EXCL } else { 0 };
    let opened = |flags: i32| {
        dbio_engine::device::open_noatime(path, false, flags | excl).map_err(busy_device)
    };
    if !buffered {
        match opened(libc::O_DIRECT) {
            Ok(f) => return Ok((f, true)),
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {}
            Err(e) => return Err(e),
        }
    }
    Ok((opened(0)?, false))
}

/// EBUSY from an exclusive open, said as what it means for a device.
fn busy_device(e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::EBUSY) => io::Error::new(
            e.kind(),
            format!("{e}: the device is mounted or held by another program; estimate its files through the file system, or unmount it"),
        ),
        _ => e,
    }
}

/// Size and modification time, to tell a file that changed while it was read.
pub fn stamp(path: &Path) -> Option<(u64, i64, i64)> {
    std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.mtime(), m.mtime_nsec()))
}
