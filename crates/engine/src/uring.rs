//! The io_uring engine, built as fio's io_uring engine is: one ring per worker thread, single
//! issuer with deferred task work, registered files and buffers, submissions handed to the
//! kernel in small chunks as they are made, and nothing allocated per I/O.

use crate::buffer::SlotBuffers;
use crate::engine::{Engine, EngineSetup, Op, OpKind};
use crate::error::IoError;
use crate::ring_fd::{RingFd, ENTER_GETEVENTS};
use io_uring::{opcode, squeue, types, IoUring};
use std::os::fd::AsRawFd;
use std::time::Duration;

/// The most submissions one `io_uring_enter` carries. The kernel plugs a submission of more
/// than two I/Os (holds them until the whole batch is queued, then hands them to the driver
/// together): a whole queue's worth in one batch left the virtual disk idle meanwhile (8 KiB
/// random reads at QD 32: 12 % fewer IOPS than chunks of 2, bench/RESULTS.md), while chunks of
/// up to 8, the last one entering with the wait, cost a system call per three or four I/Os
/// instead of one per one or two at QD 32, for the same IOPS or more.
const SUBMIT_CHUNK: usize = 8;

/// An io_uring with its registered buffers; see the module docs.
pub struct UringEngine {
    /// Declared before the ring so that it is unregistered before the ring closes.
    enter: RingFd,
    ring: IoUring,
    bufs: SlotBuffers,
    features: Vec<String>,
    registered_bufs: bool,
    fds: Vec<i32>,
    sqpoll: bool,
}

/// Builds a ring with the fastest task-run mode this kernel accepts.
fn build_ring(
    entries: u32,
    setup: &EngineSetup,
    features: &mut Vec<String>,
) -> std::io::Result<IoUring> {
    let base = || {
        let mut b = IoUring::builder();
        b.setup_cqsize(entries * 2);
        if setup.hipri {
            b.setup_iopoll();
        }
        b
    };
    if setup.sqpoll {
        // SQPOLL excludes SINGLE_ISSUER's deferred task work: the kernel thread is the issuer.
        let ring = base().setup_sqpoll(1000).build(entries)?;
        features.push("sqpoll".into());
        return Ok(ring);
    }
    // Without the SQ's index array (6.6 and later) the kernel reads entries in ring order, as
    // t/io_uring sets it up; older kernels take the ring without.
    for no_sqarray in [true, false] {
        let mut b = base();
        b.setup_single_issuer().setup_defer_taskrun();
        if no_sqarray {
            b.setup_no_sqarray();
        }
        if let Ok(ring) = b.build(entries) {
            features.push("single-issuer".into());
            features.push("defer-taskrun".into());
            if no_sqarray {
                features.push("no-sq-array".into());
            }
            return Ok(ring);
        }
    }
    if let Ok(ring) = base()
        .setup_coop_taskrun()
        .setup_taskrun_flag()
        .build(entries)
    {
        features.push("coop-taskrun".into());
        return Ok(ring);
    }
    base().build(entries)
}

/// Most entries an io_uring ring holds (the kernel's IORING_MAX_ENTRIES).
pub const MAX_RING_ENTRIES: u32 = 32_768;
/// Most slots (I/Os in flight) one engine takes: its ring has room for every slot plus a
/// flush per slot, `2 * slots` entries rounded up to a power of two (see `new`).
pub const MAX_SLOTS: u32 = MAX_RING_ENTRIES / 2;

impl UringEngine {
    /// Sets up the ring and registers the targets and buffers.
    pub fn new(setup: &EngineSetup) -> std::io::Result<Self> {
        // Room for every slot plus a flush per slot, so pushes never find the SQ full.
        let entries = (setup.slots * 2).next_power_of_two().max(8);
        let mut features = Vec::new();
        let ring = build_ring(entries, setup, &mut features)?;
        if setup.hipri {
            features.push("iopoll".into());
        }
        ring.submitter().register_files(setup.fds)?;
        features.push("registered-files".into());
        let mut bufs = SlotBuffers::new(setup.slots, setup.slot_len);
        let base = bufs.mem().as_mut_ptr();
        let iovecs: Vec<libc::iovec> = (0..setup.slots as usize)
            .map(|i| libc::iovec {
                // SAFETY: each slot's two halves lie inside the allocation of 2 * slots * slot_len bytes.
                iov_base: unsafe { base.add(2 * i * setup.slot_len) }.cast(),
                iov_len: 2 * setup.slot_len,
            })
            .collect();
        // SAFETY: the iovecs point into `bufs`, which lives as long as the ring (both are fields
        // of self, and the ring is dropped first, unregistering them).
        let registered_bufs = setup.slots <= u16::MAX as u32
            && unsafe { ring.submitter().register_buffers(&iovecs) }.is_ok();
        if registered_bufs {
            features.push("registered-buffers".into());
        }
        let enter = RingFd::register(ring.as_raw_fd());
        if enter.registered() {
            features.push("registered-ring".into());
        }
        Ok(UringEngine {
            enter,
            ring,
            bufs,
            features,
            registered_bufs,
            fds: setup.fds.to_vec(),
            sqpoll: setup.sqpoll,
        })
    }

    fn enter_error(&self, e: std::io::Error) -> IoError {
        IoError::on(
            "io_uring_enter",
            &format!("ring of {} target(s)", self.fds.len()),
            e,
        )
    }

    /// Puts `op` in the submission queue.
    #[inline]
    fn push(&mut self, op: &Op) -> Result<(), IoError> {
        let e = self.entry(op);
        // SAFETY: the buffer behind the entry stays valid and untouched by the worker until
        // its completion is reaped (the worker owns the slot until then).
        if unsafe { self.ring.submission().push(&e) }.is_err() {
            // Cannot happen: the SQ has room for twice the slots; submit and retry anyway.
            self.ring
                .submit()
                .map_err(|e| IoError::on("io_uring_enter", "ring", e))?;
            // SAFETY: as above.
            let _ = unsafe { self.ring.submission().push(&e) };
        }
        Ok(())
    }

    /// Submits what is queued and runs deferred completions, without blocking.
    #[inline]
    fn enter_nowait(&mut self) -> Result<(), IoError> {
        let to_submit = self.ring.submission().len() as u32;
        let res = self.enter.enter(to_submit, 0, ENTER_GETEVENTS, None);
        self.checked(res)
    }

    /// With SQPOLL: waits for `wait` completions through the io-uring crate, whose call also
    /// wakes the kernel thread when it has gone to sleep.
    fn wait_sqpoll(&self, wait: u32, timeout: Option<Duration>) -> std::io::Result<()> {
        let submitter = self.ring.submitter();
        match timeout.filter(|_| wait > 0).map(types::Timespec::from) {
            Some(ts) => {
                let args = types::SubmitArgs::new().timespec(&ts);
                submitter.submit_with_args(wait as usize, &args)
            }
            None => submitter.submit_and_wait(wait as usize),
        }
        .map(|_| ())
    }

    /// An entry's result as the worker sees it: transient errors only mean "go round again".
    #[inline]
    fn checked(&self, res: std::io::Result<()>) -> Result<(), IoError> {
        match res {
            Err(e) if !transient(&e) => Err(self.enter_error(e)),
            _ => Ok(()),
        }
    }

    fn entry(&mut self, op: &Op) -> squeue::Entry {
        let fd = types::Fixed(op.target);
        let ud = op.slot as u64;
        let ptr = self
            .bufs
            .half(op.slot, op.kind == OpKind::Write)
            .as_mut_ptr();
        match op.kind {
            OpKind::Read if self.registered_bufs => {
                opcode::ReadFixed::new(fd, ptr, op.len, op.slot as u16)
                    .offset(op.offset)
                    .build()
            }
            OpKind::Write if self.registered_bufs => {
                opcode::WriteFixed::new(fd, ptr, op.len, op.slot as u16)
                    .offset(op.offset)
                    .build()
            }
            OpKind::Read => opcode::Read::new(fd, ptr, op.len).offset(op.offset).build(),
            OpKind::Write => opcode::Write::new(fd, ptr, op.len)
                .offset(op.offset)
                .build(),
            OpKind::Fdatasync => opcode::Fsync::new(fd)
                .flags(types::FsyncFlags::DATASYNC)
                .build(),
            OpKind::Fsync => opcode::Fsync::new(fd).build(),
        }
        .user_data(ud)
    }
}

/// Errors of io_uring_enter that only mean "try again": a timeout, a signal, a full CQ.
fn transient(e: &std::io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::ETIME) | Some(libc::EINTR) | Some(libc::EBUSY) | Some(libc::EAGAIN)
    )
}

impl Engine for UringEngine {
    #[inline]
    fn submit(&mut self, ops: &[Op], wait: u32, timeout: Option<Duration>) -> Result<(), IoError> {
        if self.sqpoll {
            // The kernel thread submits whatever is pushed.
            for op in ops {
                self.push(op)?;
            }
            let res = self.wait_sqpoll(wait, timeout);
            return self.checked(res);
        }
        // Each chunk enters the kernel as soon as it is made; the last one enters with the
        // wait below, in one call (each entry also runs the deferred completions).
        let mut chunks = ops.chunks(SUBMIT_CHUNK).peekable();
        while let Some(chunk) = chunks.next() {
            for op in chunk {
                self.push(op)?;
            }
            if wait == 0 || chunks.peek().is_some() {
                self.enter_nowait()?;
            }
        }
        if wait == 0 {
            return Ok(());
        }
        // Submit what is queued and block until `wait` completions are ready (the kernel runs
        // the deferred completions first and returns at once when they already are).
        let to_submit = self.ring.submission().len() as u32;
        let res = self.enter.enter(to_submit, wait, ENTER_GETEVENTS, timeout);
        self.checked(res)
    }

    #[inline]
    fn reap<F: FnMut(u32, i32)>(&mut self, mut f: F) {
        for cqe in self.ring.completion() {
            f(cqe.user_data() as u32, cqe.result());
        }
    }

    fn buf(&mut self, slot: u32) -> &mut [u8] {
        self.bufs.half(slot, true)
    }

    fn read_buf(&mut self, slot: u32) -> &[u8] {
        self.bufs.half(slot, false)
    }

    fn features(&self) -> Vec<String> {
        self.features.clone()
    }
}
