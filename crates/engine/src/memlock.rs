//! Memory held locked in RAM for a while (pgio's reduce-free-memory step): an anonymous
//! mapping locked with mlock, so that the page cache has that much less room and a database's
//! reads go to the device. Unlocked and unmapped on drop.

/// Memory a run keeps out of the host's reach; freed on drop.
pub struct LockedMemory {
    ptr: *mut libc::c_void,
    len: usize,
}

/// Why memory could not be locked: the size, the cause and what to do.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The host has not that much available beyond what it keeps for itself.
    #[error(
        "cannot lock {} MiB: the host has {} MiB available and keeps {} MiB for itself; give a smaller size",
        *bytes >> 20,
        *avail >> 20,
        LEAVE >> 20
    )]
    NoRoom {
        /// Bytes asked for.
        bytes: u64,
        /// Bytes the host has available.
        avail: u64,
    },
    /// The anonymous mapping could not be made.
    #[error("cannot map {} MiB to lock: {source}", *bytes >> 20)]
    Map {
        /// Bytes asked for.
        bytes: u64,
        /// The OS error of mmap.
        source: std::io::Error,
    },
    /// mlock refused (most often the locked-memory limit).
    #[error(
        "cannot lock {} MiB: {source}; raise the locked-memory limit (ulimit -l, LimitMEMLOCK) or run with CAP_IPC_LOCK",
        *bytes >> 20
    )]
    Lock {
        /// Bytes asked for.
        bytes: u64,
        /// The OS error of mlock.
        source: std::io::Error,
    },
}

/// Bytes left available to the host when asked to lock more (the rest of the host needs room).
const LEAVE: u64 = 256 << 20;

impl LockedMemory {
    /// Locks `bytes` of memory; an error naming the cause and what to do when the host has not
    /// that much available or the lock is refused.
    pub fn lock(bytes: u64) -> Result<LockedMemory, LockError> {
        room_for(bytes, crate::facts::mem_available())?;
        let len = bytes as usize;
        // SAFETY: a new private anonymous mapping (no file, no address given): it aliases
        // nothing, and the result is checked against MAP_FAILED before any use.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(LockError::Map {
                bytes,
                source: std::io::Error::last_os_error(),
            });
        }
        let held = LockedMemory { ptr, len };
        // SAFETY: ptr..ptr+len is exactly the mapping made above, still mapped (held owns it).
        if unsafe { libc::mlock(held.ptr, held.len) } != 0 {
            return Err(LockError::Lock {
                bytes,
                source: std::io::Error::last_os_error(),
            });
        }
        Ok(held)
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.len as u64
    }
}

impl Drop for LockedMemory {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `lock`, unmapped once here (munmap also unlocks it).
        unsafe {
            libc::munmap(self.ptr, self.len);
        }
    }
}

/// Refuses to lock `bytes` when the host has not that much available (`avail`, bytes) beyond
/// the [`LEAVE`] it keeps for itself; when availability is unknown, mlock decides.
fn room_for(bytes: u64, avail: Option<u64>) -> Result<(), LockError> {
    match avail {
        Some(avail) if bytes.saturating_add(LEAVE) > avail => {
            Err(LockError::NoRoom { bytes, avail })
        }
        _ => Ok(()),
    }
}

/// Memory process `pid` ("self" for this one) holds locked, by the kernel's count (VmLck of
/// /proc/PID/status), bytes; None once it has gone.
pub fn locked_bytes(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmLck:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This process's locked memory by the kernel's count.
    fn vm_lck() -> u64 {
        locked_bytes("self").expect("VmLck in /proc/self/status")
    }

    #[test]
    fn refuses_more_than_the_host_has_available() {
        let e = room_for(1 << 30, Some(1 << 30)).unwrap_err().to_string();
        assert!(
            e.contains("cannot lock 1024 MiB") && e.contains("1024 MiB available"),
            "{e}"
        );
        assert!(room_for(1 << 30, Some((1 << 30) + LEAVE)).is_ok());
        assert!(room_for(u64::MAX, None).is_ok());
        // Through lock itself, whether /proc/meminfo is readable or not: no host maps this.
        assert!(LockedMemory::lock(u64::MAX >> 2).is_err());
    }

    /// A lock is the kernel's: VmLck grows by it while it is held and shrinks by it after.
    /// As root (CAP_IPC_LOCK) 4 MiB must be locked; otherwise only the locked-memory limit
    /// may refuse it, and the error must say how to raise it.
    #[test]
    fn a_lock_shows_in_vmlck_while_held() {
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let before = vm_lck();
        let m = match LockedMemory::lock(4 << 20) {
            Ok(m) => m,
            Err(e) => {
                assert!(!root, "as root a 4 MiB lock must succeed: {e}");
                assert!(e.to_string().contains("ulimit -l"), "{e}");
                return;
            }
        };
        assert_eq!(m.bytes(), 4 << 20);
        let held = vm_lck();
        assert!(
            held >= before + (4 << 20),
            "VmLck {before} -> {held} bytes with 4 MiB locked"
        );
        drop(m);
        let after = vm_lck();
        assert!(
            after + (4 << 20) <= held,
            "VmLck {held} -> {after} bytes after 4 MiB were unlocked"
        );
    }
}
