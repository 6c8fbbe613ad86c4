//! A small fault-injecting FUSE file system of the tests' own (the `fuser` crate, pure Rust:
//! it mounts through fusermount3), serving one file, `disk.img`, from memory. Every I/O is
//! passed to it (FOPEN_DIRECT_IO), so a fault it injects travels the real kernel path to
//! dbio, directly or through a loop device over the file. Faults are switched on by the
//! test; the file system records what it did, which is the tests' oracle.

#![allow(dead_code)]

use super::common::{scratch, skip};
use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, INodeNo, LockOwner, MountOption,
    OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen,
    ReplyStatfs, ReplyWrite, Request, WriteFlags,
};
use std::ffi::OsStr;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// The faults in force; each write fault applies to at most `limit` writes (then stops).
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Reads overlapping this range fail with EIO.
    pub eio_read: Option<Range<u64>>,
    /// Writes overlapping this range fail with EIO.
    pub eio_write: Option<Range<u64>>,
    /// Writes in this range are acknowledged but not stored.
    pub drop_writes: Option<Range<u64>>,
    /// Writes in this range store only their first half.
    pub half_writes: Option<Range<u64>>,
    /// Writes in this range are stored this many bytes further on (modulo the file).
    pub misdirect: Option<(Range<u64>, u64)>,
    /// How many writes the write faults above may hit in all.
    pub limit: u64,
    /// Every read and write takes at least this long.
    pub latency: Option<Duration>,
    /// Every read takes at least this long (on top of `latency`).
    pub read_latency: Option<Duration>,
}

/// What the file system did with one write, in the order the writes were stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    Whole,
    Dropped,
    Half,
    /// Stored at this offset instead.
    Moved(u64),
}

/// The file system's record.
#[derive(Debug, Default)]
pub struct Log {
    /// Every write: offset, length, what was done.
    pub writes: Vec<(u64, u32, Stored)>,
    /// Every EIO returned: "read" or "write", offset, length.
    pub eio: Vec<(&'static str, u64, u32)>,
    /// Reads served.
    pub reads: u64,
    /// Write faults used so far.
    pub faults: u64,
}

struct State {
    data: Vec<u8>,
    faults: Faults,
    log: Log,
}

/// The shared state of a mounted fault file system.
#[derive(Clone)]
pub struct Handle(Arc<Mutex<State>>);

impl Handle {
    /// Switches to `f` (and resets the fault count).
    pub fn set(&self, f: Faults) {
        let mut s = self.0.lock().unwrap();
        s.faults = f;
        s.log.faults = 0;
    }
    /// Runs `f` on the record.
    pub fn log<T>(&self, f: impl FnOnce(&Log) -> T) -> T {
        f(&self.0.lock().unwrap().log)
    }
    /// A copy of the stored bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.0.lock().unwrap().data.clone()
    }
}

struct Fs(Handle);

const TTL: Duration = Duration::from_secs(0);
const FILE: INodeNo = INodeNo(2);

fn attr(ino: INodeNo, size: u64) -> FileAttr {
    let dir = ino == INodeNo::ROOT;
    FileAttr {
        ino,
        size,
        blocks: size.div_ceil(512),
        atime: SystemTime::UNIX_EPOCH,
        mtime: SystemTime::UNIX_EPOCH,
        ctime: SystemTime::UNIX_EPOCH,
        crtime: SystemTime::UNIX_EPOCH,
        kind: if dir {
            FileType::Directory
        } else {
            FileType::RegularFile
        },
        perm: if dir { 0o755 } else { 0o644 },
        nlink: if dir { 2 } else { 1 },
        uid: 0,
        gid: 0,
        rdev: 0,
        flags: 0,
        blksize: 4096,
    }
}

fn overlaps(r: &Option<Range<u64>>, off: u64, len: u64) -> bool {
    r.as_ref()
        .is_some_and(|r| off < r.end && off + len > r.start)
}

impl Filesystem for Fs {
    fn lookup(&self, _: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        if parent == INodeNo::ROOT && name == "disk.img" {
            let size = self.0 .0.lock().unwrap().data.len() as u64;
            reply.entry(&TTL, &attr(FILE, size), fuser::Generation(0));
        } else {
            reply.error(Errno::ENOENT);
        }
    }

    fn getattr(&self, _: &Request, ino: INodeNo, _: Option<FileHandle>, reply: ReplyAttr) {
        match ino {
            INodeNo::ROOT => reply.attr(&TTL, &attr(ino, 0)),
            FILE => reply.attr(
                &TTL,
                &attr(ino, self.0 .0.lock().unwrap().data.len() as u64),
            ),
            _ => reply.error(Errno::ENOENT),
        }
    }

    fn setattr(
        &self,
        _: &Request,
        ino: INodeNo,
        _: Option<u32>,
        _: Option<u32>,
        _: Option<u32>,
        size: Option<u64>,
        _: Option<fuser::TimeOrNow>,
        _: Option<fuser::TimeOrNow>,
        _: Option<SystemTime>,
        _: Option<FileHandle>,
        _: Option<SystemTime>,
        _: Option<SystemTime>,
        _: Option<SystemTime>,
        _: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        let mut s = self.0 .0.lock().unwrap();
        if let Some(n) = size.filter(|_| ino == FILE) {
            s.data.resize(n as usize, 0);
        }
        reply.attr(&TTL, &attr(ino, s.data.len() as u64));
    }

    fn open(&self, _: &Request, _: INodeNo, _: OpenFlags, reply: ReplyOpen) {
        // Every read and write comes here, past the page cache.
        reply.opened(FileHandle(0), FopenFlags::FOPEN_DIRECT_IO);
    }

    fn read(
        &self,
        _: &Request,
        _: INodeNo,
        _: FileHandle,
        offset: u64,
        size: u32,
        _: OpenFlags,
        _: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let f = self.0 .0.lock().unwrap().faults.clone();
        if let Some(l) = f.latency {
            std::thread::sleep(l);
        }
        if let Some(l) = f.read_latency {
            std::thread::sleep(l);
        }
        let mut s = self.0 .0.lock().unwrap();
        if overlaps(&s.faults.eio_read, offset, size as u64) {
            s.log.eio.push(("read", offset, size));
            return reply.error(Errno::EIO);
        }
        s.log.reads += 1;
        let end = (offset as usize + size as usize).min(s.data.len());
        let start = (offset as usize).min(end);
        reply.data(&s.data[start..end]);
    }

    fn write(
        &self,
        _: &Request,
        _: INodeNo,
        _: FileHandle,
        offset: u64,
        data: &[u8],
        _: WriteFlags,
        _: OpenFlags,
        _: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let latency = self.0 .0.lock().unwrap().faults.latency;
        if let Some(l) = latency {
            std::thread::sleep(l);
        }
        let mut s = self.0 .0.lock().unwrap();
        let len = data.len() as u64;
        if overlaps(&s.faults.eio_write, offset, len) {
            s.log.eio.push(("write", offset, data.len() as u32));
            return reply.error(Errno::EIO);
        }
        let size = s.data.len() as u64;
        if offset + len > size {
            return reply.error(Errno::ENOSPC);
        }
        let f = s.faults.clone();
        let room = s.log.faults < f.limit;
        let what = if room && overlaps(&f.drop_writes, offset, len) {
            Stored::Dropped
        } else if room && overlaps(&f.half_writes, offset, len) {
            Stored::Half
        } else if let Some((_, by)) = f
            .misdirect
            .as_ref()
            .filter(|(r, _)| room && overlaps(&Some(r.clone()), offset, len))
        {
            Stored::Moved((offset + by) % (size - len + 1) / 4096 * 4096)
        } else {
            Stored::Whole
        };
        if what != Stored::Whole {
            s.log.faults += 1;
        }
        match what {
            Stored::Whole => s.data[offset as usize..(offset + len) as usize].copy_from_slice(data),
            Stored::Dropped => {}
            Stored::Half => {
                let h = data.len() / 2;
                s.data[offset as usize..offset as usize + h].copy_from_slice(&data[..h]);
            }
            Stored::Moved(to) => s.data[to as usize..(to + len) as usize].copy_from_slice(data),
        }
        s.log.writes.push((offset, data.len() as u32, what));
        reply.written(data.len() as u32);
    }

    fn flush(&self, _: &Request, _: INodeNo, _: FileHandle, _: LockOwner, reply: ReplyEmpty) {
        reply.ok();
    }

    fn fsync(&self, _: &Request, _: INodeNo, _: FileHandle, _: bool, reply: ReplyEmpty) {
        reply.ok();
    }

    fn readdir(
        &self,
        _: &Request,
        ino: INodeNo,
        _: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        if ino != INodeNo::ROOT {
            return reply.error(Errno::ENOENT);
        }
        let entries = [
            (INodeNo::ROOT, FileType::Directory, "."),
            (INodeNo::ROOT, FileType::Directory, ".."),
            (FILE, FileType::RegularFile, "disk.img"),
        ];
        for (i, (ino, kind, name)) in entries.into_iter().enumerate().skip(offset as usize) {
            if reply.add(ino, (i + 1) as u64, kind, name) {
                break;
            }
        }
        reply.ok();
    }

    fn statfs(&self, _: &Request, _: INodeNo, reply: ReplyStatfs) {
        let blocks = self.0 .0.lock().unwrap().data.len() as u64 / 4096;
        reply.statfs(blocks, 0, 0, 1, 0, 4096, 255, 4096);
    }
}

/// A mounted fault file system; unmounted on drop.
pub struct FaultMount {
    pub fs: Handle,
    /// `.../mnt/disk.img`.
    pub file: PathBuf,
    session: Option<fuser::BackgroundSession>,
    mnt: PathBuf,
    _dir: tempfile::TempDir,
}

impl FaultMount {
    /// Mounts a fault file system whose `disk.img` holds `contents`; None (after a [`skip`],
    /// which fails the test in CI) when FUSE cannot be mounted here.
    #[track_caller]
    pub fn new(test: &str, contents: Vec<u8>) -> Option<FaultMount> {
        if !std::path::Path::new("/dev/fuse").exists() {
            skip(test, "/dev/fuse is missing (FUSE is not available)");
            return None;
        }
        let dir = scratch();
        let mnt = dir.path().join("mnt");
        std::fs::create_dir(&mnt).unwrap();
        let fs = Handle(Arc::new(Mutex::new(State {
            data: contents,
            faults: Faults::default(),
            log: Log::default(),
        })));
        let mut cfg = fuser::Config::default();
        cfg.mount_options = vec![
            MountOption::FSName("dbio-faultfs".into()),
            MountOption::DefaultPermissions,
        ];
        cfg.n_threads = Some(4);
        match fuser::spawn_mount(Fs(fs.clone()), &mnt, &cfg) {
            Ok(session) => Some(FaultMount {
                fs,
                file: mnt.join("disk.img"),
                session: Some(session),
                mnt,
                _dir: dir,
            }),
            Err(e) => {
                skip(
                    test,
                    &format!("cannot mount a FUSE file system ({e}); needs /dev/fuse, root and fusermount3 (package fuse3)"),
                );
                None
            }
        }
    }
}

impl Drop for FaultMount {
    /// Unmounts; a mount still busy (a loop device the kernel has not let go of yet) is
    /// detached lazily, so that no test leaves a mount behind.
    fn drop(&mut self) {
        if let Some(s) = self.session.take() {
            if s.umount_and_join().is_err() || dbio_db::testkit::mounted(&self.mnt) {
                dbio_db::testkit::unmount(&self.mnt);
            }
        }
    }
}

/// A loop device (direct I/O) over a file on the fault file system, detached on drop.
pub struct FuseLoop {
    pub dev: String,
}

impl FuseLoop {
    /// Attaches a loop device over `file`; None (after a [`skip`]) when none can be had.
    #[track_caller]
    pub fn attach(test: &str, file: &std::path::Path) -> Option<FuseLoop> {
        let out = std::process::Command::new("losetup")
            .args(["--find", "--show", "--direct-io=on"])
            .arg(file)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(FuseLoop {
                dev: String::from_utf8_lossy(&o.stdout).trim().to_string(),
            }),
            Ok(o) => {
                skip(
                    test,
                    &format!(
                        "losetup over a FUSE file failed: {}",
                        String::from_utf8_lossy(&o.stderr).trim()
                    ),
                );
                None
            }
            Err(e) => {
                skip(
                    test,
                    &format!("cannot run losetup ({e}); needs root and util-linux"),
                );
                None
            }
        }
    }
}

impl Drop for FuseLoop {
    /// Detaches the device and waits (up to 10 s) until the kernel has let go of its file:
    /// a device still held open (io_uring tears a ring down after the process exits) is only
    /// marked to detach, and would keep the fault file system busy.
    fn drop(&mut self) {
        let _ = std::process::Command::new("losetup")
            .arg("-d")
            .arg(&self.dev)
            .status();
        let name = self.dev.trim_start_matches("/dev/");
        let backing = format!("/sys/block/{name}/loop/backing_file");
        for _ in 0..100 {
            if !std::path::Path::new(&backing).exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}
