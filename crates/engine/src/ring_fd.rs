//! The ring's own file descriptor registered with the kernel (IORING_REGISTER_RING_FDS), so
//! that each `io_uring_enter` skips the per-call file lookup, as fio's `t/io_uring` does. The
//! io-uring crate keeps a registered index only inside one short-lived `Submitter`, so the
//! engine registers and enters itself here.

use std::io;
use std::os::fd::RawFd;
use std::time::Duration;

/// From the kernel's UAPI (`include/uapi/linux/io_uring.h`).
const REGISTER_RING_FDS: libc::c_long = 20;
const UNREGISTER_RING_FDS: libc::c_long = 21;
/// IORING_ENTER_GETEVENTS: wait for (and run deferred) completions.
pub const ENTER_GETEVENTS: u32 = 1;
const ENTER_EXT_ARG: u32 = 1 << 3;
const ENTER_REGISTERED_RING: u32 = 1 << 4;

/// `struct io_uring_rsrc_update`: one entry of a registration.
#[repr(C)]
struct RsrcUpdate {
    offset: u32,
    resv: u32,
    data: u64,
}

/// `struct io_uring_getevents_arg`: the extended argument carrying a wait's timeout.
#[repr(C)]
struct GeteventsArg {
    sigmask: u64,
    sigmask_sz: u32,
    min_wait_usec: u32,
    ts: u64,
}

/// `struct __kernel_timespec`.
#[repr(C)]
struct KernelTimespec {
    tv_sec: i64,
    tv_nsec: i64,
}

/// How one ring is entered: by its index in the registering thread's table of registered
/// rings when the kernel took the registration (5.18 and later), else (and from any other
/// thread, where that index means nothing or another ring) by its plain descriptor.
pub struct RingFd {
    ring: RawFd,
    index: RawFd,
    registered: bool,
    thread: usize,
}

thread_local! {
    /// A per-thread byte whose address tells threads apart at the cost of one TLS access.
    static THREAD_MARK: u8 = const { 0 };
}

/// The calling thread's mark (see [`THREAD_MARK`]).
#[inline]
fn this_thread() -> usize {
    THREAD_MARK.with(|m| m as *const u8 as usize)
}

impl RingFd {
    /// Registers `ring` for the calling thread, falling back to its plain descriptor.
    pub fn register(ring: RawFd) -> RingFd {
        let mut up = RsrcUpdate {
            offset: u32::MAX, // the kernel picks a free index and writes it here
            resv: 0,
            data: ring as u64,
        };
        // SAFETY: `up` is a valid io_uring_rsrc_update the kernel reads and writes for the call.
        let n = unsafe {
            libc::syscall(
                libc::SYS_io_uring_register,
                ring,
                REGISTER_RING_FDS,
                &mut up as *mut RsrcUpdate,
                1,
            )
        };
        RingFd {
            ring,
            index: up.offset as RawFd,
            registered: n == 1,
            thread: this_thread(),
        }
    }

    /// Whether the kernel took the registration.
    pub fn registered(&self) -> bool {
        self.registered && self.thread == this_thread()
    }

    /// Whether the registered index serves the calling thread.
    #[inline]
    fn usable(&self) -> bool {
        self.registered && self.thread == this_thread()
    }

    /// `io_uring_enter`: submits `to_submit` entries and, with ENTER_GETEVENTS in `flags`,
    /// waits until `min_complete` completions are ready or `timeout` has passed.
    #[inline]
    pub fn enter(
        &self,
        to_submit: u32,
        min_complete: u32,
        flags: u32,
        timeout: Option<Duration>,
    ) -> io::Result<()> {
        let ts = timeout.map(|t| KernelTimespec {
            tv_sec: t.as_secs() as i64,
            tv_nsec: t.subsec_nanos() as i64,
        });
        let arg = ts.as_ref().map(|ts| GeteventsArg {
            sigmask: 0,
            sigmask_sz: 0,
            min_wait_usec: 0,
            ts: ts as *const KernelTimespec as u64,
        });
        let (flags, argp, argsz) = match &arg {
            Some(a) => (
                flags | ENTER_EXT_ARG,
                a as *const GeteventsArg,
                size_of::<GeteventsArg>(),
            ),
            None => (flags, std::ptr::null(), 0),
        };
        let (fd, flags) = if self.usable() {
            (self.index, flags | ENTER_REGISTERED_RING)
        } else {
            (self.ring, flags)
        };
        // SAFETY: `argp` is null or points at a getevents argument (and its timespec) that
        // live until the call returns; the ring's entries were written through the io-uring
        // crate's queue, whose tail the kernel reads.
        let r = unsafe {
            libc::syscall(
                libc::SYS_io_uring_enter,
                fd,
                to_submit,
                min_complete,
                flags,
                argp,
                argsz,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

impl Drop for RingFd {
    fn drop(&mut self) {
        if !self.usable() {
            return; // not registered, or another thread's: that thread's exit releases it
        }
        let mut up = RsrcUpdate {
            offset: self.index as u32,
            resv: 0,
            data: 0,
        };
        // SAFETY: as in `register`; the registration holds a reference to the ring, which
        // this drops (the ring itself is closed by its owner, after this).
        unsafe {
            libc::syscall(
                libc::SYS_io_uring_register,
                self.ring,
                UNREGISTER_RING_FDS,
                &mut up as *mut RsrcUpdate,
                1,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use io_uring::IoUring;
    use std::os::fd::AsRawFd;
    use std::time::Instant;

    /// A wait with nothing in flight ends at its timeout (ETIME), through the registered index.
    #[test]
    fn a_wait_on_an_idle_ring_ends_at_its_timeout() {
        let ring = IoUring::new(8).unwrap();
        let fd = RingFd::register(ring.as_raw_fd());
        assert!(fd.registered(), "kernels since 5.18 take the registration");
        let t = Instant::now();
        let e = fd
            .enter(0, 1, ENTER_GETEVENTS, Some(Duration::from_millis(20)))
            .unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ETIME));
        assert!(t.elapsed() >= Duration::from_millis(20));
    }

    /// Another thread has no such index (EBADF), or another ring's: it enters by descriptor.
    #[test]
    fn another_thread_enters_by_the_plain_descriptor() {
        let ring = IoUring::new(8).unwrap();
        let fd = RingFd::register(ring.as_raw_fd());
        std::thread::scope(|s| {
            s.spawn(|| fd.enter(0, 0, ENTER_GETEVENTS, None).unwrap());
        });
        fd.enter(0, 0, ENTER_GETEVENTS, None).unwrap();
    }
}
