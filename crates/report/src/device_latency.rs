//! `--device-latency` in a report: per direction, dbio's latency beside the block layer's
//! queue and the device's own time, and whether the latency was the device's or the host's;
//! one table that the text, Markdown and HTML reports each render.

use crate::units::us;
use dbio_model::device_latency::BlockLatency;
use dbio_model::{LatencySummary, RunResult};
use std::fmt::Write;

/// The columns of the table (latencies in µs).
pub const HEADER: [&str; 8] = [
    "",
    "requests",
    "queue p50",
    "device p50",
    "dbio p50",
    "queue p99",
    "device p99",
    "dbio p99",
];

/// A run's device latency as a table with its title and notes.
pub struct Table {
    pub title: String,
    pub rows: Vec<[String; 8]>,
    pub notes: Vec<String>,
}

/// The table of a run's device latency, when it has one: the run's own, or, for a result
/// merged from several hosts, each host's beside that host's own latency.
pub fn table(r: &RunResult) -> Option<Table> {
    if let Some(c) = &r.cluster {
        return hosts_table(c);
    }
    let d = r.device_latency.as_ref()?;
    let mut rows = Vec::new();
    let mut shares = Vec::new();
    let dirs = [
        ("read", &d.read, &r.read),
        ("write", &d.write, &r.write),
        ("flush", &d.flush, &r.flush),
    ];
    for (name, block, ours) in dirs {
        let Some(b) = block else { continue };
        let ours = ours.as_ref().map(|o| (o.latency_ns.p50, o.latency_ns.p99));
        rows.push(row(name, b, ours));
        if let Some((p50, _)) = ours.filter(|o| o.0 > 0) {
            let share = b.device_ns.p50 as f64 * 100.0 / p50 as f64;
            shares.push(format!("{share:.0} % of dbio's for {name}s"));
        }
    }
    let mut notes = Vec::new();
    if !shares.is_empty() {
        notes.push(format!("the device's median is {}: the rest is the host's (submission, the kernel's queue, completion)", shares.join(", ")));
    }
    notes.push(format!(
        "the probe used {:.0} % of one CPU; {} events lost",
        d.probe_cpu_pct, d.lost_events
    ));
    Some(Table {
        title: format!(
            "where the time went (the block layer of {}; µs)",
            d.devices.join(", ")
        ),
        rows,
        notes,
    })
}

/// Each host's device latency beside its own (a merged result's histograms are the
/// cluster's, so no host's block figures are set against them).
fn hosts_table(c: &dbio_model::cluster::Cluster) -> Option<Table> {
    let mut rows = Vec::new();
    for h in &c.hosts {
        let Some(d) = &h.device_latency else { continue };
        let ns = |us: f64| (us * 1000.0) as u64;
        for (name, block, ours) in [("read", &d.read, &h.read), ("write", &d.write, &h.write)] {
            let Some(b) = block else { continue };
            let ours = ours.as_ref().map(|o| (ns(o.p50_us), ns(o.p99_us)));
            rows.push(row(&format!("{} {name}", h.name), b, ours));
        }
    }
    (!rows.is_empty()).then(|| Table {
        title: "where the time went, host by host (the block layer of each host's disks; µs)"
            .into(),
        rows,
        notes: Vec::new(),
    })
}

/// A row: the block layer's figures and dbio's own p50 and p99 (ns) where known.
fn row(name: &str, b: &BlockLatency, ours: Option<(u64, u64)>) -> [String; 8] {
    let q = |f: fn(&LatencySummary) -> u64| b.queue_ns.as_ref().map_or("-".into(), |l| us(f(l)));
    let o = |f: fn((u64, u64)) -> u64| ours.map_or("-".into(), |p| us(f(p)));
    [
        name.to_string(),
        b.requests.to_string(),
        q(|l| l.p50),
        us(b.device_ns.p50),
        o(|p| p.0),
        q(|l| l.p99),
        us(b.device_ns.p99),
        o(|p| p.1),
    ]
}

/// The table as the terminal shows it.
pub fn text(r: &RunResult) -> Option<String> {
    let t = table(r)?;
    let mut s = format!("\n{}:\n", t.title);
    for cells in std::iter::once(HEADER.map(String::from)).chain(t.rows) {
        let _ = write!(s, "  {:<6}", cells[0]);
        for c in &cells[1..] {
            let _ = write!(s, " {c:>11}");
        }
        s.push('\n');
    }
    for n in t.notes {
        let _ = writeln!(s, "  {n}");
    }
    Some(s)
}

/// The table in Markdown.
pub fn markdown(r: &RunResult) -> Option<String> {
    let t = table(r)?;
    let mut s = format!(
        "**{}**\n\n| {} |\n|---|{}\n",
        t.title,
        HEADER.join(" | "),
        "--:|".repeat(7)
    );
    for cells in t.rows {
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push('\n');
    for n in t.notes {
        let _ = writeln!(s, "{n}.\n");
    }
    Some(s)
}
