//! `dbio capture`'s summary as text: a table per device of what it was asked and how long
//! it took, and what the capture may have missed.

use crate::units::us;
use dbio_model::capture::{CaptureSummary, DeviceCapture, OpCapture};
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
    if s.in_flight_at_end > 0 {
        v.push(format!(
            "{} requests were still in flight when the capture ended and are not in it",
            s.in_flight_at_end
        ));
    }
    v
}

fn device(t: &mut String, d: &DeviceCapture) {
    let _ = writeln!(
        t,
        "\n{} ({}, {}): reads {:.1} % of reads and writes; in flight mean {:.1}, p99 {}, max {}; busiest second {} requests, p95 {}",
        d.name,
        d.dev,
        format_size(d.size_bytes),
        d.read_pct,
        d.in_flight.mean,
        d.in_flight.p99,
        d.in_flight.max,
        d.peak_iops,
        d.p95_iops
    );
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

fn row(t: &mut String, name: &str, o: &OpCapture) {
    let l = &o.latency_ns;
    let _ = writeln!(
        t,
        "  {:<8} {:>10} {:>10.0} {:>9.1} {:>6.1} {:>22} {:>10} {:>10} {:>10} {:>10}",
        name,
        o.ios,
        o.iops,
        o.mb_s,
        o.sequential_pct,
        format!(
            "{:.0}/{:.0}/{:.0}",
            o.hottest_1_pct, o.hottest_5_pct, o.hottest_20_pct
        ),
        us(l.p50),
        us(l.p99),
        us(l.p99_9),
        us(l.max)
    );
}
