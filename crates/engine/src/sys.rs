//! Small wrappers over system calls the runner needs outside the I/O path: CPU times,
//! keeping the CPUs out of idle states while measuring (and what a wake-up from them costs),
//! and a file system's free space.

use std::time::{Duration, Instant};

/// User and system CPU seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CpuTimes {
    pub user_s: f64,
    pub sys_s: f64,
}

impl CpuTimes {
    /// Time spent between `earlier` and `self`.
    pub fn since(self, earlier: CpuTimes) -> CpuTimes {
        CpuTimes {
            user_s: (self.user_s - earlier.user_s).max(0.0),
            sys_s: (self.sys_s - earlier.sys_s).max(0.0),
        }
    }
    /// User plus system.
    pub fn total(self) -> f64 {
        self.user_s + self.sys_s
    }
}

fn rusage(who: i32) -> CpuTimes {
    // SAFETY: rusage is plain old data, zero is a valid value, and getrusage only writes into it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage; `who` is RUSAGE_SELF or RUSAGE_THREAD.
    if unsafe { libc::getrusage(who, &mut ru) } != 0 {
        return CpuTimes::default();
    }
    let s = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    CpuTimes {
        user_s: s(ru.ru_utime),
        sys_s: s(ru.ru_stime),
    }
}

/// CPU times of the calling thread.
pub fn thread_cpu() -> CpuTimes {
    rusage(libc::RUSAGE_THREAD)
}

/// CPU times of the whole process (all threads).
pub fn process_cpu() -> CpuTimes {
    rusage(libc::RUSAGE_SELF)
}

/// Keeps every CPU out of its idle states for as long as it lives, through the kernel's PM
/// QoS (`/dev/cpu_dma_latency` held at 0 µs): a CPU waiting for an I/O then polls instead of
/// halting, so a completion is not also charged with the CPU's wake-up from idle (tens of
/// µs on a virtual machine, where a halted vCPU is woken by its hypervisor).
pub struct CpusAwake {
    _qos: std::fs::File,
}

/// Holds the CPUs awake (needs root); Err says why it could not.
pub fn hold_cpus_awake() -> std::io::Result<CpusAwake> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/cpu_dma_latency")?;
    // The kernel reads a binary 32-bit latency in µs; it holds while the file stays open.
    f.write_all(&0i32.to_ne_bytes())?;
    Ok(CpusAwake { _qos: f })
}

/// Sets the calling thread's timer slack to 1 ns: a paced worker's sleeps and timed waits
/// end when asked, not up to 50 µs later (the kernel's default slack).
pub fn tight_timers() {
    // SAFETY: PR_SET_TIMERSLACK sets this thread's timer slack to the integer given.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
}

/// The median time the calling thread takes to run again after sleeping `each`, beyond
/// `each`, over `n` sleeps: where the CPUs may enter idle states, mostly a CPU's wake-up from
/// idle, which a completion waited for at a low queue depth pays too. The thread's timer
/// slack is 1 ns meanwhile (by default the kernel may add up to 50 µs to a sleep).
pub fn wake_overshoot(n: usize, each: Duration) -> Duration {
    // SAFETY: PR_GET_TIMERSLACK reads this thread's timer slack; no pointer is passed.
    let slack = unsafe { libc::prctl(libc::PR_GET_TIMERSLACK, 0, 0, 0, 0) };
    // SAFETY: PR_SET_TIMERSLACK sets this thread's timer slack to the integer given.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
    let mut over: Vec<Duration> = (0..n.max(1))
        .map(|_| {
            let t = Instant::now();
            std::thread::sleep(each);
            t.elapsed().saturating_sub(each)
        })
        .collect();
    if slack > 0 {
        // SAFETY: as above, the slack the thread had.
        unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, slack as libc::c_ulong, 0, 0, 0) };
    }
    over.sort_unstable();
    over[over.len() / 2]
}

/// Drops `file`'s pages from the page cache (fio's `invalidate=1`), so that a buffered run
/// starts cold; dirty pages are written first, as only clean ones can be dropped.
pub fn drop_cached(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    file.sync_data()?;
    drop_clean_pages(file.as_raw_fd(), 0, 0)
}

/// Drops the clean pages of `len` bytes from `offset` (0: to the end) of the open file `fd`
/// from the page cache (dirty ones stay until written back), as fio does each time a buffered
/// job wraps round its file.
pub fn drop_clean_pages(fd: std::os::fd::RawFd, offset: u64, len: u64) -> std::io::Result<()> {
    let (offset, len) = (offset as libc::off_t, len as libc::off_t);
    // SAFETY: posix_fadvise only advises the kernel about an open file descriptor; no memory
    // of ours is passed.
    let rc = unsafe { libc::posix_fadvise(fd, offset, len, libc::POSIX_FADV_DONTNEED) };
    match rc {
        0 => Ok(()),
        e => Err(std::io::Error::from_raw_os_error(e)),
    }
}

/// Makes freed large allocations go back to the system at once. By default glibc raises its
/// mmap threshold to the largest block freed so far and keeps later blocks of that size in
/// its heap, so a long sweep's resident memory creeps up with every step's results even
/// though each is freed. Blocks of 128 KiB or more then always get a mapping of their own
/// (none is made in the I/O path). A no-op on other C libraries.
pub fn return_freed_memory() {
    #[cfg(target_env = "gnu")]
    // SAFETY: mallopt only changes a setting of glibc's allocator; it takes two integers and
    // touches no memory of ours.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// (bytes free for an unprivileged writer, size in bytes) of the file system holding `path`,
/// by statvfs: no process is started (as `df` would be), so it is cheap enough to check
/// every second of a run.
pub fn fs_space(path: &std::path::Path) -> std::io::Result<(u64, u64)> {
    crate::device::sys::space(&std::fs::File::open(path)?)
}

/// CLOCK_MONOTONIC in nanoseconds: the clock tracefs's `mono` trace clock stamps events with.
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The process runs as root (effective user 0).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_space_of_a_folder_and_of_a_file_in_it() {
        let dir = tempfile::tempdir().unwrap();
        let (free, size) = fs_space(dir.path()).unwrap();
        assert!(size > 0 && free <= size, "{free} free of {size}");
        let file = dir.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        // The same file system, seen through a file: the same size.
        assert_eq!(fs_space(&file).unwrap().1, size);
        assert!(fs_space(&dir.path().join("none")).is_err());
    }

    /// A sleep's overshoot is measured beyond the sleep: never the sleep itself, and under a
    /// second however loaded the machine.
    #[test]
    fn a_wake_up_is_measured_beyond_the_sleep() {
        let each = Duration::from_millis(2);
        let t = Instant::now();
        let over = wake_overshoot(5, each);
        assert!(
            t.elapsed() >= each * 5,
            "five sleeps of 2 ms took {:?}",
            t.elapsed()
        );
        assert!(over < Duration::from_secs(1), "{over:?}");
        assert!(
            t.elapsed() >= each * 5 + over * 3,
            "the median overshoot {over:?} is one of the five"
        );
    }

    #[test]
    fn busy_thread_accumulates_user_time() {
        // Spin until the thread's own clock shows 50 ms of CPU (however loaded the machine);
        // a clock that never moves fails at the deadline.
        let before = thread_cpu();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let mut x = 0u64;
        let used = loop {
            for _ in 0..100_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            let used = thread_cpu().since(before);
            if used.total() >= 0.05 || std::time::Instant::now() > deadline {
                break used;
            }
        };
        std::hint::black_box(x);
        assert!(
            used.total() >= 0.05,
            "20 s of spinning showed {} s of thread CPU",
            used.total()
        );
        assert!(used.user_s > 0.0, "a busy loop runs in user mode");
        assert!(process_cpu().total() >= used.total());
    }
}
