//! A target that lives in memory is named as such in the result (`targets[].medium`) and gets
//! a `memory-target` warning: a file in /dev/shm, a loop device over a file in /dev/shm, and a
//! file on an ext4 file system on such a loop device. A file on the virtual disk gets neither.
//! The oracle is the system's own view: `stat -f` (statfs) for the file system type, the loop
//! device's `loop/backing_file` in sysfs, and `findmnt` for the device under a directory.
//! A check that cannot run here (no tmpfs at /dev/shm, no losetup, no root) is a [`skip`]:
//! a `dbio-test-skipped:` line, and a failure under `CI=true`, naming what is missing.

mod common;

use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `cmd ARGS`: its trimmed stdout on success, else a description of the failure.
fn tool(cmd: &str, args: &[&str]) -> Result<String, String> {
    match Command::new(cmd).args(args).output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        Ok(o) => Err(format!(
            "{cmd} {args:?} failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!("cannot run {cmd}: {e}")),
    }
}

/// The file system type of `path` as statfs gives it (`stat -f -c %T`, coreutils).
fn fs_type(path: &Path) -> Result<String, String> {
    tool("stat", &["-f", "-c", "%T", path.to_str().unwrap()])
}

/// A temp directory in /dev/shm when /dev/shm is tmpfs (by statfs); else None after
/// [`skip`].
fn shm_dir(test: &str) -> Option<tempfile::TempDir> {
    match fs_type(Path::new("/dev/shm")) {
        Ok(t) if t == "tmpfs" => Some(
            tempfile::Builder::new()
                .prefix("dbio-it-")
                .tempdir_in("/dev/shm")
                .expect("create a directory in /dev/shm"),
        ),
        Ok(t) => {
            skip(test, &format!("/dev/shm is {t}, not tmpfs"));
            None
        }
        Err(e) => {
            skip(test, &format!("no file system type for /dev/shm: {e}"));
            None
        }
    }
}

/// A loop device over a 4 MiB file of pseudo-random bytes in /dev/shm, detached on drop
/// (also when the test fails).
struct ShmLoop {
    dev: String,
    backing: PathBuf,
    _dir: tempfile::TempDir,
}

impl ShmLoop {
    /// Attaches one; None after [`skip`] naming what failed.
    fn attach(test: &str) -> Option<ShmLoop> {
        let dir = shm_dir(test)?;
        let backing = dir.path().join("disk.img");
        std::fs::write(&backing, pseudo_random(4 << 20, 12)).expect("write the backing file");
        let b = backing.to_str().unwrap();
        match tool("losetup", &["--find", "--show", "--direct-io=on", b]) {
            Ok(dev) => Some(ShmLoop {
                dev,
                backing,
                _dir: dir,
            }),
            Err(e) => {
                skip(
                    test,
                    &format!("no loop device over {b} ({e}); needs root and losetup"),
                );
                None
            }
        }
    }

    /// `loopN`, the device's name in sysfs.
    fn name(&self) -> &str {
        self.dev.trim_start_matches("/dev/")
    }
}

impl Drop for ShmLoop {
    fn drop(&mut self) {
        let _ = Command::new("losetup").arg("-d").arg(&self.dev).status();
    }
}

/// A file system mounted on a directory, unmounted on drop (before its loop device goes).
struct Mounted {
    dir: tempfile::TempDir,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        // Another process may hold the file system for a moment (something walking the build
        // directory): try again, then detach it lazily, so it never stays mounted.
        let umount = |lazy: bool| {
            let mut c = Command::new("umount");
            if lazy {
                c.arg("-l");
            }
            c.arg(self.dir.path())
                .output()
                .is_ok_and(|o| o.status.success())
        };
        for _ in 0..20 {
            if umount(false) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        if !umount(true) {
            eprintln!("could not unmount {}", self.dir.path().display());
        }
    }
}

/// The one `memory-target` warning of `r`: it must name `path` and say what was measured
/// and what to do instead.
#[track_caller]
fn memory_warning(r: &Value, path: &str) -> String {
    let w: Vec<&Value> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "memory-target")
        .collect();
    assert_eq!(w.len(), 1, "memory-target warnings: {:?}", r["warnings"]);
    let m = w[0]["message"].as_str().unwrap().to_string();
    for needle in [
        path,
        "memory",
        "not storage",
        "kernel's I/O path",
        "to measure storage",
    ] {
        assert!(m.contains(needle), "the warning lacks {needle:?}: {m}");
    }
    m
}

/// The medium of the result's only target: (kind, via, reason).
#[track_caller]
fn medium(r: &Value) -> (String, String, String) {
    assert_valid(&schema("run-result.v1.json"), "run result", r);
    let t = r["targets"].as_array().unwrap();
    assert_eq!(t.len(), 1);
    let m = &t[0]["medium"];
    assert!(m.is_object(), "no medium in {}", t[0]);
    let s = |k: &str| m[k].as_str().unwrap().to_string();
    (s("kind"), s("via"), s("reason"))
}

/// A short read-only run on `target` (a file of 1 MiB that dbio creates, or a device).
fn read_run(dir: &Path, target: &str) -> Value {
    run_ok(
        dir,
        &[
            "--target", target, "--size", "1MiB", "--rw", "randread", "--bs", "4k", "--ops", "200",
            "--qd", "4",
        ],
    )
}

#[test]
fn a_file_in_dev_shm_is_named_memory_and_warned() {
    let test = "a_file_in_dev_shm_is_named_memory_and_warned";
    let Some(dir) = shm_dir(test) else { return };
    let f = dir.path().join("target.dat");
    let p = f.to_str().unwrap();
    let r = read_run(dir.path(), p);
    let fs = fs_type(dir.path()).unwrap();
    let (kind, via, reason) = medium(&r);
    assert_eq!((kind.as_str(), via.as_str()), ("memory", fs.as_str()));
    assert!(reason.contains(p) && reason.contains(&fs), "{reason}");
    memory_warning(&r, p);
}

#[test]
fn a_loop_device_over_a_file_in_dev_shm_is_named_memory_and_warned() {
    let test = "a_loop_device_over_a_file_in_dev_shm_is_named_memory_and_warned";
    let Some(lo) = ShmLoop::attach(test) else {
        return;
    };
    // The oracle: the kernel's own record of the backing file, and statfs of its directory.
    let sys = format!("/sys/block/{}/loop/backing_file", lo.name());
    let backing = std::fs::read_to_string(&sys).unwrap_or_else(|e| panic!("{sys}: {e}"));
    assert_eq!(Path::new(backing.trim()), lo.backing);
    let fs = fs_type(lo.backing.parent().unwrap()).unwrap();
    assert_eq!(fs, "tmpfs");
    let work = scratch();
    let r = read_run(work.path(), &lo.dev);
    let (kind, via, reason) = medium(&r);
    assert_eq!((kind.as_str(), via.as_str()), ("memory", "tmpfs"));
    assert!(
        reason.contains(lo.name()) && reason.contains(backing.trim()),
        "the reason names neither the loop device nor its backing file: {reason}"
    );
    memory_warning(&r, &lo.dev);
}

#[test]
fn a_file_on_a_file_system_on_such_a_loop_device_is_named_memory() {
    let test = "a_file_on_a_file_system_on_such_a_loop_device_is_named_memory";
    let Some(lo) = ShmLoop::attach(test) else {
        return;
    };
    if let Err(e) = tool("mkfs.ext4", &["-q", "-F", &lo.dev]) {
        return skip(test, &format!("no ext4 on {}: {e}", lo.dev));
    }
    let mnt = Mounted { dir: scratch() };
    let m = mnt.dir.path().to_str().unwrap().to_string();
    if let Err(e) = tool("mount", &[&lo.dev, &m]) {
        return skip(test, &format!("cannot mount {} on {m}: {e}", lo.dev));
    }
    // The oracle: the directory's file system is ext4 on the loop device, not tmpfs itself.
    assert_eq!(
        tool("findmnt", &["-n", "-o", "SOURCE", &m]).unwrap(),
        lo.dev
    );
    assert_ne!(fs_type(mnt.dir.path()).unwrap(), "tmpfs");
    let f = format!("{m}/target.dat");
    let r = read_run(mnt.dir.path(), &f);
    let (kind, via, reason) = medium(&r);
    assert_eq!((kind.as_str(), via.as_str()), ("memory", "tmpfs"));
    assert!(reason.contains(lo.name()), "{reason}");
    memory_warning(&r, &f);
    drop(mnt);
}

#[test]
fn a_file_on_the_virtual_disk_is_not_memory() {
    let test = "a_file_on_the_virtual_disk_is_not_memory";
    let dir = scratch();
    // The oracle: statfs says a disk file system, and the device under it is no RAM device.
    let fs = fs_type(dir.path()).unwrap();
    let d = dir.path().to_str().unwrap();
    let source = tool("findmnt", &["-n", "-o", "SOURCE", "--target", d]).unwrap_or_default();
    let in_memory = ["tmpfs", "ramfs"].contains(&fs.as_str())
        || ["/dev/zram", "/dev/ram", "/dev/loop"]
            .iter()
            .any(|p| source.starts_with(p));
    if in_memory || !source.starts_with("/dev/") {
        return skip(
            test,
            &format!("the build directory {d} is on {fs} ({source}), not on a disk"),
        );
    }
    let f = dir.path().join("target.dat");
    let r = read_run(dir.path(), f.to_str().unwrap());
    assert_valid(&schema("run-result.v1.json"), "run result", &r);
    assert!(r["targets"][0]["medium"].is_null(), "{}", r["targets"][0]);
    assert!(
        !warning_codes(&r).contains(&"memory-target".to_string()),
        "{:?}",
        r["warnings"]
    );
}
