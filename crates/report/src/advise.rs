//! The text of `dbio advise`: the source, the ranked objects, the skew sentence, what to
//! move within the budget and what to leave (with why), and the expected gain.

use dbio_model::advise::{AdviseResult, ObjectFigures, Placement};
use dbio_model::units::format_size;
use std::fmt::Write;

/// The summary printed; `top` rows of the ranked table (0: all).
pub fn summary(r: &AdviseResult, top: usize) -> String {
    let mut s = String::new();
    let what = if r.source.since_start {
        "counts since the server started".to_string()
    } else {
        "counts between two snapshots".to_string()
    };
    let secs = if r.source.interval_secs > 0.0 {
        format!(", {:.1} s", r.source.interval_secs)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "dbio advise: {} {} ({what}{secs})",
        r.source.system, r.source.name
    );
    let t = &r.totals;
    let _ = writeln!(
        s,
        "{} objects, {}; {} reads, {} writes{}; ranked by {}",
        r.objects.len(),
        format_size(t.size_bytes),
        t.reads,
        t.writes,
        t.stall_ms
            .map_or(String::new(), |m| format!(", {} ms of stall", fixed(m))),
        r.ranked_by
    );
    s.push('\n');
    table(&mut s, &r.objects, top);
    if let Some(k) = &r.skew {
        let _ = writeln!(
            s,
            "\nskew: {} (cumulative I/O against capacity, densest objects first)",
            k.sentence
        );
    }
    if let Some(p) = &r.placement {
        placement(&mut s, p, top);
    }
    for n in &r.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

/// A number with thousands grouped and no decimals.
fn fixed(v: f64) -> String {
    let n = v.round() as i128;
    let digits = n.abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

fn opt(v: Option<f64>, f: impl Fn(f64) -> String) -> String {
    v.map_or("-".into(), f)
}

fn pct(v: f64) -> String {
    format!("{:.1}", v * 100.0)
}

/// The ranked table, `top` rows (0: all).
fn table(s: &mut String, objects: &[ObjectFigures], top: usize) {
    let shown = if top == 0 {
        objects.len()
    } else {
        top.min(objects.len())
    };
    let w = objects[..shown]
        .iter()
        .map(|o| o.name.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, 60);
    let _ = writeln!(
        s,
        "{:>4}  {:<w$}  {:<5}  {:>10}  {:>10}  {:>10}  {:>9}  {:>8}  {:>12}  {:>6}  {:>6}  {:>9}  {:>12}  {:>12}",
        "rank", "object", "kind", "size", "reads", "writes", "avg I/O", "avg ms", "stall ms", "I/O %", "cap %", "IOPS/GiB", "stall ms/GiB", "saved ms"
    );
    for o in &objects[..shown] {
        let _ = writeln!(
            s,
            "{:>4}  {:<w$}  {:<5}  {:>10}  {:>10}  {:>10}  {:>9}  {:>8}  {:>12}  {:>6}  {:>6}  {:>9}  {:>12}  {:>12}",
            o.rank,
            o.name,
            o.kind.name(),
            o.size_bytes.map_or("?".into(), format_size),
            o.reads,
            o.writes,
            opt(o.avg_io_bytes, |b| format_size(b as u64)),
            opt(o.current_ms, |v| format!("{v:.3}")),
            opt(o.stall_ms, fixed),
            pct(o.io_share),
            opt(o.capacity_share, pct),
            opt(o.iops_per_gib, |v| format!("{v:.1}")),
            opt(o.stall_ms_per_gib, fixed),
            opt(o.saved_ms, fixed),
        );
    }
    if shown < objects.len() {
        let _ = writeln!(
            s,
            "… and {} more (--top 0 lists all; the JSON has every object)",
            objects.len() - shown
        );
    }
}

/// The choice within the budget, what stays and why, and the gain.
fn placement(s: &mut String, p: &Placement, top: usize) {
    let _ = writeln!(
        s,
        "\nflash budget {}: move {} object(s), {} used ({})",
        format_size(p.budget_bytes),
        p.to_move.len(),
        format_size(p.used_bytes),
        p.method
    );
    let limit = if top == 0 { usize::MAX } else { top };
    for m in p.to_move.iter().take(limit) {
        let saves = m.stall_ms.map_or(String::new(), |st| {
            format!(
                ", saves {} of its {} ms of stall",
                fixed(m.saved_ms),
                fixed(st)
            )
        });
        let _ = writeln!(
            s,
            "  move   {} ({}, {}{saves})",
            m.name,
            m.kind.name(),
            format_size(m.size_bytes)
        );
    }
    if p.to_move.len() > limit {
        let _ = writeln!(s, "  … and {} more to move", p.to_move.len() - limit);
    }
    for l in p.to_leave.iter().take(limit) {
        let size = l.size_bytes.map_or("size unknown".into(), format_size);
        let _ = writeln!(
            s,
            "  leave  {} ({}, {size}): {}",
            l.name,
            l.kind.name(),
            l.why
        );
    }
    if p.to_leave.len() > limit {
        let _ = writeln!(s, "  … and {} more to leave", p.to_leave.len() - limit);
    }
    if p.to_move.is_empty() {
        let _ = writeln!(
            s,
            "expected gain: none; nothing within the budget would save stall"
        );
        return;
    }
    let Some(g) = &p.gain else {
        let _ = writeln!(s, "expected gain: the source has no times, so the choice moves the most I/Os; no stall figure to give");
        return;
    };
    let _ = writeln!(
        s,
        "expected gain: {} ms of stall saved of the moved objects' {} ms; they carry {:.1} % of all stall (f), latency ratio now / flash k = {:.2}",
        fixed(g.saved_ms),
        fixed(g.moved_stall_ms),
        g.moved_stall_share * 100.0,
        g.latency_ratio
    );
    let _ = writeln!(s, "  latencies: {}", g.latency_basis);
    match (g.io_wait_share, &g.io_wait_from) {
        (Some(p), Some(from)) => {
            let _ = writeln!(
                s,
                "  with I/O wait {:.1} % of the time ({from}), the overall speed-up is at most {:.2}× (Amdahl: 1 / ((1 − p·f) + p·f / k))",
                p * 100.0,
                g.speedup_bound
            );
        }
        _ => {
            let _ = writeln!(
                s,
                "  if all the time were I/O wait the speed-up would be at most {:.2}× (Amdahl with p = 1); give --io-wait-share for a tighter bound",
                g.speedup_bound
            );
        }
    }
}
