//! Whole-host CPU use from /proc/stat, to tell a host-CPU-bound run and to show where CPU went.

/// Jiffies from the aggregate "cpu" line of /proc/stat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HostTicks {
    pub busy: u64,
    pub total: u64,
}

/// Reads the aggregate line of /proc/stat (zeros where it cannot be read).
pub fn host_ticks() -> HostTicks {
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| s.lines().next().map(parse_cpu_line))
        .unwrap_or_default()
}

/// Parses `cpu  user nice system idle iowait irq softirq steal guest guest_nice`;
/// idle and iowait count as not busy, guest time is already inside user.
pub fn parse_cpu_line(line: &str) -> HostTicks {
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    HostTicks {
        busy: total.saturating_sub(idle),
        total,
    }
}

/// One CPU's jiffies from its `cpuN` line of /proc/stat, by where they went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTicks {
    pub id: u32,
    /// user + nice
    pub user: u64,
    /// system + irq + softirq
    pub kernel: u64,
    /// idle + iowait
    pub idle: u64,
    /// All of the above and steal.
    pub total: u64,
}

/// Reads each CPU's line of /proc/stat (empty where it cannot be read).
pub fn per_cpu_ticks() -> Vec<CpuTicks> {
    std::fs::read_to_string("/proc/stat")
        .map(|s| s.lines().filter_map(parse_one_cpu).collect())
        .unwrap_or_default()
}

/// Parses a `cpuN user nice system idle iowait irq softirq steal …` line; None for the
/// aggregate `cpu` line and any other.
pub fn parse_one_cpu(line: &str) -> Option<CpuTicks> {
    let mut words = line.split_whitespace();
    let id = words.next()?.strip_prefix("cpu")?.parse().ok()?;
    let v: Vec<u64> = words.take(8).filter_map(|x| x.parse().ok()).collect();
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    Some(CpuTicks {
        id,
        user: at(0) + at(1),
        kernel: at(2) + at(5) + at(6),
        idle: at(3) + at(4),
        total: v.iter().sum(),
    })
}

/// Each CPU's shares of its time between two readings (CPUs in both, with time passed).
pub fn cpu_shares(before: &[CpuTicks], after: &[CpuTicks]) -> Vec<dbio_model::CpuShare> {
    let pct = |x: u64, y: u64, total: u64| x.saturating_sub(y) as f64 * 100.0 / total as f64;
    after
        .iter()
        .filter_map(|a| {
            let b = before.iter().find(|b| b.id == a.id)?;
            let total = a.total.checked_sub(b.total).filter(|&t| t > 0)?;
            Some(dbio_model::CpuShare {
                id: a.id,
                user_pct: pct(a.user, b.user, total),
                kernel_pct: pct(a.kernel, b.kernel, total),
                idle_pct: pct(a.idle, b.idle, total),
            })
        })
        .collect()
}

/// Busy share of the host between two readings, in percent.
pub fn busy_pct(before: HostTicks, after: HostTicks) -> f64 {
    let total = after.total.saturating_sub(before.total);
    if total == 0 {
        return 0.0;
    }
    after.busy.saturating_sub(before.busy) as f64 * 100.0 / total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proc_stat_line() {
        let t = parse_cpu_line("cpu  100 5 50 800 40 3 2 0 0 0");
        assert_eq!(t.total, 1000);
        assert_eq!(t.busy, 160);
        let later = parse_cpu_line("cpu  200 5 100 1600 40 3 2 0 0 0");
        assert!((busy_pct(t, later) - 150.0 / 950.0 * 100.0).abs() < 1e-9);
    }

    /// Each cpuN line by itself, the aggregate left out; shares by hand: cpu1 moved 100
    /// jiffies, 30 user (20 + nice 10), 20 kernel (10 + irq 5 + softirq 5), 40 idle
    /// (35 + iowait 5) and 10 stolen; cpu0 moved 20, all user.
    #[test]
    fn each_cpu_s_share_of_its_time() {
        let read = |s: &str| s.lines().filter_map(parse_one_cpu).collect::<Vec<_>>();
        let before = read("cpu  9 9 9 9\ncpu0 0 0 0 100 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n");
        let after =
            read("cpu  9 9 9 9\ncpu0 20 0 0 100 0 0 0 0\ncpu1 20 10 10 35 5 5 5 10 0 0\nintr 5\n");
        assert_eq!(before.len(), 2);
        let s = cpu_shares(&before, &after);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].id, s[0].user_pct, s[0].idle_pct), (0, 100.0, 0.0));
        assert_eq!(s[1].id, 1);
        assert_eq!(
            (s[1].user_pct, s[1].kernel_pct, s[1].idle_pct),
            (30.0, 20.0, 40.0)
        );
        assert_eq!(parse_one_cpu("cpu  1 2 3"), None);
        assert_eq!(parse_one_cpu("intr 5"), None);
    }
}
