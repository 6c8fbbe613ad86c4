//! `dbio capture`'s summary as text: a table per device of what it was asked and how long
//! it took, and what the capture may have missed.

use crate::units::us;
use dbio_model::capture::{CaptureSummary, DeviceCapture, FilesCapture, OpCapture};
use dbio_model::units::format_size;
use std::fmt::Write;

/// The summary of a trace as the terminal shows it.
pub fn capture_text(s: &CaptureSummary) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "capture of {:.1} s from {}: {} requests",
        s.seconds, s.started_at, s.requests
    );
    for d in &s.devices {
        device(&mut t, d);
    }
    if let Some(f) = &s.files {
        files(&mut t, f);
    }
    for line in caveats(s) {
        let _ = writeln!(t, "warning: {line}");
    }
    t
}

/// What the capture may have missed, one line each.
pub fn caveats(s: &CaptureSummary) -> Vec<String> {
    let mut v = Vec::new();
    if !s.complete {
        v.push("the trace has no end (the capture was killed or the file cut short): the figures cover the requests up to the cut".to_string());
    }
    if s.lost_events > 0 {
        v.push(format!("the kernel's trace buffers lost {} events: requests are missing from these figures (a busier device than the buffers keep up with)", s.lost_events));
    }
    if let Some(i) = &s.imported {
        let mut lacks = Vec::new();
        if !i.times {
            lacks.push("times (no rates; replay it --as-fast-as-possible)");
        }
        if !i.latencies {
            lacks.push("device latencies (no latency or in-flight figures)");
        }
        if !lacks.is_empty() {
            v.push(format!(
                "imported from {}, which has no {}",
                i.from,
                lacks.join(" and no ")
            ));
        }
    }
    if s.in_flight_at_end > 0 {
        v.push(format!(
            "{} requests were still in flight when the capture ended and are not in it",
            s.in_flight_at_end
        ));
    }
    v
}

fn device(t: &mut String, d: &DeviceCapture) {
    let mut line = format!(
        "\n{} ({}, {}): reads {:.1} % of reads and writes",
        d.name,
        d.dev,
        format_size(d.size_bytes),
        d.read_pct
    );
    if let Some(f) = &d.in_flight {
        let _ = write!(
            line,
            "; in flight mean {:.1}, p99 {}, max {}",
            f.mean, f.p99, f.max
        );
    }
    if let (Some(peak), Some(p95)) = (d.rates.peak_iops, d.rates.p95_iops) {
        let _ = write!(line, "; busiest second {peak} requests, p95 {p95}");
    }
    let _ = writeln!(t, "{line}");
    if let Some(m) = &d.rates.peak_minute {
        let _ = writeln!(
            t,
            "  peak minute from {} s: {:.0} IOPS, {:.1} MB/s",
            m.start_s, m.iops, m.mb_s
        );
    }
    let _ = writeln!(
        t,
        "  {:<8} {:>10} {:>10} {:>9} {:>6} {:>22} {:>10} {:>10} {:>10} {:>10}",
        "",
        "requests",
        "IOPS",
        "MB/s",
        "seq %",
        "hot 1/5/20 %",
        "p50 µs",
        "p99 µs",
        "p99.9 µs",
        "max µs"
    );
    let ops = [
        ("read", &d.read),
        ("write", &d.write),
        ("discard", &d.discard),
        ("flush", &d.flush),
    ];
    for (name, op) in ops {
        if let Some(o) = op {
            row(t, name, o);
        }
    }
    for (name, op) in [("read", &d.read), ("write", &d.write)] {
        if let Some(o) = op {
            let sizes: Vec<String> = o
                .sizes
                .iter()
                .map(|s| format!("{} {:.1} %", format_size(s.bytes), s.pct))
                .collect();
            let _ = writeln!(t, "  {name} sizes: {}", sizes.join(", "));
        }
    }
    if d.fua_writes + d.preflush_writes > 0 {
        let _ = writeln!(
            t,
            "  writes through the cache (FUA): {}; after a flush: {}",
            d.fua_writes, d.preflush_writes
        );
    }
}

/// The busiest files of `--files` (at most 20), and what fell outside them.
fn files(t: &mut String, f: &FilesCapture) {
    let _ = writeln!(
        t,
        "\nfiles under {}: {} with requests, {} without; {} requests outside them (metadata, journal, other files)",
        f.dir,
        f.files.len(),
        f.idle_files,
        f.outside
    );
    let _ = writeln!(
        t,
        "  {:<40} {:>10} {:>10} {:>10} {:>10} {:>12}",
        "file", "reads", "writes", "MB read", "MB written", "device ms"
    );
    for x in f.files.iter().take(20) {
        let ms = x
            .read_ms
            .zip(x.write_ms)
            .map_or("-".into(), |(r, w)| format!("{:.1}", r + w));
        let _ = writeln!(
            t,
            "  {:<40} {:>10} {:>10} {:>10.1} {:>10.1} {:>12}",
            x.path,
            x.reads,
            x.writes,
            x.bytes_read as f64 / 1e6,
            x.bytes_written as f64 / 1e6,
            ms
        );
    }
    if !f.unmapped.is_empty() {
        let _ = writeln!(
            t,
            "  extents not readable (not counted): {}",
            f.unmapped.join(", ")
        );
    }
}

fn row(t: &mut String, name: &str, o: &OpCapture) {
    let dash = || "-".to_string();
    let rate = |v: Option<f64>, digits: usize| v.map_or_else(dash, |v| format!("{v:.digits$}"));
    let l = o.latency_ns.as_ref();
    let lat =
        |f: fn(&dbio_model::histogram::LatencySummary) -> u64| l.map_or_else(dash, |l| us(f(l)));
    let _ = writeln!(
        t,
        "  {:<8} {:>10} {:>10} {:>9} {:>6.1} {:>22} {:>10} {:>10} {:>10} {:>10}",
        name,
        o.ios,
        rate(o.iops, 0),
        rate(o.mb_s, 1),
        o.sequential_pct,
        format!(
            "{:.0}/{:.0}/{:.0}",
            o.hottest_1_pct, o.hottest_5_pct, o.hottest_20_pct
        ),
        lat(|l| l.p50),
        lat(|l| l.p99),
        lat(|l| l.p99_9),
        lat(|l| l.max)
    );
}
