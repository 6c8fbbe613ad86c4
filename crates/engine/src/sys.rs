//! Small wrappers over system calls the runner needs outside the I/O path: CPU times.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_thread_accumulates_user_time() {
        let before = thread_cpu();
        let t = std::time::Instant::now();
        let mut x = 0u64;
        while t.elapsed().as_millis() < 200 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let used = thread_cpu().since(before).total();
        assert!(used > 0.1, "a 200 ms busy loop used {used} s of CPU");
        assert!(process_cpu().total() >= used);
    }
}
