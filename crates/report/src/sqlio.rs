//! A run in SQLIO's result layout (its readme's, sqlio v1.5.SG), so scripts that parse SQLIO
//! output keep working: the run as SQLIO describes it, `IOs/sec`, `MBs/sec` (MiB),
//! `Min/Avg/Max_Latency(ms)` and the millisecond histogram (0 to 23 ms and 24+, in percent
//! of the I/Os). A run that both reads and writes gives two results, one per direction,
//! each starting with SQLIO's version line as SQLIO's own runs would.

use dbio_model::{DirStats, RunResult, SyncMode};
use std::fmt::Write;

/// The result in SQLIO's layout.
pub fn to_sqlio(r: &RunResult) -> String {
    let mut s = String::new();
    for (d, verb) in [(&r.read, "reading"), (&r.write, "writing")] {
        if let Some(d) = d {
            direction(&mut s, r, d, verb);
        }
    }
    if s.is_empty() {
        s.push_str("sqlio v1.5.SG\nno I/O was measured\n");
    }
    s
}

/// One direction as one SQLIO result.
fn direction(s: &mut String, r: &RunResult, d: &DirStats, verb: &str) {
    let j = &r.job;
    let target = j.targets.join(" ");
    let kb = if d.ios > 0 {
        (d.bytes as f64 / d.ios as f64 / 1024.0).round() as u64
    } else {
        0
    };
    let pattern = if j.rw.is_random() {
        "random"
    } else {
        "sequential"
    };
    let _ = writeln!(s, "sqlio v1.5.SG");
    let _ = writeln!(
        s,
        "using system counter for latency timings, 1000000000 counts per second"
    );
    let _ = writeln!(
        s,
        "{} threads {verb} for {:.0} secs to file {target}",
        j.threads, r.measured_secs
    );
    let _ = writeln!(s, "\tusing {kb}KB {pattern} IOs");
    if j.qd > 1 {
        let _ = writeln!(
            s,
            "\tenabling multiple I/Os per thread with {} outstanding",
            j.qd
        );
    }
    let write_through = j.sync == SyncMode::Dsync;
    let buffering = match (j.direct, write_through) {
        (true, true) => "buffering set to not use file nor disk caches (as is SQL Server)",
        (true, false) => "buffering set to use hardware disk cache (but not file cache)",
        (false, true) => "buffering set to use software cache (but not hardware disk cache)",
        (false, false) => "buffering set to use software and hardware disk caches",
    };
    let _ = writeln!(s, "\t{buffering}");
    for t in &r.targets {
        let _ = writeln!(
            s,
            "using current size: {} MB for file: {}",
            t.size_bytes >> 20,
            t.path
        );
    }
    let _ = writeln!(s, "initialization done");
    let _ = writeln!(s, "CUMULATIVE DATA:");
    let _ = writeln!(s, "throughput metrics:");
    let _ = writeln!(s, "IOs/sec: {:8.2}", d.iops);
    let _ = writeln!(s, "MBs/sec: {:8.2}", d.mib_s);
    let ms = |ns: f64| ns / 1e6;
    let _ = writeln!(s, "latency metrics:");
    let _ = writeln!(
        s,
        "Min_Latency(ms): {}",
        ms(d.latency_ns.min as f64).floor() as u64
    );
    let _ = writeln!(
        s,
        "Avg_Latency(ms): {}",
        ms(d.latency_ns.mean).round() as u64
    );
    let _ = writeln!(
        s,
        "Max_Latency(ms): {}",
        ms(d.latency_ns.max as f64).ceil() as u64
    );
    let _ = writeln!(s, "histogram:");
    let heads: Vec<String> = (0..24).map(|i| format!("{i:2}")).collect();
    let _ = writeln!(s, "ms:{} 24+", heads.join(" "));
    let shares: Vec<String> = histogram(d).iter().map(|p| format!("{p:2}")).collect();
    let _ = writeln!(s, "%: {}", shares.join(" "));
}

/// Percent of I/Os (rounded) whose latency fell in each whole millisecond 0..=23, then 24+.
pub fn histogram(d: &DirStats) -> [u64; 25] {
    let mut counts = [0u64; 25];
    let mut total = 0u64;
    for [v, c] in &d.histogram.buckets {
        counts[((v / 1_000_000) as usize).min(24)] += c;
        total += c;
    }
    counts.map(|c| (c * 100 + total / 2).checked_div(total).unwrap_or(0))
}
