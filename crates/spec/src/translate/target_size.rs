//! The size of a target a translated job names: an existing file's length, or a block
//! device's size from sysfs (readable without opening the device).

use std::os::unix::fs::{FileTypeExt, MetadataExt};

/// The size in bytes of the file or block device at `path`, or why it has none: it does
/// not exist, it is empty, or it is neither a file nor a block device.
pub fn target_size(path: &str) -> Result<u64, String> {
    let m = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{path} does not exist"),
        _ => format!("{path}: {e}"),
    })?;
    let bytes = if m.is_file() {
        m.len()
    } else if m.file_type().is_block_device() {
        device_size(m.rdev()).ok_or_else(|| format!("{path}: its size is not in sysfs"))?
    } else {
        return Err(format!("{path} is neither a file nor a block device"));
    };
    match bytes {
        0 => Err(format!("{path} is empty")),
        b => Ok(b),
    }
}

/// A block device's size from `/sys/dev/block/MAJOR:MINOR/size` (in 512-byte sectors).
fn device_size(rdev: u64) -> Option<u64> {
    // Linux's encoding of a device number (glibc's gnu_dev_major and gnu_dev_minor).
    let major = ((rdev >> 8) & 0xfff) | ((rdev >> 32) & !0xfff);
    let minor = (rdev & 0xff) | ((rdev >> 12) & !0xff);
    let text = std::fs::read_to_string(format!("/sys/dev/block/{major}:{minor}/size")).ok()?;
    text.trim().parse::<u64>().ok()?.checked_mul(512)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_have_their_length_and_the_rest_say_why_not() {
        let dir = std::env::temp_dir().join(format!("dbio-target-size-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("f");
        std::fs::write(&f, vec![0u8; 12345]).unwrap();
        assert_eq!(target_size(f.to_str().unwrap()), Ok(12345));
        std::fs::write(&f, b"").unwrap();
        assert!(target_size(f.to_str().unwrap())
            .unwrap_err()
            .ends_with("is empty"));
        let gone = dir.join("gone");
        assert!(target_size(gone.to_str().unwrap())
            .unwrap_err()
            .ends_with("does not exist"));
        let d = dir.to_str().unwrap();
        assert!(target_size(d)
            .unwrap_err()
            .contains("neither a file nor a block device"));
        assert!(
            target_size("/dev/null").is_err(),
            "a character device has no size"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Oracle: the size sysfs lists under the device's name (not its number), read only.
    #[test]
    fn block_devices_have_the_size_sysfs_gives_their_name() {
        let mut checked = 0;
        for e in std::fs::read_dir("/sys/class/block")
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            let dev = format!("/dev/{name}");
            let Ok(text) = std::fs::read_to_string(e.path().join("size")) else {
                continue;
            };
            if !std::path::Path::new(&dev).exists() {
                continue;
            }
            let want: u64 = text.trim().parse::<u64>().unwrap() * 512;
            match target_size(&dev) {
                Ok(b) => assert_eq!(b, want, "{dev}"),
                Err(e) => assert!(want == 0 && e.ends_with("is empty"), "{dev}: {e}"),
            }
            checked += 1;
        }
        if checked == 0 {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "no block device to check under CI=true"
            );
            eprintln!("dbio-test-skipped: block_devices_have_the_size_sysfs_gives_their_name: no block device in /dev");
        }
    }
}
