//! An ext4 file system on a loop device of the test's own (a sparse file under the system
//! temp dir), mounted on a folder; unmounted and detached on drop. Needs root.

use super::host::{is_root, private_dir, run, unmount};
use crate::error::DbError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A mounted ext4 on a loop device.
pub struct Ext4Loop {
    image: PathBuf,
    mount: PathBuf,
    dev: String,
}

impl Ext4Loop {
    /// Makes, attaches, formats and mounts a file system of `bytes`.
    pub fn make(bytes: u64) -> Result<Ext4Loop, DbError> {
        if !is_root() {
            return Err(DbError::Private("a loop device needs root".into()));
        }
        let base = private_dir("dbio-ext4", None)?;
        let image = base.join("image");
        let f = std::fs::File::create(&image)
            .map_err(|e| DbError::Private(format!("{}: {e}", image.display())))?;
        f.set_len(bytes)
            .map_err(|e| DbError::Private(format!("{}: {e}", image.display())))?;
        let out = Command::new("losetup")
            .args(["-f", "--show"])
            .arg(&image)
            .output()
            .map_err(|e| DbError::Private(format!("cannot run losetup (util-linux): {e}")))?;
        let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || dev.is_empty() {
            let _ = std::fs::remove_dir_all(&base);
            return Err(DbError::Private(format!(
                "losetup failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        let mount = base.join("mnt");
        let l = Ext4Loop { image, mount, dev };
        let mut c = Command::new("mkfs.ext4");
        c.args(["-q", "-F", &l.dev]);
        run(c, "mkfs.ext4 (e2fsprogs)")?;
        std::fs::create_dir(&l.mount)
            .map_err(|e| DbError::Private(format!("{}: {e}", l.mount.display())))?;
        let mut c = Command::new("mount");
        c.arg(&l.dev).arg(&l.mount);
        run(c, "mount")?;
        Ok(l)
    }

    /// The mounted folder.
    pub fn path(&self) -> &Path {
        &self.mount
    }

    /// The device's name in /proc/diskstats, e.g. "loop3".
    pub fn name(&self) -> &str {
        self.dev.trim_start_matches("/dev/")
    }
}

impl Drop for Ext4Loop {
    /// Unmounts (checked; lazily when still busy), detaches, and removes the image only once
    /// nothing is mounted on its folder.
    fn drop(&mut self) {
        let unmounted = unmount(&self.mount);
        let detached = Command::new("losetup")
            .args(["-d", &self.dev])
            .status()
            .is_ok_and(|s| s.success());
        if !detached {
            eprintln!("cannot detach loop device {}", self.dev);
        }
        match self.image.parent() {
            Some(base) if unmounted => {
                let _ = std::fs::remove_dir_all(base);
            }
            _ => eprintln!("cannot unmount {}, even lazily", self.mount.display()),
        }
    }
}
