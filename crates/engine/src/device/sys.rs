//! Thin wrappers over the system calls the target code needs and std does not offer:
//! fstatvfs, fstatfs, fallocate and the block-device ioctls.

use std::fs::File;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::AsRawFd;
use std::path::PathBuf;

/// `_IOR(0x12, 114, u64)`: the size of a block device in bytes (not exported by libc).
#[cfg(any(
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "sparc",
    target_arch = "sparc64"
))]
const BLKGETSIZE64: u64 = 0x4008_1272;
#[cfg(not(any(
    target_arch = "mips",
    target_arch = "mips64",
    target_arch = "powerpc",
    target_arch = "powerpc64",
    target_arch = "sparc",
    target_arch = "sparc64"
)))]
const BLKGETSIZE64: u64 = 0x8008_1272;

/// Bytes an unprivileged user may still allocate on the file system holding `f`.
pub(crate) fn free_bytes(f: &File) -> io::Result<u64> {
    space(f).map(|(free, _)| free)
}

/// (bytes an unprivileged user may still allocate, size in bytes) of the file system holding
/// `f`, by fstatvfs.
pub(crate) fn space(f: &File) -> io::Result<(u64, u64)> {
    let mut st = MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: the fd is open for the duration of the call and `st` is a valid out-pointer
    // for one statvfs, which the kernel fills completely on success.
    let rc = unsafe { libc::fstatvfs(f.as_raw_fd(), st.as_mut_ptr()) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fstatvfs returned 0, so `st` is initialised.
    let st = unsafe { st.assume_init() };
    // The field types differ between platforms (u32 or u64).
    #[allow(clippy::useless_conversion)]
    let (avail, blocks, frsize) = (
        u64::from(st.f_bavail),
        u64::from(st.f_blocks),
        u64::from(st.f_frsize),
    );
    Ok((avail.saturating_mul(frsize), blocks.saturating_mul(frsize)))
}

/// The name of the file system holding `f`, for the kinds known to refuse O_DIRECT.
pub(crate) fn fs_name(f: &File) -> Option<&'static str> {
    let mut st = MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: as in free_bytes, with a statfs out-pointer.
    let rc = unsafe { libc::fstatfs(f.as_raw_fd(), st.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: fstatfs returned 0, so `st` is initialised.
    let st = unsafe { st.assume_init() };
    // f_type is a signed or unsigned word depending on the platform; magics fit in 32 bits.
    #[allow(clippy::unnecessary_cast)]
    let magic = (st.f_type as u64) & 0xffff_ffff;
    Some(match magic {
        0x0102_1994 => "tmpfs",
        0x8584_58f6 => "ramfs",
        0x794c_7630 => "overlayfs",
        0x6573_5546 => "fuse",
        0x0000_6969 => "nfs",
        0x0102_1997 => "9p",
        0x2fc1_2fc1 => "zfs",
        0xff53_4d42 => "cifs",
        _ => return None,
    })
}

/// Makes `f` exactly `len` bytes long with its blocks allocated where the file system can
/// (fallocate), else by ftruncate. Shrinking always uses ftruncate.
pub(crate) fn allocate(f: &File, len: u64) -> io::Result<()> {
    let current = f.metadata()?.len();
    if len <= current {
        return f.set_len(len);
    }
    let off_len =
        libc::off_t::try_from(len).map_err(|_| io::Error::from_raw_os_error(libc::EFBIG))?;
    // SAFETY: plain syscall on an fd we own; no memory is passed.
    let rc = unsafe { libc::fallocate(f.as_raw_fd(), 0, 0, off_len) };
    if rc == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EOPNOTSUPP) => f.set_len(len),
        _ => Err(e),
    }
}

/// The size in bytes of the block device open as `f` (BLKGETSIZE64).
pub(crate) fn device_size(f: &File) -> io::Result<u64> {
    let mut size: u64 = 0;
    // SAFETY: BLKGETSIZE64 writes one u64 through the pointer, which points to `size`.
    let rc = unsafe { libc::ioctl(f.as_raw_fd(), BLKGETSIZE64 as _, &mut size as *mut u64) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(size)
}

/// The logical sector size of the block device open as `f` (BLKSSZGET).
pub(crate) fn sector_size(f: &File) -> io::Result<u64> {
    let mut size: libc::c_int = 0;
    // SAFETY: BLKSSZGET writes one int through the pointer, which points to `size`.
    let rc = unsafe {
        libc::ioctl(
            f.as_raw_fd(),
            libc::BLKSSZGET as _,
            &mut size as *mut libc::c_int,
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    u64::try_from(size).map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))
}

/// Major and minor numbers of a device number (the glibc/kernel userspace encoding).
pub(crate) fn split_dev(dev: u64) -> (u32, u32) {
    let major = ((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0fff);
    let minor = ((dev >> 12) & 0xffff_ff00) | (dev & 0x00ff);
    (major as u32, minor as u32)
}

/// Parses a sysfs `dev` file or mountinfo field: `"253:0"`.
pub(crate) fn parse_dev(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.trim().split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The sysfs directory of block device `dev` (`/sys/dev/block/MAJ:MIN`, resolved), if any.
pub(crate) fn sysfs_block_dir(dev: u64) -> Option<PathBuf> {
    let (major, minor) = split_dev(dev);
    if major == 0 {
        return None;
    }
    std::fs::canonicalize(format!("/sys/dev/block/{major}:{minor}")).ok()
}

/// Takes an exclusive advisory lock (flock) on `f` without waiting: Ok(false) when another
/// open file already holds one. The lock lasts as long as the open file.
pub(crate) fn try_lock(f: &File) -> io::Result<bool> {
    // SAFETY: plain syscall on an fd we own; no memory is passed.
    let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        _ => Err(e),
    }
}

/// The processes holding a flock on the file of device `dev` and inode `ino`, from
/// /proc/locks (lines such as `1: FLOCK  ADVISORY  WRITE 1234 fe:00:770064 0 EOF`).
pub(crate) fn flock_holders(dev: u64, ino: u64) -> Vec<u32> {
    let (major, minor) = split_dev(dev);
    let id = format!("{major:02x}:{minor:02x}:{ino}");
    let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
    locks
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() > 5 && w[1] == "FLOCK" && w[5] == id)
        .filter_map(|w| w[4].parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocate_grows_and_shrinks_and_free_space_is_known() {
        let dir = tempfile::tempdir().unwrap();
        let f = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(dir.path().join("f"))
            .unwrap();
        allocate(&f, 1 << 20).unwrap();
        assert_eq!(f.metadata().unwrap().len(), 1 << 20);
        allocate(&f, 8192).unwrap();
        assert_eq!(f.metadata().unwrap().len(), 8192);
        assert!(free_bytes(&f).unwrap() > 0);
        // ioctls on a regular file fail cleanly.
        assert!(device_size(&f).is_err());
        assert!(sector_size(&f).is_err());
    }

    #[test]
    fn device_numbers() {
        // makedev(259, 3) and makedev(8, 1) in the glibc encoding.
        assert_eq!(split_dev((259 << 8) | 3), (259, 3));
        assert_eq!(split_dev(0x801), (8, 1));
        assert_eq!(
            split_dev(libc::makedev(0x12345, 0xab_cdef)),
            (0x12345, 0xab_cdef)
        );
        assert_eq!(parse_dev("253:0\n"), Some((253, 0)));
        assert_eq!(parse_dev("x"), None);
        assert_eq!(sysfs_block_dir(0), None);
    }
}
