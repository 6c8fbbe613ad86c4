//! A block device to capture, named as the user names it: a device node, or a folder or
//! file whose device is wanted (`--path`).

use crate::format::TraceDevice;
use crate::TraceError;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::Path;

/// A block device: its name in /dev, its numbers and its size.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    pub name: String,
    pub major: u32,
    pub minor: u32,
    pub size_bytes: u64,
    /// Where the device named lies on this disk, in sectors: a partition's start (0 for a
    /// whole disk). A file system's extents on a partition are offset by it.
    pub start_sector: u64,
}

impl Device {
    /// The block device node at `path`; anything else is refused by name.
    pub fn of_node(path: &Path) -> Result<Device, TraceError> {
        let meta = std::fs::metadata(path).map_err(|e| TraceError::at(path, e))?;
        if !meta.file_type().is_block_device() {
            return Err(TraceError::NotBlock(path.display().to_string()));
        }
        Device::of_numbers(split(meta.rdev()))
    }

    /// The block device holding the file or folder at `path`.
    pub fn holding(path: &Path) -> Result<Device, TraceError> {
        let meta = std::fs::metadata(path).map_err(|e| TraceError::at(path, e))?;
        Device::of_numbers(split(meta.dev())).map_err(|_| {
            TraceError::NotBlock(format!(
                "{} (its file system is not on a block device)",
                path.display()
            ))
        })
    }

    /// The device `major:minor` as sysfs describes it; a partition is its whole disk, since
    /// the block layer's requests carry the disk's numbers and sectors.
    fn of_numbers((major, minor): (u32, u32)) -> Result<Device, TraceError> {
        let sys = Path::new("/sys/dev/block").join(format!("{major}:{minor}"));
        let mut link = std::fs::canonicalize(&sys).map_err(|e| TraceError::at(&sys, e))?;
        let (mut major, mut minor, mut start_sector) = (major, minor, 0);
        if link.join("partition").exists() {
            let start = std::fs::read_to_string(link.join("start")).unwrap_or_default();
            start_sector = start.trim().parse().unwrap_or(0);
            link.pop();
            let dev = std::fs::read_to_string(link.join("dev")).unwrap_or_default();
            let numbers = dev.trim().split_once(':');
            if let Some((ma, mi)) =
                numbers.and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
            {
                (major, minor) = (ma, mi);
            }
        }
        let name = link
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let size = std::fs::read_to_string(link.join("size"))
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(0);
        Ok(Device {
            name,
            major,
            minor,
            size_bytes: size * 512,
            start_sector,
        })
    }
}

impl From<&Device> for TraceDevice {
    fn from(d: &Device) -> TraceDevice {
        TraceDevice {
            name: d.name.clone(),
            dev: format!("{}:{}", d.major, d.minor),
            size_bytes: d.size_bytes,
        }
    }
}

/// Linux's dev_t as (major, minor).
fn split(dev: u64) -> (u32, u32) {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    (major as u32, minor as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_t_splits_as_glibc_makes_it() {
        assert_eq!(split(0x0700), (7, 0));
        assert_eq!(split(0x0103), (1, 3));
        // glibc's makedev: the major's low 12 bits at 8, the minor's low 8 bits at 0, the
        // minor's other bits at 20 and the major's other bits at 44.
        let makedev = |ma: u64, mi: u64| {
            ((ma & 0xfff) << 8) | ((ma & !0xfff) << 32) | (mi & 0xff) | ((mi & !0xff) << 12)
        };
        assert_eq!(split(makedev(259, 65536)), (259, 65536));
        assert_eq!(split(makedev(4096, 300)), (4096, 300));
    }

    #[test]
    fn a_file_is_not_a_block_device() {
        let f = tempfile::NamedTempFile::new().unwrap();
        let e = Device::of_node(f.path()).unwrap_err();
        assert!(e.to_string().contains("not a block device"), "{e}");
    }
}
