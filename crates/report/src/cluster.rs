//! The part of a merged result's summary that a single run does not have: a row per host,
//! the hosts that gave nothing, the spread and how the clocks lined up.

use dbio_model::cluster::{Cluster, HostDir};
use dbio_model::RunResult;
use std::fmt::Write;

fn dir_cells(d: &Option<HostDir>) -> String {
    match d {
        Some(d) => format!(
            "{:>10.0} {:>8.1} {:>8.0} {:>8.0} {:>8.0}",
            d.iops, d.mb_s, d.p50_us, d.p99_us, d.p99_9_us
        ),
        None => format!("{:>10} {:>8} {:>8} {:>8} {:>8}", "-", "-", "-", "-", "-"),
    }
}

/// The per-host table of a merged result (None for a single host's run).
pub fn table(r: &RunResult) -> Option<String> {
    let c = r.cluster.as_ref()?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nhosts: {} merged exactly over the {:.1} s all of them measured (start skew {:.1} ms)",
        c.hosts.len(),
        c.window_secs,
        c.start_skew_ms
    );
    let w = c
        .hosts
        .iter()
        .map(|h| h.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        s,
        "{:<w$} {:>10} {:>8} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8} {:>8} {:>8} {:>6}  verdict",
        "host",
        "read IOPS",
        "MB/s",
        "p50 µs",
        "p99 µs",
        "p99.9",
        "write IOPS",
        "MB/s",
        "p50 µs",
        "p99 µs",
        "p99.9",
        "CPU%"
    );
    for h in &c.hosts {
        let verdict = if h.outcome != "complete" {
            h.outcome.clone()
        } else {
            h.verdict.clone().unwrap_or_default()
        };
        let _ = writeln!(
            s,
            "{:<w$} {} {} {:>6.0}  {verdict}",
            h.name,
            dir_cells(&h.read),
            dir_cells(&h.write),
            h.cpu_pct
        );
    }
    for f in &c.failed {
        let _ = writeln!(s, "{:<w$} no result: {}", f.name, f.reason);
    }
    for n in notes(c) {
        let _ = writeln!(s, "{n}");
    }
    Some(s)
}

/// The notes under a merged result's host table, in the summary and on the page: the slowest
/// host and the highest p99 (when there are several hosts), then the clocks (when measured).
pub fn notes(c: &Cluster) -> Vec<String> {
    let mut out = Vec::new();
    if c.hosts.len() > 1 {
        out.push(format!(
            "slowest: {} ({:.1} % below the hosts' mean IOPS); highest p99: {} ({:.0} µs)",
            c.spread.slowest,
            c.spread.slowest_below_mean_pct,
            c.spread.worst_p99,
            c.spread.worst_p99_us
        ));
    }
    if !c.clock_offsets.is_empty() {
        let offsets: Vec<String> = c
            .clock_offsets
            .iter()
            .map(|o| format!("{} {:+.2} ms", o.host, o.offset_ms))
            .collect();
        out.push(format!(
            "clocks against the launching host: {}",
            offsets.join(", ")
        ));
    }
    out
}
