//! Host and target facts from /proc and sysfs, for the run result. Any of these reads may
//! fail (containers, overlayfs, tmpfs have no block device): a fact that cannot be read is
//! left out or "unknown", never a panic.

use crate::device::sys::{sector_size, sysfs_block_dir};
use crate::device::{OpenTarget, TargetKind};
use dbio_model::{HostFacts, TargetFacts};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

fn read_trimmed(path: impl AsRef<Path>) -> Option<String> {
    let s = std::fs::read_to_string(path).ok()?;
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn read_u64(path: impl AsRef<Path>) -> Option<u64> {
    read_trimmed(path)?.parse().ok()
}

/// The first `model name` in /proc/cpuinfo text.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "model name").then(|| value.trim().to_string())
    })
}

/// Number of `processor` entries in /proc/cpuinfo text.
fn cpuinfo_count(cpuinfo: &str) -> usize {
    cpuinfo
        .lines()
        .filter(|l| {
            l.split_once(':')
                .is_some_and(|(k, _)| k.trim() == "processor")
        })
        .count()
}

/// The value of `key` (e.g. "MemTotal") in bytes from /proc/meminfo text.
fn meminfo_bytes(meminfo: &str, key: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))?;
    let mut words = line[key.len() + 1..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    let mult = match words.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    n.checked_mul(mult)
}

/// The active entry of a sysfs `scheduler` file: `"[none] mq-deadline"` gives `"none"`.
fn active_scheduler(s: &str) -> Option<String> {
    let s = s.trim();
    if let Some(start) = s.find('[') {
        let rest = &s[start + 1..];
        return rest.find(']').map(|end| rest[..end].to_string());
    }
    // Devices without a choice (dm, some virtual ones) print a single word.
    let mut words = s.split_whitespace();
    match (words.next(), words.next()) {
        (Some(one), None) => Some(one.to_string()),
        _ => None,
    }
}

/// Memory this host has available for new work now (MemAvailable of /proc/meminfo), bytes;
/// None when it cannot be read.
pub fn mem_available() -> Option<u64> {
    meminfo_bytes(
        &std::fs::read_to_string("/proc/meminfo").ok()?,
        "MemAvailable",
    )
}

/// Facts of this machine: host name, CPU model and count, memory, kernel release.
pub fn host_facts() -> HostFacts {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or_else(|_| cpuinfo_count(&cpuinfo))
        .max(1);
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    HostFacts {
        hostname: read_trimmed("/proc/sys/kernel/hostname").unwrap_or_else(|| "unknown".into()),
        cpu_model: cpu_model(&cpuinfo).unwrap_or_else(|| "unknown".into()),
        cpus: u32::try_from(cpus).unwrap_or(u32::MAX),
        memory_bytes: meminfo_bytes(&meminfo, "MemTotal").unwrap_or(0),
        kernel: read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()),
    }
}

/// The device number of the block device under `t`: the device itself, or the one holding the file.
fn device_number(t: &OpenTarget) -> Option<u64> {
    let md = t.file.metadata().ok()?;
    Some(match t.kind {
        TargetKind::Block => md.rdev(),
        TargetKind::File => md.dev(),
    })
}

/// Facts of `t` and of the block device under it, from sysfs (queue facts of a partition
/// are those of its disk; `device` is the partition's own name).
pub fn target_facts(t: &OpenTarget) -> TargetFacts {
    let mut f = TargetFacts {
        path: t.path.clone(),
        kind: match t.kind {
            TargetKind::File => "file",
            TargetKind::Block => "block",
        }
        .to_string(),
        size_bytes: t.size,
        medium: crate::medium::memory_medium(t),
        ..TargetFacts::default()
    };
    let Some(dir) = device_number(t).and_then(sysfs_block_dir) else {
        return f;
    };
    f.device = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let disk = match dir.parent() {
        Some(parent) if dir.join("partition").exists() => parent.to_path_buf(),
        _ => dir,
    };
    let q = disk.join("queue");
    f.logical_block_size = read_u64(q.join("logical_block_size"));
    f.physical_block_size = read_u64(q.join("physical_block_size"));
    f.rotational = read_u64(q.join("rotational")).map(|r| r != 0);
    f.scheduler = read_trimmed(q.join("scheduler")).and_then(|s| active_scheduler(&s));
    f.nr_requests = read_u64(q.join("nr_requests"));
    f.write_cache = read_trimmed(q.join("write_cache"));
    (f.pcie_gen, f.pcie_lanes) = pcie_link(&disk).unzip();
    f
}

/// The PCIe link of the controller above a sysfs device directory: the nearest ancestor with
/// `current_link_speed` ("8.0 GT/s PCIe") and `current_link_width`, as (generation, lanes).
pub fn pcie_link(dir: &std::path::Path) -> Option<(u8, u8)> {
    let dir = std::fs::canonicalize(dir).ok()?;
    dir.ancestors().find_map(|d| {
        let speed = read_trimmed(d.join("current_link_speed"))?;
        let lanes = read_u64(d.join("current_link_width"))?;
        let gt: f64 = speed.split_whitespace().next()?.parse().ok()?;
        let gen = [2.5, 5.0, 8.0, 16.0, 32.0, 64.0]
            .iter()
            .position(|g| (g - gt).abs() < 0.01)?;
        (lanes > 0).then_some((gen as u8 + 1, lanes as u8))
    })
}

/// The logical block size under `t` (the smallest O_DIRECT unit), or 512 when unknown.
pub fn logical_block_size(t: &OpenTarget) -> u64 {
    if t.kind == TargetKind::Block {
        if let Ok(n) = sector_size(&t.file) {
            return n;
        }
    }
    device_number(t)
        .and_then(sysfs_block_dir)
        .and_then(|dir| {
            let disk = match dir.parent() {
                Some(parent) if dir.join("partition").exists() => parent.to_path_buf(),
                _ => dir,
            };
            read_u64(disk.join("queue/logical_block_size"))
        })
        .filter(|&n| n > 0)
        .unwrap_or(512)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{open_target, TargetOptions};

    #[test]
    fn finds_the_pcie_link_of_the_nearest_controller() {
        let root = tempfile::tempdir().unwrap();
        let ctrl = root.path().join("pci0000:00/0000:00:01.0");
        let disk = ctrl.join("nvme/nvme0/nvme0n1");
        std::fs::create_dir_all(&disk).unwrap();
        std::fs::write(ctrl.join("current_link_speed"), "8.0 GT/s PCIe\n").unwrap();
        std::fs::write(ctrl.join("current_link_width"), "4\n").unwrap();
        assert_eq!(pcie_link(&disk), Some((3, 4)));
        std::fs::write(ctrl.join("current_link_speed"), "Unknown\n").unwrap();
        assert_eq!(pcie_link(&disk), None);
    }

    #[test]
    fn parses_proc_and_sysfs_text() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(cpu_model(cpuinfo).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model("processor : 0\nBogoMIPS : 50\n"), None);
        assert_eq!(cpuinfo_count(cpuinfo), 2);
        let meminfo = "MemTotal:       16316412 kB\nMemFree: 1 kB\nMemAvailable:    8000 kB\n";
        assert_eq!(meminfo_bytes(meminfo, "MemTotal"), Some(16316412 * 1024));
        assert_eq!(meminfo_bytes(meminfo, "MemAvailable"), Some(8000 * 1024));
        assert_eq!(meminfo_bytes(meminfo, "Mem"), None);
        assert_eq!(meminfo_bytes("MemFree: 1 kB\n", "MemTotal"), None);
        assert_eq!(meminfo_bytes("MemTotal: lots kB\n", "MemTotal"), None);
        assert_eq!(
            active_scheduler("[none] mq-deadline\n").as_deref(),
            Some("none")
        );
        assert_eq!(
            active_scheduler("none [mq-deadline] kyber").as_deref(),
            Some("mq-deadline")
        );
        assert_eq!(active_scheduler("none").as_deref(), Some("none"));
        assert_eq!(active_scheduler("a b"), None);
        assert_eq!(active_scheduler("[broken"), None);
    }

    #[test]
    fn host_facts_of_this_machine() {
        let h = host_facts();
        assert!(h.cpus >= 1);
        assert!(h.memory_bytes > 0);
        assert!(mem_available().is_some_and(|a| a > 0 && a <= h.memory_bytes));
        assert!(!h.kernel.is_empty());
        assert!(!h.hostname.is_empty());
        assert!(!h.cpu_model.is_empty());
    }

    #[test]
    fn target_facts_of_a_file_name_its_device() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let opts = TargetOptions {
            size: Some(65536),
            ..Default::default()
        };
        let t = open_target(path.to_str().unwrap(), &opts).unwrap();
        let f = target_facts(&t);
        assert_eq!(f.kind, "file");
        assert_eq!(f.size_bytes, 65536);
        assert_eq!(f.path, t.path);
        let dev = std::fs::metadata(dir.path()).unwrap().dev();
        let (major, minor) = crate::device::sys::split_dev(dev);
        if !Path::new(&format!("/sys/dev/block/{major}:{minor}")).exists() {
            // tmpfs, overlayfs, btrfs subvolumes: no block device to describe.
            eprintln!(
                "note: {} is not on a block device; device facts not checked",
                dir.path().display()
            );
            assert_eq!(f.device, None);
            assert_eq!(logical_block_size(&t), 512);
            return;
        }
        assert!(f.device.as_deref().is_some_and(|d| !d.is_empty()), "{f:?}");
        let lbs = f.logical_block_size.expect("logical block size");
        assert!(lbs >= 512 && lbs.is_power_of_two(), "{lbs}");
        assert_eq!(logical_block_size(&t), lbs);
        assert!(f.physical_block_size.is_some_and(|p| p >= lbs));
        assert!(f.rotational.is_some());
    }
}
