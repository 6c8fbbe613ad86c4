//! Whether a target's data lives in memory rather than on storage: a file on tmpfs or ramfs,
//! a zram device, a RAM disk (brd), a loop device whose backing file is in memory, and a file
//! system, loop or device-mapper device stacked on those. Found from statfs and sysfs; what
//! cannot be read counts as not in memory (never a panic).

use crate::device::sys::{fs_name, parse_dev, sysfs_block_dir};
use crate::device::{OpenTarget, TargetKind};
use dbio_model::TargetMedium;
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Stacks (a loop device over a file on a loop device …) are followed this deep at most.
const MAX_DEPTH: u32 = 4;

/// The major number of RAM disks (brd: /dev/ram0 …), fixed by the kernel.
const RAMDISK_MAJOR: u32 = 1;

/// A block device found in memory: its name, what keeps it there, and the evidence.
struct Found {
    name: String,
    via: String,
    why: String,
}

/// The memory `t` lives in, if it does.
pub fn memory_medium(t: &OpenTarget) -> Option<TargetMedium> {
    let (via, reason) = match t.kind {
        TargetKind::File => on_file(&t.file, &t.path, 0)?,
        TargetKind::Block => {
            let d = of_device(t.file.metadata().ok()?.rdev(), 0)?;
            (d.via, d.why)
        }
    };
    Some(TargetMedium {
        kind: "memory".into(),
        via,
        reason,
    })
}

/// A file open as `f` (shown as `shown`): on tmpfs or ramfs, or on a block device in memory.
fn on_file(f: &File, shown: &str, depth: u32) -> Option<(String, String)> {
    if let Some(fs @ ("tmpfs" | "ramfs")) = fs_name(f) {
        return Some((fs.into(), format!("{shown} is on {fs} (statfs)")));
    }
    let d = of_device(f.metadata().ok()?.dev(), depth)?;
    let why = format!("{shown} is on a file system on {}: {}", d.name, d.why);
    Some((d.via, why))
}

/// The block device numbered `dev`, if it is in memory.
fn of_device(dev: u64, depth: u32) -> Option<Found> {
    of_block_dir(sysfs_block_dir(dev)?, depth)
}

/// The block device whose sysfs directory is `dir` (a partition counts as its disk).
fn of_block_dir(dir: PathBuf, depth: u32) -> Option<Found> {
    if depth > MAX_DEPTH {
        return None;
    }
    let disk = match dir.parent() {
        Some(parent) if dir.join("partition").exists() => parent.to_path_buf(),
        _ => dir,
    };
    let name = disk.file_name()?.to_string_lossy().into_owned();
    let found = |via: &str, why: String| {
        Some(Found {
            name: name.clone(),
            via: via.into(),
            why,
        })
    };
    if name.starts_with("zram") {
        return found("zram", format!("{name} is a zram device (compressed RAM)"));
    }
    let major = std::fs::read_to_string(disk.join("dev"))
        .ok()
        .and_then(|s| parse_dev(&s))
        .map(|(major, _)| major);
    if major == Some(RAMDISK_MAJOR) {
        return found("brd", format!("{name} is a RAM disk (brd, major 1)"));
    }
    if let Ok(backing) = std::fs::read_to_string(disk.join("loop/backing_file")) {
        let (via, why) = loop_backing(&name, backing.trim_end_matches('\n'), depth)?;
        return found(&via, why);
    }
    // Device mapper and md: in memory when every device under it is.
    let mut under: Vec<PathBuf> = std::fs::read_dir(disk.join("slaves"))
        .ok()?
        .filter_map(|e| std::fs::canonicalize(e.ok()?.path()).ok())
        .collect();
    under.sort();
    let mut all = Vec::new();
    for d in under {
        all.push(of_block_dir(d, depth + 1)?);
    }
    let first = all.first()?;
    let names: Vec<&str> = all.iter().map(|f| f.name.as_str()).collect();
    let why = format!("{name} sits only on {}: {}", names.join(", "), first.why);
    found(&first.via.clone(), why)
}

/// Loop device `name` over `backing` (as sysfs shows it): in memory when the backing file is
/// on tmpfs or ramfs or on a block device in memory, or the backing device is in memory.
fn loop_backing(name: &str, backing: &str, depth: u32) -> Option<(String, String)> {
    // A backing file deleted since shows as "PATH (deleted)": its directory tells instead.
    let path = Path::new(backing.strip_suffix(" (deleted)").unwrap_or(backing));
    if let Ok(md) = std::fs::metadata(path) {
        if md.file_type().is_block_device() {
            let d = of_device(md.rdev(), depth + 1)?;
            return Some((d.via, format!("{name} is over {}: {}", d.name, d.why)));
        }
    }
    // O_PATH: enough for fstatfs and fstat, opens nothing for reading and never blocks.
    let f = path.ancestors().take(2).find_map(|p| {
        OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH)
            .open(p)
            .ok()
    })?;
    on_file(&f, &format!("{name}'s backing file {backing}"), depth + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{open_target, TargetOptions};

    /// The statfs type of `dir` as coreutils' `stat -f` names it.
    fn fs_type(dir: &Path) -> Option<String> {
        let out = std::process::Command::new("stat")
            .args(["-f", "-c", "%T"])
            .arg(dir)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    #[test]
    fn a_file_on_tmpfs_is_memory_and_one_beside_the_build_is_not_when_on_a_disk() {
        let shm = Path::new("/dev/shm");
        if fs_type(shm).as_deref() == Some("tmpfs") {
            let dir = tempfile::tempdir_in(shm).unwrap();
            let p = dir.path().join("f");
            let opts = TargetOptions {
                size: Some(65536),
                ..Default::default()
            };
            let t = open_target(p.to_str().unwrap(), &opts).unwrap();
            let m = memory_medium(&t).expect("a file on tmpfs is in memory");
            assert_eq!((m.kind.as_str(), m.via.as_str()), ("memory", "tmpfs"));
            assert_eq!(m.reason, format!("{} is on tmpfs (statfs)", t.path));
        } else {
            eprintln!("note: /dev/shm is not tmpfs here; the tmpfs case is not checked");
        }
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let kind = fs_type(dir.path()).unwrap_or_default();
        if ["tmpfs", "ramfs"].contains(&kind.as_str()) {
            eprintln!("note: the source tree is on {kind}; the disk case is not checked");
            return;
        }
        let p = dir.path().join("f");
        let opts = TargetOptions {
            size: Some(65536),
            ..Default::default()
        };
        let t = open_target(p.to_str().unwrap(), &opts).unwrap();
        let dev = std::fs::metadata(dir.path()).unwrap().dev();
        let name = sysfs_block_dir(dev).and_then(|d| Some(d.file_name()?.to_os_string()));
        let on_memory_device = name.is_some_and(|n| {
            let n = n.to_string_lossy();
            n.starts_with("zram") || n.starts_with("ram") || n.starts_with("loop")
        });
        if !on_memory_device {
            assert_eq!(memory_medium(&t), None, "{kind} on {dev:#x}");
        }
    }

    #[test]
    fn a_device_that_is_not_there_is_not_memory() {
        assert!(of_device(0, 0).is_none());
        assert!(of_block_dir(PathBuf::from("/nonexistent/sys/block/x"), 0).is_none());
        assert!(loop_backing("loop9", "/nonexistent/x (deleted)", MAX_DEPTH + 1).is_none());
    }
}
