//! `dbio path` as text: the hops with their ceilings and headroom, the weakest named, the
//! ceilings at other I/O sizes, and a run held against the path.

use dbio_model::path::PathResult;
use dbio_model::units::format_size;
use std::fmt::Write;

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("-".into(), |v| format!("{v:.digits$}"))
}

/// Renders a path result.
pub fn path(p: &PathResult) -> String {
    let mut s = format!(
        "workload: {} I/Os, {} % reads\n\n{:<22} {:<10} {:>5} {:>12} {:>12} {:>10}  basis\n",
        format_size(p.workload.io_size),
        p.workload.read_pct,
        "hop",
        "kind",
        "count",
        "MB/s",
        "IOPS",
        "headroom"
    );
    for h in &p.hops {
        let head = match (h.headroom_pct, p.weakest.as_deref() == Some(&h.name)) {
            (_, true) => "WEAKEST".into(),
            (Some(x), false) => format!("+{x:.0} %"),
            (None, false) => "-".into(),
        };
        let _ = writeln!(
            s,
            "{:<22} {:<10} {:>5} {:>12} {:>12} {:>10}  {}",
            h.name,
            h.kind,
            h.count,
            opt(h.mb_s, 0),
            opt(h.iops, 0),
            head,
            h.basis
        );
    }
    match &p.weakest {
        Some(w) => {
            let h = p
                .hops
                .iter()
                .find(|h| &h.name == w)
                .expect("the weakest is a hop");
            let _ = writeln!(
                s,
                "\nthe path's ceiling: {} MB/s, {} IOPS, set by {w}",
                opt(h.mb_s, 0),
                opt(h.iops, 0)
            );
        }
        None => s += "\nno hop has a known ceiling: give bandwidth or iops figures\n",
    }
    if let Some(l) = p.path_latency_us {
        let _ = writeln!(
            s,
            "latency through the hops that give one: {l:.0} µs per I/O"
        );
    }
    if !p.by_io_size.is_empty() {
        let _ = writeln!(
            s,
            "\n{:>10} {:>12} {:>12}  weakest hop",
            "I/O size", "MB/s", "IOPS"
        );
        for r in &p.by_io_size {
            let _ = writeln!(
                s,
                "{:>10} {:>12} {:>12}  {}",
                format_size(r.io_size),
                opt(r.mb_s, 0),
                opt(r.iops, 0),
                r.weakest.as_deref().unwrap_or("-")
            );
        }
    }
    if let Some(c) = &p.run {
        let _ = writeln!(
            s,
            "\nmeasured: {:.0} IOPS, {:.1} MB/s; share of each hop's ceiling:",
            c.measured_iops, c.measured_mb_s
        );
        for h in &c.shares {
            let _ = writeln!(s, "  {:<22} {:>6} %", h.name, opt(h.pct, 0));
        }
        let _ = writeln!(s, "verdict: {}", c.verdict);
    }
    s
}
