//! Memory held locked in RAM for a while (pgio's reduce-free-memory step): an anonymous
//! mapping locked with mlock, so that the page cache has that much less room and a database's
//! reads go to the device. Unlocked and unmapped on drop.

/// Memory a run keeps out of the host's reach; freed on drop.
pub struct LockedMemory {
    ptr: *mut libc::c_void,
    len: usize,
}

/// Bytes left available to the host when asked to lock more (the rest of the host needs room).
const LEAVE: u64 = 256 << 20;

impl LockedMemory {
    /// Locks `bytes` of memory; an error naming the cause and what to do when the host has not
    /// that much available or the lock is refused.
    pub fn lock(bytes: u64) -> Result<LockedMemory, String> {
        let avail = crate::facts::mem_available().unwrap_or(u64::MAX);
        if bytes.saturating_add(LEAVE) > avail {
            return Err(format!(
                "cannot lock {} MiB: the host has {} MiB available and keeps {} MiB for itself; give a smaller size",
                bytes >> 20,
                avail >> 20,
                LEAVE >> 20
            ));
        }
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
            return Err(format!(
                "cannot map {} MiB to lock: {}",
                bytes >> 20,
                std::io::Error::last_os_error()
            ));
        }
        let held = LockedMemory { ptr, len };
        // SAFETY: ptr..ptr+len is exactly the mapping made above, still mapped (held owns it).
        if unsafe { libc::mlock(held.ptr, held.len) } != 0 {
            return Err(format!(
                "cannot lock {} MiB: {}; raise the locked-memory limit (ulimit -l, LimitMEMLOCK) or run with CAP_IPC_LOCK",
                bytes >> 20,
                std::io::Error::last_os_error()
            ));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_and_refuses_more_than_the_host_has() {
        let e = LockedMemory::lock(u64::MAX >> 2).err().unwrap();
        assert!(e.contains("available"), "{e}");
        if let Ok(m) = LockedMemory::lock(4 << 20) {
            assert_eq!(m.bytes(), 4 << 20);
        }
    }
}
