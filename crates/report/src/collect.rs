//! A collection's report as text and as CSV (one row per interval).

use dbio_model::collect::{CollectionReport, Growth, Spread};
use std::fmt::Write;

/// Unix ms as RFC 3339 UTC to the second.
fn time(ms: u64) -> String {
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
        .to_string()
}

/// Bytes in GB (10^9) or MB, whichever reads better.
fn bytes(b: f64) -> String {
    if b.abs() >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else {
        format!("{:.1} MB", b / 1e6)
    }
}

/// The peak hour of a figure, in words.
fn peak(s: &Spread, scale: f64, digits: usize) -> String {
    s.peak_hour.as_ref().map_or("-".to_string(), |p| {
        format!(
            "{} to {} ({:.digits$})",
            time(p.start_ms),
            &time(p.end_ms)[11..],
            p.mean * scale
        )
    })
}

/// A figure as the reports show it: its name, its spread, the scale and the digits.
type Figure<'a> = (String, &'a Spread, f64, usize);

/// Every figure of the report in order: each device's five, then the CPUs' and the
/// database's I/O.
fn figures(r: &CollectionReport) -> Vec<Figure<'_>> {
    let mut v = Vec::new();
    for d in &r.devices {
        let five = [
            ("IOPS", &d.iops, 1.0, 0),
            ("MB/s", &d.mb_s, 1.0, 1),
            ("latency ms", &d.latency_ms, 1.0, 2),
            ("queue depth", &d.queue_depth, 1.0, 2),
            ("busy %", &d.busy, 100.0, 1),
        ];
        v.extend(five.map(|(what, s, k, n)| (format!("{} {what}", d.name), s, k, n)));
    }
    let others = [
        ("host CPU %", &r.host_cpu, 100.0, 1),
        ("server CPU (CPUs)", &r.server_cpu, 1.0, 2),
        ("database I/O per s", &r.db_iops, 1.0, 0),
    ];
    for (what, s, k, n) in others {
        if let Some(s) = s {
            v.push((what.to_string(), s, k, n));
        }
    }
    v
}

fn growth(g: &Growth) -> String {
    format!(
        "{}, {} a day (r² {:.2}; {} at the start)",
        bytes(g.last_bytes as f64),
        bytes(g.bytes_per_day),
        g.r2,
        bytes(g.first_bytes as f64)
    )
}

/// The report as text; `top` objects (0: all).
pub fn text(r: &CollectionReport, top: usize) -> String {
    let i = &r.info;
    let mut out = format!(
        "collection {}: {} {} on {}, every {} s\n  {} to {}: {} samples ({:.0} s sampled), {}\n\n",
        i.name,
        i.system,
        i.source,
        i.host,
        i.interval_s,
        time(r.first_ms),
        time(r.last_ms),
        r.samples,
        r.sampled_s,
        r.state
    );
    let _ = writeln!(
        out,
        "  {:<22} {:>10} {:>10} {:>10}   peak hour (mean; all of it when shorter)",
        "", "mean", "p95", "max"
    );
    for (what, f, k, n) in figures(r) {
        let _ = writeln!(
            out,
            "  {what:<22} {:>10.n$} {:>10.n$} {:>10.n$}   {}",
            f.mean * k,
            f.p95 * k,
            f.max * k,
            peak(f, k, n)
        );
    }
    let b = &r.bound;
    let _ = writeln!(
        out,
        "\n  intervals bound by CPU (host >= 80 %): {}, by I/O (a device busy >= 80 %): {}, both: {}, neither: {}",
        b.cpu, b.io, b.both, b.neither
    );
    objects(&mut out, r, top);
    if let Some(g) = &r.capacity {
        let _ = writeln!(out, "\n  database size: {}", growth(g));
    }
    if !r.events.is_empty() {
        let _ = writeln!(out, "\n  events:");
        for e in &r.events {
            let _ = writeln!(out, "    {}  {}", time(e.t_ms), e.what);
        }
    }
    out
}

/// The busiest objects' table.
fn objects(out: &mut String, r: &CollectionReport, top: usize) {
    if r.objects.is_empty() {
        return;
    }
    let n = if top == 0 {
        r.objects.len()
    } else {
        top.min(r.objects.len())
    };
    let _ = writeln!(
        out,
        "\n  objects by I/O ({n} of {}):\n  {:<40} {:<6} {:>10} {:>10} {:>10} {:>10}  {:<20} {:>10}  size, growth",
        r.objects.len(),
        "object",
        "kind",
        "reads",
        "writes",
        "MB read",
        "MB written",
        "busiest interval",
        "I/O per s"
    );
    for o in &r.objects[..n] {
        let size = o.growth.as_ref().map_or("-".to_string(), growth);
        let _ = writeln!(
            out,
            "  {:<40} {:<6} {:>10} {:>10} {:>10.1} {:>10.1}  {:<20} {:>10.1}  {size}",
            o.name,
            o.kind.name(),
            o.reads,
            o.writes,
            o.bytes_read as f64 / 1e6,
            o.bytes_written as f64 / 1e6,
            if o.busiest_ms > 0 {
                time(o.busiest_ms)
            } else {
                "-".into()
            },
            o.busiest_iops
        );
    }
}

/// One CSV row per interval: its end, length, each device's five figures, the CPUs, the
/// database's I/O per second and what bound the interval (cpu, io, both, neither).
pub fn csv(r: &CollectionReport) -> String {
    let mut head = vec!["end".to_string(), "secs".to_string()];
    for d in &r.devices {
        for f in ["iops", "mb_s", "latency_ms", "queue_depth", "busy"] {
            head.push(format!("{}_{f}", d.name));
        }
    }
    head.extend(["host_cpu", "server_cpu", "db_iops", "bound"].map(String::from));
    let mut out = head.join(",") + "\n";
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    for p in &r.series {
        let mut row = vec![time(p.t_ms), format!("{:.3}", p.secs)];
        for i in 0..r.devices.len() {
            let d = p.devices.get(i).copied().unwrap_or_default();
            row.extend(d.iter().map(|v| format!("{v:.4}")));
        }
        row.extend([
            opt(p.host_cpu),
            opt(p.server_cpu),
            opt(p.db_iops),
            p.bound.clone(),
        ]);
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// The report as Markdown: the figures' table, the bound intervals, the busiest `top`
/// objects (0: all), the database's growth and the events.
pub fn markdown(r: &CollectionReport, top: usize) -> String {
    let i = &r.info;
    let mut out = format!(
        "# Collection {}\n\n{} `{}` on {}, every {} s: {} to {}, {} samples, {}.\n\n",
        i.name,
        i.system,
        i.source,
        i.host,
        i.interval_s,
        time(r.first_ms),
        time(r.last_ms),
        r.samples,
        r.state
    );
    out.push_str("| figure | mean | p95 | max | peak hour (mean; all of it when shorter) |\n|---|--:|--:|--:|---|\n");
    for (what, f, k, n) in figures(r) {
        let _ = writeln!(
            out,
            "| {what} | {:.n$} | {:.n$} | {:.n$} | {} |",
            f.mean * k,
            f.p95 * k,
            f.max * k,
            peak(f, k, n)
        );
    }
    let b = &r.bound;
    let _ = writeln!(
        out,
        "\nIntervals bound by CPU (host >= 80 %): {}; by I/O (a device busy >= 80 %): {}; both: {}; neither: {}.\n",
        b.cpu, b.io, b.both, b.neither
    );
    if !r.objects.is_empty() {
        out.push_str("| object | kind | reads | writes | busiest interval | I/O per s | size and growth |\n|---|---|--:|--:|---|--:|---|\n");
        let n = if top == 0 {
            r.objects.len()
        } else {
            top.min(r.objects.len())
        };
        for o in &r.objects[..n] {
            let size = o.growth.as_ref().map_or("-".to_string(), growth);
            let busiest = if o.busiest_ms > 0 {
                time(o.busiest_ms)
            } else {
                "-".into()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {busiest} | {:.1} | {size} |",
                o.name,
                o.kind.name(),
                o.reads,
                o.writes,
                o.busiest_iops
            );
        }
    }
    if let Some(g) = &r.capacity {
        let _ = writeln!(out, "\nDatabase size: {}.", growth(g));
    }
    if !r.events.is_empty() {
        out.push_str("\nEvents:\n\n");
        for e in &r.events {
            let _ = writeln!(out, "- {}: {}", time(e.t_ms), e.what);
        }
    }
    out
}
