//! This host's /proc and /sys: a process's CPU, the block device holding a file, that
//! device's /proc/diskstats line, and free space under a path.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

/// Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux).
const HZ: f64 = 100.0;

/// A process's command name.
pub fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|s| s.trim().to_string())
}

/// The fields of /proc/PID/stat after the command name.
fn stat_fields(pid: &str) -> Option<Vec<u64>> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    Some(
        rest.split_whitespace()
            .skip(1)
            .map(|v| v.parse().unwrap_or(0))
            .collect(),
    )
}

/// A process's parent.
pub fn parent(pid: u32) -> Option<u32> {
    stat_fields(&pid.to_string()).and_then(|f| f.first().map(|p| *p as u32))
}

/// User + system CPU seconds of a process (all its threads).
pub fn cpu_s(pid: &str) -> Option<f64> {
    let f = stat_fields(pid)?;
    // After state: ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime.
    Some((f.get(10)? + f.get(11)?) as f64 / HZ)
}

/// CPU seconds of every pid in `pids` now (pids that have gone are left out).
pub fn cpu_of(pids: &[u32]) -> Vec<(u32, f64)> {
    pids.iter()
        .filter_map(|p| cpu_s(&p.to_string()).map(|c| (*p, c)))
        .collect()
}

/// CPU seconds spent between two readings by the processes in both.
pub fn cpu_between(before: &[(u32, f64)], after: &[(u32, f64)]) -> f64 {
    after
        .iter()
        .filter_map(|(p, a)| {
            before
                .iter()
                .find(|b| b.0 == *p)
                .map(|b| (a - b.1).max(0.0))
        })
        .sum()
}

/// The block device holding `path` (by its st_dev), e.g. "loop3"; None on a file system
/// without one (overlay, tmpfs, btrfs subvolumes) or a path not on this host.
pub fn device_of(path: &str) -> Option<String> {
    let dev = std::fs::metadata(path).ok()?.dev();
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let uevent = std::fs::read_to_string(format!("/sys/dev/block/{major}:{minor}/uevent")).ok()?;
    uevent
        .lines()
        .find_map(|l| l.strip_prefix("DEVNAME="))
        .map(str::to_string)
}

/// (busy, total) jiffies of the host from /proc/stat.
pub fn host_ticks() -> (u64, u64) {
    let line = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let v: Vec<u64> = line
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    (total.saturating_sub(idle), total)
}

/// A device's counters from /proc/diskstats.
#[derive(Debug, Clone, Copy, Default)]
pub struct Disk {
    pub reads: u64,
    pub reads_merged: u64,
    pub sectors_read: u64,
    pub read_ms: u64,
    pub writes: u64,
    pub sectors_written: u64,
    pub write_ms: u64,
    pub io_ms: u64,
    /// Time in flight summed over every request, ms (the weighted field).
    pub queue_ms: u64,
}

impl Disk {
    /// The counters of `name` now.
    pub fn read(name: &str) -> Option<Disk> {
        let text = std::fs::read_to_string("/proc/diskstats").ok()?;
        text.lines().find_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            if t.len() < 14 || t[2] != name {
                return None;
            }
            let f = |i: usize| t[i].parse::<u64>().unwrap_or(0);
            Some(Disk {
                reads: f(3),
                reads_merged: f(4),
                sectors_read: f(5),
                read_ms: f(6),
                writes: f(7),
                sectors_written: f(9),
                write_ms: f(10),
                io_ms: f(12),
                queue_ms: f(13),
            })
        })
    }

    /// What happened between `self` (before) and `after`.
    pub fn delta(&self, after: &Disk) -> Disk {
        Disk {
            reads: after.reads.saturating_sub(self.reads),
            reads_merged: after.reads_merged.saturating_sub(self.reads_merged),
            sectors_read: after.sectors_read.saturating_sub(self.sectors_read),
            read_ms: after.read_ms.saturating_sub(self.read_ms),
            writes: after.writes.saturating_sub(self.writes),
            sectors_written: after.sectors_written.saturating_sub(self.sectors_written),
            write_ms: after.write_ms.saturating_sub(self.write_ms),
            io_ms: after.io_ms.saturating_sub(self.io_ms),
            queue_ms: after.queue_ms.saturating_sub(self.queue_ms),
        }
    }
}

/// (bytes free for an unprivileged writer, size) of the file system holding `path`, by
/// statvfs (no `df` process: a run checks it every second); None when it cannot be read.
pub fn space(path: &str) -> Option<(u64, u64)> {
    dbio_engine::sys::fs_space(std::path::Path::new(path)).ok()
}

/// Bytes a run keeps free on the data's file system of `size` bytes: 5 % of it, at least
/// 128 MiB and at most 1 GiB (room for the server's own log and temporary files when dbio
/// stops, without refusing a small data set on a large, mostly full file system).
pub fn reserve(size: u64) -> u64 {
    (size / 20).clamp(128 << 20, 1 << 30)
}

/// The memory cgroup folder of process `pid` ("self" for this one) and the name of its limit
/// file: cgroup v1's memory.limit_in_bytes where the memory controller is on v1, else v2's
/// memory.max; None without cgroups.
pub fn memory_cgroup(pid: &str) -> Option<(PathBuf, &'static str)> {
    let lines = std::fs::read_to_string(format!("/proc/{pid}/cgroup")).ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let entry = |v1: bool| {
        lines.lines().find_map(|l| {
            let mut f = l.splitn(3, ':');
            let (id, controllers, path) = (f.next()?, f.next()?, f.next()?);
            let hit = if v1 {
                controllers.split(',').any(|c| c == "memory")
            } else {
                id == "0" && controllers.is_empty()
            };
            hit.then(|| path.to_string())
        })
    };
    if let (Some(path), Some(root)) = (entry(true), cgroup_mount(&mounts, true)) {
        return Some((
            root.join(path.trim_start_matches('/')),
            "memory.limit_in_bytes",
        ));
    }
    let (path, root) = (entry(false)?, cgroup_mount(&mounts, false)?);
    Some((root.join(path.trim_start_matches('/')), "memory.max"))
}

/// Where the v1 memory controller (`v1`) or the v2 hierarchy is mounted, from mountinfo.
fn cgroup_mount(mountinfo: &str, v1: bool) -> Option<PathBuf> {
    mountinfo.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let point = left.split_whitespace().nth(4)?;
        let mut r = right.split_whitespace();
        let (fstype, _, opts) = (r.next()?, r.next()?, r.next()?);
        let hit = if v1 {
            fstype == "cgroup" && opts.split(',').any(|o| o == "memory")
        } else {
            fstype == "cgroup2"
        };
        hit.then(|| PathBuf::from(point))
    })
}

/// The memory limit of process `pid`'s cgroup, the smallest on its way up to the root (page
/// cache it causes counts against it); None when it has none or it cannot be read.
pub fn memory_limit(pid: &str) -> Option<u64> {
    let (dir, file) = memory_cgroup(pid)?;
    dir.ancestors()
        .take_while(|d| d.join(file).exists())
        .filter_map(|d| std::fs::read_to_string(d.join(file)).ok())
        .filter_map(|v| v.trim().parse::<u64>().ok())
        .filter(|&v| v < 1 << 60)
        .min()
}

/// This host's memory, bytes (MemTotal).
pub fn mem_total() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |k| k * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_and_its_device() {
        assert!(cpu_s("self").is_some());
        assert!(comm(std::process::id()).is_some());
        assert!(parent(std::process::id()).is_some());
        // Whatever holds the crate's own folder: a name diskstats knows, or none at all.
        let (free, size) = space(env!("CARGO_MANIFEST_DIR")).expect("statvfs of the crate");
        assert!(size > 0 && free <= size, "{free} free of {size}");
        assert_eq!(space("/no/such/dbio/path"), None);
        if let Some(d) = device_of(env!("CARGO_MANIFEST_DIR")) {
            assert!(Disk::read(&d).is_some(), "{d} not in /proc/diskstats");
        }
    }
}
