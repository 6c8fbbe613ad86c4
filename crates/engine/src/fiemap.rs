//! Where a file's bytes are on its device: the file system's extent map (FIEMAP), as
//! `filefrag -v` reads it, for attributing a device's requests to files.

use std::os::fd::AsRawFd;

/// `_IOWR('f', 11, struct fiemap)`.
const FS_IOC_FIEMAP: libc::c_ulong = 0xC020_660B;
/// Flush delayed allocations first, so every written byte has its place.
const FIEMAP_FLAG_SYNC: u32 = 0x1;
const FIEMAP_EXTENT_LAST: u32 = 0x1;
/// Extents per call.
const BATCH: usize = 256;

/// One extent: `length` bytes of the file from `logical` lie on the device from `physical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    pub logical: u64,
    pub physical: u64,
    pub length: u64,
    /// FIEMAP_EXTENT_* flags (unknown place, delayed allocation, inline, encoded...).
    pub flags: u32,
}

impl Extent {
    /// The extent's bytes sit where `physical` says, as they are (not unknown, delayed,
    /// inline in metadata, encoded or not aligned to blocks).
    pub fn in_place(&self) -> bool {
        // UNKNOWN 0x2, DELALLOC 0x4, ENCODED 0x8, DATA_ENCRYPTED 0x80, NOT_ALIGNED 0x100,
        // DATA_INLINE 0x200, DATA_TAIL 0x400.
        self.flags & (0x2 | 0x4 | 0x8 | 0x80 | 0x100 | 0x200 | 0x400) == 0
    }
}

/// `struct fiemap` followed by room for `BATCH` extents (`struct fiemap_extent`, 56 bytes).
#[repr(C)]
struct Request {
    start: u64,
    length: u64,
    flags: u32,
    mapped: u32,
    count: u32,
    reserved: u32,
    extents: [[u64; 7]; BATCH],
}

/// Every extent of `file`, in file order; an error where the file system has no FIEMAP
/// (tmpfs, some network file systems).
pub fn extents(file: &std::fs::File) -> std::io::Result<Vec<Extent>> {
    let mut out = Vec::new();
    let mut req = Box::new(Request {
        start: 0,
        length: u64::MAX,
        flags: FIEMAP_FLAG_SYNC,
        mapped: 0,
        count: BATCH as u32,
        reserved: 0,
        extents: [[0; 7]; BATCH],
    });
    loop {
        req.mapped = 0;
        // SAFETY: `req` is a `struct fiemap` with room for `count` extents after it, as the
        // ioctl expects; the kernel writes at most `count` extents into it.
        let rc = unsafe { libc::ioctl(file.as_raw_fd(), FS_IOC_FIEMAP, &mut *req as *mut Request) };
        if rc < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let got = (req.mapped as usize).min(BATCH);
        let mut last = got == 0;
        for e in &req.extents[..got] {
            // fe_logical, fe_physical, fe_length, two reserved, then fe_flags (low half).
            let x = Extent {
                logical: e[0],
                physical: e[1],
                length: e[2],
                flags: e[5] as u32,
            };
            last |= x.flags & FIEMAP_EXTENT_LAST != 0;
            out.push(x);
        }
        if last {
            return Ok(out);
        }
        let end = out.last().map_or(0, |e| e.logical + e.length);
        req.start = end;
        req.length = u64::MAX - end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_s_extents_cover_it() {
        // The crate's own folder: a disk's file system, as a target's would be.
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![7u8; 1 << 20]).unwrap();
        let f = std::fs::File::open(&path).unwrap();
        match extents(&f) {
            Ok(v) => {
                let bytes: u64 = v.iter().map(|e| e.length).sum();
                assert_eq!(bytes, 1 << 20, "{v:?}");
                assert!(v.iter().all(Extent::in_place), "{v:?}");
            }
            // A target folder on a file system without FIEMAP: nothing to check here.
            Err(e) => assert_eq!(e.raw_os_error(), Some(libc::EOPNOTSUPP), "{e}"),
        }
    }
}
