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
}
