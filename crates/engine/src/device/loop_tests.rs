//! Loop-device tests of the block-device safety checks: need root, losetup, mkfs.ext4 and
//! mount, and never touch a real disk. When those are missing they fail under `CI=true`
//! (naming what was missing) and elsewhere skip with a `dbio-test-skipped:` line, the same
//! line as the CLI tests' `skip` (crates/cli/tests/common), which `.ci/run` counts.

use crate::device::{open_target, TargetKind, TargetOptions};
use std::process::Command;

/// Says that `test` cannot run its check because `missing` is not there: a failure under
/// `CI=true`; elsewhere one `dbio-test-skipped: TEST: MISSING` line straight to stderr (past
/// the test harness's capture), and the caller returns.
#[track_caller]
pub(super) fn skip(test: &str, missing: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{test}: cannot run its check under CI=true: {missing}");
    }
    use std::io::Write;
    let line = format!("dbio-test-skipped: {test}: {missing}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// Why a tool a test needs (losetup, mkfs.ext4, mount) did not do its part; the test skips
/// with this as the reason.
#[derive(Debug, thiserror::Error)]
enum ToolError {
    /// The tool could not be started, e.g. `losetup: No such file or directory (os error 2)`.
    #[error("{tool}: {source}")]
    Spawn {
        /// The tool's name.
        tool: String,
        /// Why it could not be started.
        source: std::io::Error,
    },
    /// The tool ran and failed; `said` is its stderr, after `tool: ` when `named`.
    #[error("{}{said}", if *named { format!("{tool}: ") } else { String::new() })]
    Failed {
        /// The tool's name.
        tool: String,
        /// Whether the message names the tool.
        named: bool,
        /// What it wrote to stderr, trimmed.
        said: String,
    },
}

/// A loop device over a temp file, detached on drop whatever the test did.
struct Loop {
    dev: String,
}

impl Loop {
    fn attach(file: &std::path::Path) -> Result<Loop, ToolError> {
        let out = Command::new("losetup")
            .args(["--find", "--show"])
            .arg(file)
            .output()
            .map_err(|source| ToolError::Spawn {
                tool: "losetup".into(),
                source,
            })?;
        if !out.status.success() {
            return Err(ToolError::Failed {
                tool: "losetup".into(),
                named: false,
                said: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        let dev = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok(Loop { dev })
    }
}

impl Drop for Loop {
    fn drop(&mut self) {
        let _ = Command::new("losetup").arg("-d").arg(&self.dev).status();
    }
}

/// A mount, unmounted on drop (declare it after its [`Loop`] so it drops first).
struct Mount {
    point: std::path::PathBuf,
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.point).status();
    }
}

/// Runs `cmd` with `args`; an error names the command and what it wrote to stderr.
fn run(cmd: &str, args: &[&str]) -> Result<(), ToolError> {
    let out = Command::new(cmd)
        .args(args)
        .output()
        .map_err(|source| ToolError::Spawn {
            tool: cmd.to_string(),
            source,
        })?;
    if out.status.success() {
        Ok(())
    } else {
        Err(ToolError::Failed {
            tool: cmd.to_string(),
            named: true,
            said: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

#[test]
fn writes_to_a_device_with_a_file_system_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let backing = dir.path().join("disk.img");
    let mut image = vec![0u8; 8 << 20];
    image[1080] = 0x53;
    image[1081] = 0xEF;
    std::fs::write(&backing, &image).unwrap();
    let dev = match Loop::attach(&backing) {
        Ok(dev) => dev,
        Err(why) => {
            let test = "writes_to_a_device_with_a_file_system_are_refused";
            skip(
                test,
                &format!("no loop device could be attached ({why}); needs root and losetup"),
            );
            return;
        }
    };
    let write = TargetOptions {
        write: true,
        ..Default::default()
    };
    let err = open_target(&dev.dev, &write).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "refusing to write to block device {} (found: ",
            dev.dev
        )),
        "{err}"
    );
    assert!(err.contains("ext2 file system signature"), "{err}");
    assert!(
        err.ends_with("pass --destroy-data to overwrite it"),
        "{err}"
    );

    let r = open_target(&dev.dev, &TargetOptions::default()).unwrap();
    assert_eq!(r.kind, TargetKind::Block);
    assert_eq!(r.size, 8 << 20);
    assert!(!r.owned && !r.needs_prefill);
    assert!(r.found.as_deref().is_some_and(|f| f.contains("ext")));
    let facts = crate::facts::target_facts(&r);
    assert_eq!(facts.kind, "block");
    assert_eq!(
        Some(dev.dev.trim_start_matches("/dev/")),
        facts.device.as_deref()
    );
    assert_eq!(crate::facts::logical_block_size(&r), 512);
    drop(r);

    let destroy = TargetOptions {
        write: true,
        destroy_data: true,
        direct: true,
        ..Default::default()
    };
    let w = open_target(&dev.dev, &destroy).unwrap();
    assert_eq!(w.size, 8 << 20);
    // Opened with O_EXCL: a second exclusive open is busy.
    let busy = open_target(&dev.dev, &destroy).unwrap_err().to_string();
    assert!(busy.contains("device busy (mounted or in use)"), "{busy}");
    drop(w);

    // Zeroed: nothing found, and still refused without --destroy-data.
    std::fs::write(&backing, vec![0u8; 8 << 20]).unwrap();
    let _ = Command::new("blockdev")
        .arg("--flushbufs")
        .arg(&dev.dev)
        .status();
    let err = open_target(&dev.dev, &write).unwrap_err().to_string();
    assert!(
        err.contains("(found: no partition table or file-system signature)"),
        "{err}"
    );
}

#[test]
fn a_mounted_device_is_reported_and_busy() {
    let dir = tempfile::tempdir().unwrap();
    let backing = dir.path().join("disk.img");
    std::fs::File::create(&backing)
        .unwrap()
        .set_len(16 << 20)
        .unwrap();
    let point = dir.path().join("mnt");
    std::fs::create_dir(&point).unwrap();
    let dev = match Loop::attach(&backing) {
        Ok(dev) => dev,
        Err(why) => {
            let test = "a_mounted_device_is_reported_and_busy";
            skip(
                test,
                &format!("no loop device could be attached ({why}); needs root and losetup"),
            );
            return;
        }
    };
    let p = point.to_str().unwrap();
    let mounted =
        run("mkfs.ext4", &["-q", "-F", &dev.dev]).and_then(|()| run("mount", &[&dev.dev, p]));
    let _mount = match mounted {
        Ok(()) => Mount {
            point: point.clone(),
        },
        Err(why) => {
            let test = "a_mounted_device_is_reported_and_busy";
            skip(test, &format!("cannot make and mount an ext4 file system ({why}); needs mkfs.ext4 (e2fsprogs) and mount"));
            return;
        }
    };
    let write = TargetOptions {
        write: true,
        ..Default::default()
    };
    let err = open_target(&dev.dev, &write).unwrap_err().to_string();
    assert!(err.contains(&format!("mounted at {p}")), "{err}");
    assert!(err.contains("ext4 file system signature"), "{err}");
    let destroy = TargetOptions {
        write: true,
        destroy_data: true,
        ..Default::default()
    };
    let busy = open_target(&dev.dev, &destroy).unwrap_err().to_string();
    assert_eq!(
        busy,
        format!(
            "cannot open {}: device busy (mounted or in use); unmount it or choose another device",
            dev.dev
        )
    );
    // Reading a mounted device is allowed.
    assert!(open_target(&dev.dev, &TargetOptions::default()).is_ok());
}
