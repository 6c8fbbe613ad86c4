//! Opening a target: creating and sizing dbio's own files, refusing to write to what dbio
//! was not clearly given, and opening with the run's flags.

use super::error::TargetError;
use super::owner::{self, Marker};
use super::safety::{describe, inspect_device};
use super::sys;
use super::types::{round_up, OpenTarget, TargetKind, TargetOptions, DEFAULT_FILE_SIZE};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Opens `path` for a run, creating it as a dbio test file when it does not exist (whether
/// or not the run writes), and checks that writing to it is allowed (see design.md "Safety").
pub fn open_target(path: &str, opts: &TargetOptions) -> Result<OpenTarget, TargetError> {
    let md = match std::fs::metadata(path) {
        Ok(md) => md,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return create_file(path, opts),
        Err(e) => return Err(TargetError::os("open", path, e)),
    };
    let ft = md.file_type();
    let unsupported = |what| TargetError::Unsupported {
        path: path.to_string(),
        what,
    };
    if ft.is_dir() {
        Err(TargetError::IsDirectory {
            path: path.to_string(),
        })
    } else if ft.is_block_device() {
        open_block(path, opts)
    } else if ft.is_file() {
        open_file(path, opts)
    } else if ft.is_char_device() {
        Err(unsupported("character device"))
    } else if ft.is_fifo() {
        Err(unsupported("FIFO"))
    } else {
        Err(unsupported("socket"))
    }
}

/// Opens `path` with the run's flags; `excl` adds O_EXCL (block devices: fails if mounted).
/// How long an exclusive open waits for a device still held by a ring being torn down.
const EXCL_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

fn open_with(path: &str, opts: &TargetOptions, rw: bool, excl: bool) -> Result<File, TargetError> {
    let mut flags = 0;
    if opts.direct {
        flags |= libc::O_DIRECT;
    }
    if opts.dsync {
        flags |= libc::O_DSYNC;
    }
    if excl {
        flags |= libc::O_EXCL;
    }
    let open = || open_noatime(path, rw, flags);
    let mut result = open();
    // A ring that used the device a moment ago (an earlier run, or the previous step of a
    // sweep) is torn down by the kernel in the background and keeps its exclusive claim
    // until then: wait for it, up to EXCL_WAIT, before calling the device busy.
    let deadline = std::time::Instant::now() + EXCL_WAIT;
    while excl
        && std::time::Instant::now() < deadline
        && result
            .as_ref()
            .is_err_and(|e| e.raw_os_error() == Some(libc::EBUSY))
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
        result = open();
    }
    let file = result.map_err(|e| match e.raw_os_error() {
        Some(libc::EINVAL) if opts.direct => TargetError::NoDirect {
            path: path.to_string(),
            fs: File::open(path)
                .ok()
                .and_then(|f| sys::fs_name(&f))
                .map(String::from),
        },
        Some(libc::EBUSY) if excl => TargetError::Busy {
            path: path.to_string(),
        },
        _ => TargetError::os("open", path, e),
    })?;
    if opts.write && !excl {
        lock_for_writing(path, &file)?;
    }
    Ok(file)
}

/// Opens `path` with `flags` and O_NOATIME, as fio opens devices and t/io_uring every target:
/// reads then skip the access-time check the kernel makes on each one, and a file dbio did not
/// create keeps its access time. Only the file's owner (or root) may ask for that; anyone else
/// gets the file without it. (std always adds O_CLOEXEC.)
pub fn open_noatime(path: impl AsRef<Path>, rw: bool, flags: i32) -> io::Result<File> {
    let open = |flags| {
        OpenOptions::new()
            .read(true)
            .write(rw)
            .custom_flags(flags)
            .open(path.as_ref())
    };
    match open(flags | libc::O_NOATIME) {
        Err(e) if e.raw_os_error() == Some(libc::EPERM) => open(flags),
        result => result,
    }
}

/// Locks a file a run writes (flock, exclusive), so that a second dbio run writing it is
/// refused instead of its writes being taken for corruption. A lock held by this very
/// process (two streams of one run on one file) is no conflict. A lock still held is waited
/// for, up to [`EXCL_WAIT`], as an exclusive open is: a ring that had the file registered
/// keeps it locked until the kernel has torn the ring down, after its process ended (then
/// /proc/locks names a pid that no longer exists, which is not called the holder).
fn lock_for_writing(path: &str, file: &File) -> Result<(), TargetError> {
    let md = file
        .metadata()
        .map_err(|e| TargetError::os("stat", path, e))?;
    let deadline = std::time::Instant::now() + EXCL_WAIT;
    loop {
        if sys::try_lock(file).map_err(|e| TargetError::os("lock", path, e))? {
            return Ok(());
        }
        let holders = sys::flock_holders(md.dev(), md.ino());
        if holders.contains(&std::process::id()) {
            return Ok(());
        }
        if std::time::Instant::now() >= deadline {
            return Err(TargetError::Locked {
                path: path.to_string(),
                holder: lock_holder(&holders),
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The holders of a lock, for a message: the live ones by pid and command name. A holder
/// with no /proc entry has ended, and its lock is being released by the kernel.
fn lock_holder(holders: &[u32]) -> String {
    let live: Vec<String> = holders
        .iter()
        .filter(|pid| Path::new(&format!("/proc/{pid}")).exists())
        .map(
            |pid| match std::fs::read_to_string(format!("/proc/{pid}/comm")) {
                Ok(comm) => format!("pid {pid} ({})", comm.trim()),
                Err(_) => format!("pid {pid}"),
            },
        )
        .collect();
    if !live.is_empty() {
        live.join(", ")
    } else if !holders.is_empty() {
        format!(
            "a process that has ended, whose lock the kernel had not released after {} s",
            EXCL_WAIT.as_secs()
        )
    } else {
        "a process this one cannot see (one that has ended, or one in another PID namespace)".into()
    }
}

/// Removes a half-made file (and its sidecar marker) unless disarmed.
struct Cleanup<'a> {
    path: &'a Path,
    armed: bool,
}

impl Drop for Cleanup<'_> {
    fn drop(&mut self) {
        if self.armed {
            let _ = std::fs::remove_file(self.path);
            owner::remove_sidecar(self.path);
        }
    }
}

/// `ENOSPC` from allocation becomes [`TargetError::NoSpace`]; other errors name the step.
fn alloc_error(path: &str, dir: &File, needed: u64, e: io::Error) -> TargetError {
    if e.raw_os_error() == Some(libc::ENOSPC) {
        TargetError::NoSpace {
            path: path.to_string(),
            needed,
            free: sys::free_bytes(dir).unwrap_or(0),
        }
    } else {
        TargetError::os("allocate", path, e)
    }
}

/// Fails with [`TargetError::NoSpace`] when the file system holding `dir` has less than `needed` free.
fn check_space(path: &str, dir: &File, needed: u64) -> Result<(), TargetError> {
    match sys::free_bytes(dir) {
        Ok(free) if free < needed => Err(TargetError::NoSpace {
            path: path.to_string(),
            needed,
            free,
        }),
        _ => Ok(()),
    }
}

/// Removes a file this open created, for a run refused before it wrote anything (bad block
/// size or region), so a refused run leaves nothing behind. Anything else is left alone.
pub fn discard_created(t: OpenTarget) {
    if t.created && t.kind == TargetKind::File {
        drop(t.file);
        let _ = std::fs::remove_file(&t.path);
        owner::remove_sidecar(Path::new(&t.path));
    }
}

/// Whether `dir` lies on the file system of /dev (the kernel's device nodes), where a missing
/// name is a misnamed device; /dev/shm and other mounts under /dev are file systems of their own.
fn on_devtmpfs(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(dir), std::fs::metadata("/dev")) {
        (Ok(d), Ok(dev)) => d.dev() == dev.dev(),
        _ => false,
    }
}

fn create_file(path: &str, opts: &TargetOptions) -> Result<OpenTarget, TargetError> {
    let p = Path::new(path);
    if p.file_name().is_none() {
        let e = io::Error::new(io::ErrorKind::InvalidInput, "not a file name");
        return Err(TargetError::os("create", path, e));
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if on_devtmpfs(dir) {
        return Err(TargetError::NoDevice {
            path: path.to_string(),
        });
    }
    let dir_file = File::open(dir).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => TargetError::NoParent {
            path: path.to_string(),
            dir: dir.display().to_string(),
        },
        _ => TargetError::os("create", path, e),
    })?;
    let size = round_up(opts.size.unwrap_or(DEFAULT_FILE_SIZE));
    check_space(path, &dir_file, size)?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o644)
        .open(p)
        .map_err(|e| TargetError::os("create", path, e))?;
    let mut cleanup = Cleanup {
        path: p,
        armed: true,
    };
    // Mark first, so a file left by an interrupted creation is still known as dbio's.
    owner::write_marker(p, &file, Marker { prefilled: false })
        .map_err(|e| TargetError::os("mark as created by dbio", path, e))?;
    sys::allocate(&file, size).map_err(|e| alloc_error(path, &dir_file, size, e))?;
    drop(file);
    let file = open_with(path, opts, true, false)?;
    cleanup.armed = false;
    Ok(OpenTarget {
        path: path.to_string(),
        file,
        kind: TargetKind::File,
        size,
        owned: true,
        created: true,
        needs_prefill: true,
        found: None,
    })
}

fn open_file(path: &str, opts: &TargetOptions) -> Result<OpenTarget, TargetError> {
    let p = Path::new(path);
    let probe = File::open(p).map_err(|e| TargetError::os("open", path, e))?;
    let current = probe
        .metadata()
        .map_err(|e| TargetError::os("stat", path, e))?
        .len();
    let marker = owner::read_marker(p, &probe)
        .map_err(|e| TargetError::os("read the dbio marker of", path, e))?;
    let Some(marker) = marker else {
        return open_foreign(path, opts, current);
    };
    let mut size = current;
    let mut needs_prefill = !marker.prefilled;
    if let Some(wanted) = opts.size.map(round_up).filter(|&w| w != current) {
        resize(path, &probe, wanted)?;
        size = wanted;
        needs_prefill = true;
    }
    drop(probe);
    let file = open_with(path, opts, opts.write || needs_prefill, false)?;
    Ok(OpenTarget {
        path: path.to_string(),
        file,
        kind: TargetKind::File,
        size,
        owned: true,
        created: false,
        needs_prefill,
        found: None,
    })
}

/// Resizes a dbio-owned file and marks it as not prefilled.
fn resize(path: &str, probe: &File, wanted: u64) -> Result<(), TargetError> {
    let p = Path::new(path);
    let current = probe.metadata().map_or(0, |m| m.len());
    let dir = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir_file =
        File::open(dir).map_err(|e| TargetError::os("open the directory of", path, e))?;
    check_space(path, &dir_file, wanted.saturating_sub(current))?;
    let rw = OpenOptions::new()
        .write(true)
        .open(p)
        .map_err(|e| TargetError::os("open", path, e))?;
    owner::write_marker(p, &rw, Marker { prefilled: false })
        .map_err(|e| TargetError::os("update the dbio marker of", path, e))?;
    sys::allocate(&rw, wanted)
        .map_err(|e| alloc_error(path, &dir_file, wanted.saturating_sub(current), e))
}

/// An existing file dbio did not create: read as it is, written only with `--destroy-data`,
/// never resized.
fn open_foreign(path: &str, opts: &TargetOptions, current: u64) -> Result<OpenTarget, TargetError> {
    if let Some(wanted) = opts.size.filter(|&w| w != current) {
        return Err(TargetError::ForeignResize {
            path: path.to_string(),
            size: current,
            wanted,
        });
    }
    if opts.write && !opts.destroy_data {
        return Err(TargetError::ForeignFile {
            path: path.to_string(),
        });
    }
    let file = open_with(path, opts, opts.write, false)?;
    Ok(OpenTarget {
        path: path.to_string(),
        file,
        kind: TargetKind::File,
        size: current,
        owned: false,
        created: false,
        needs_prefill: false,
        found: None,
    })
}

/// A block device: read freely; written only with `--destroy-data`, then opened with O_EXCL.
/// `--size`, when given, limits the run to the first bytes of the device.
fn open_block(path: &str, opts: &TargetOptions) -> Result<OpenTarget, TargetError> {
    let probe = File::open(path).map_err(|e| TargetError::os("open", path, e))?;
    let rdev = probe
        .metadata()
        .map_err(|e| TargetError::os("stat", path, e))?
        .rdev();
    let found = describe(&inspect_device(&probe, rdev));
    drop(probe);
    if opts.write && !opts.destroy_data {
        return Err(TargetError::BlockDevice {
            path: path.to_string(),
            found,
        });
    }
    let file = open_with(path, opts, opts.write, opts.write)?;
    let dev_size =
        sys::device_size(&file).map_err(|e| TargetError::os("get the size of", path, e))?;
    let size = match opts.size {
        Some(w) if w > dev_size => {
            return Err(TargetError::DeviceTooSmall {
                path: path.to_string(),
                size: dev_size,
                wanted: w,
            })
        }
        Some(w) => w,
        None => dev_size,
    };
    Ok(OpenTarget {
        path: path.to_string(),
        file,
        kind: TargetKind::Block,
        size,
        owned: false,
        created: false,
        needs_prefill: false,
        found: Some(found),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::mark_prefilled;

    fn sized(size: u64) -> TargetOptions {
        TargetOptions {
            size: Some(size),
            ..Default::default()
        }
    }

    fn write_opts(destroy_data: bool) -> TargetOptions {
        TargetOptions {
            write: true,
            destroy_data,
            ..Default::default()
        }
    }

    /// A misnamed device (/dev/sdz, /dev/disk/by-id/…) is refused, not made a file in devtmpfs.
    #[test]
    fn a_missing_path_under_dev_is_refused_not_created() {
        for path in ["/dev/dbio-no-such-disk", "/dev/../dev/dbio-no-such-disk"] {
            let err = open_target(path, &write_opts(true))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("dbio does not create files under /dev"),
                "{err}"
            );
            assert!(!Path::new(path).exists(), "{path} was created");
        }
        // /dev/shm is a tmpfs of its own: files there are made as anywhere else.
        let shm = tempfile::tempdir_in("/dev/shm").unwrap();
        let f = shm.path().join("t.dat");
        open_target(f.to_str().unwrap(), &sized(1 << 20)).unwrap();
        assert!(f.is_file());
    }

    #[test]
    fn creates_marks_and_resizes_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dbio-testfile");
        let p = path.to_str().unwrap();
        // A read run on a missing path creates it too.
        let t = open_target(p, &sized(1 << 20)).unwrap();
        assert_eq!(t.size, 1 << 20);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 1 << 20);
        assert!(t.owned && t.needs_prefill);
        assert_eq!(t.kind, TargetKind::File);
        assert_eq!(t.found, None);
        // Not yet prefilled: still needs it on the next open.
        drop(t);
        assert!(
            open_target(p, &TargetOptions::default())
                .unwrap()
                .needs_prefill
        );
        let t = open_target(p, &write_opts(false)).unwrap();
        mark_prefilled(&t).unwrap();
        drop(t);
        let t = open_target(p, &write_opts(false)).unwrap();
        assert!(t.owned && !t.needs_prefill);
        assert_eq!(t.size, 1 << 20);
        drop(t);
        // The same size (after rounding up to 4 KiB) is no resize.
        assert!(
            !open_target(p, &sized((1 << 20) - 100))
                .unwrap()
                .needs_prefill
        );
        let t = open_target(p, &sized(2 << 20)).unwrap();
        assert_eq!(t.size, 2 << 20);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 2 << 20);
        assert!(t.owned && t.needs_prefill);
        drop(t);
        let t = open_target(p, &sized(8192)).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8192);
        assert!(t.needs_prefill);
    }

    #[test]
    fn a_written_file_is_locked_and_this_process_may_open_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let p = path.to_str().unwrap();
        let w = open_target(
            p,
            &TargetOptions {
                size: Some(8192),
                ..write_opts(false)
            },
        )
        .unwrap();
        // The lock is held: another open file of the same file cannot take it ...
        let other = File::open(&path).unwrap();
        assert!(!sys::try_lock(&other).unwrap());
        // ... and /proc/locks names this process as its holder.
        let md = w.file.metadata().unwrap();
        assert_eq!(
            sys::flock_holders(md.dev(), md.ino()),
            vec![std::process::id()]
        );
        // Two streams of one run on one file: no conflict with itself.
        assert!(open_target(p, &write_opts(false)).is_ok());
        drop(w);
    }

    #[test]
    fn a_lock_left_by_an_ended_process_is_waited_for_and_never_named() {
        if !Path::new("/usr/bin/flock").exists() && !Path::new("/bin/flock").exists() {
            super::super::loop_tests::skip(
                "a_lock_left_by_an_ended_process_is_waited_for_and_never_named",
                "flock(1) (util-linux)",
            );
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let p = path.to_str().unwrap();
        drop(open_target(p, &sized(8192)).unwrap());
        // flock(1) (a child of the shell, ended at once) takes the lock on the shell's open
        // file, which `cat` keeps open: /proc/locks names the dead flock(1) as the holder,
        // as it names a dead dbio whose ring the kernel has not torn down yet.
        let mut holder = std::process::Command::new("sh")
            .arg("-c")
            .arg("exec 9>>\"$0\"; flock -x 9 && echo locked; exec cat >/dev/null")
            .arg(&path)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut said = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(holder.stdout.take().unwrap(), 7),
            &mut said,
        )
        .unwrap();
        assert_eq!(said, "locked\n");
        let md = std::fs::metadata(&path).unwrap();
        // In the first PID namespace /proc/locks keeps the dead holder's pid; in any other
        // (a container, CI's sandbox) the kernel hides a lock whose holder's pid is freed,
        // and shows it again under whatever process of the namespace reuses that pid.
        let dead = sys::flock_holders(md.dev(), md.ino());
        assert!(dead.len() <= 1, "{dead:?}");
        // Still held after the wait: refused, without naming the dead pid.
        let e = open_target(p, &write_opts(false)).unwrap_err().to_string();
        assert!(e.contains("another process is writing it"), "{e}");
        if let Some(pid) = dead.first() {
            assert!(!Path::new(&format!("/proc/{pid}")).exists());
            assert!(e.contains("a process that has ended"), "{e}");
            assert!(!e.contains(&format!("pid {pid}")), "{e}");
        }
        // Released: the lock is taken.
        drop(holder.stdin.take());
        holder.wait().unwrap();
        assert!(open_target(p, &write_opts(false)).is_ok());
    }

    /// A read run leaves a file's access time as it was, where a plain read on the same file
    /// system moves it (relatime: an access time older than a day is updated).
    #[test]
    fn reads_leave_the_access_time_alone() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data");
        std::fs::write(&path, vec![7u8; 8192]).unwrap();
        let atime = |p: &Path| std::fs::metadata(p).unwrap().atime();
        let age = |p: &Path| {
            let f = File::options().write(true).open(p).unwrap();
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400 * 3);
            f.set_times(std::fs::FileTimes::new().set_accessed(old))
                .unwrap();
        };
        // The control: without O_NOATIME a read moves it here (else the check below says nothing).
        age(&path);
        let before = atime(&path);
        std::fs::read(&path).unwrap();
        if atime(&path) == before {
            super::super::loop_tests::skip(
                "reads_leave_the_access_time_alone",
                "a file system that updates access times (this one is mounted noatime)",
            );
            return;
        }
        age(&path);
        let before = atime(&path);
        let t = open_target(path.to_str().unwrap(), &TargetOptions::default()).unwrap();
        let flags = status_flags(&t.file);
        assert_ne!(flags & libc::O_NOATIME, 0, "opened without O_NOATIME");
        let mut buf = vec![0u8; 4096];
        std::os::unix::fs::FileExt::read_exact_at(&t.file, &mut buf, 0).unwrap();
        assert_eq!(atime(&path), before, "the read moved the access time");
    }

    /// The file status flags of `f` (fcntl F_GETFL), through /proc/self/fdinfo.
    fn status_flags(f: &File) -> i32 {
        use std::os::fd::AsRawFd;
        let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{}", f.as_raw_fd())).unwrap();
        let octal = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .unwrap()
            .trim();
        i32::from_str_radix(octal, 8).unwrap()
    }

    #[test]
    fn created_size_is_rounded_up_to_4k() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let t = open_target(path.to_str().unwrap(), &sized(5000)).unwrap();
        assert_eq!(t.size, 8192);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8192);
    }

    #[test]
    fn foreign_file_is_read_but_not_written_without_destroy_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data");
        let p = path.to_str().unwrap();
        let content: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &content).unwrap();

        let err = open_target(p, &write_opts(false)).unwrap_err().to_string();
        assert!(err.contains("dbio did not create it"), "{err}");
        assert!(err.contains("--destroy-data"), "{err}");
        assert!(err.contains(p), "{err}");
        let resize = open_target(p, &sized(1 << 20)).unwrap_err().to_string();
        assert!(resize.contains("will not resize it"), "{resize}");
        assert_eq!(std::fs::read(&path).unwrap(), content);

        let r = open_target(p, &TargetOptions::default()).unwrap();
        assert!(!r.owned && !r.needs_prefill);
        assert_eq!(r.size, 10_000);
        let w = open_target(p, &write_opts(true)).unwrap();
        assert!(!w.owned && !w.needs_prefill);
        // Opened read-write, and still byte for byte what it was.
        use std::os::unix::fs::FileExt;
        w.file.write_all_at(&[content[0]], 0).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), content);
        // Same size as --size is fine.
        assert!(open_target(p, &sized(10_000)).is_ok());
    }

    #[test]
    fn missing_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such");
        let path = missing.join("f");
        let err = open_target(path.to_str().unwrap(), &TargetOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot create {}: directory {} does not exist; create it or choose another --target",
                path.display(),
                missing.display()
            )
        );
    }

    #[test]
    fn directories_and_char_devices_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().to_str().unwrap();
        let err = open_target(p, &TargetOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{p} is a directory; give a file or block device path")
        );
        let err = open_target("/dev/null", &TargetOptions::default()).unwrap_err();
        assert!(err.to_string().contains("character device"), "{err}");
    }

    #[test]
    fn no_space_is_checked_before_creating() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge");
        let err = open_target(path.to_str().unwrap(), &sized(1 << 60)).unwrap_err();
        let msg = err.to_string();
        let start = format!("no space for {}: 1024 PiB needed, ", path.display());
        assert!(msg.starts_with(&start), "{msg}");
        assert!(
            msg.ends_with(" free on its file system; use a smaller --size or another place"),
            "{msg}"
        );
        assert!(!path.exists());
    }

    #[test]
    fn permission_errors_name_the_path() {
        // Root passes permission checks; a path through a regular file fails the same way.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, b"x").unwrap();
        let path = file.join("f");
        let err = open_target(path.to_str().unwrap(), &TargetOptions::default()).unwrap_err();
        assert!(err.to_string().starts_with("cannot open "), "{err}");
        assert!(err.to_string().contains(path.to_str().unwrap()), "{err}");
    }
}
