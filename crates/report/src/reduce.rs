//! The text summary of `dbio reduce`, per dedupe unit in the order an array reduces data
//! and in seed 003's words (pattern x %, dedupe y %, compression z %, total N : 1).

use dbio_model::reduce::{CompressionEstimate, Estimate, ReduceMode, ReduceResult, UnitEstimate};
use dbio_model::units::format_size;
use std::fmt::Write;

/// The summary printed after a scan.
pub fn summary(r: &ReduceResult) -> String {
    let mut s = String::new();
    let files = r.sources.iter().filter(|x| x.kind == "file").count();
    let devices = r.sources.len() - files;
    let per_cpu = if r.cpu_secs > 0.0 {
        format!(
            ", {:.2} GB/s per CPU second",
            r.bytes_read as f64 / r.cpu_secs / 1e9
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "dbio reduce: {files} file(s), {devices} device(s), {} read in {:.2} s ({:.2} GB/s; {:.2} CPU s{per_cpu}){}",
        format_size(r.bytes_read),
        r.elapsed_secs,
        r.bytes_read as f64 / r.elapsed_secs.max(1e-9) / 1e9,
        r.cpu_secs,
        if r.partial { " - interrupted, partial" } else { "" }
    );
    let _ = match r.mode {
        ReduceMode::Exact => writeln!(s, "mode: exact, every fingerprint kept (128-bit xxh3)"),
        ReduceMode::Sampled { modulus, residue } => writeln!(
            s,
            "mode: sampled, fingerprints with hash mod {modulus} == {residue} kept (1/{modulus}); dedupe intervals at 99 %"
        ),
    };
    let _ = writeln!(
        s,
        "thin: {:.1} % not allocated ({} presented, {} saved: file holes, zero blocks of devices)",
        r.thin.share * 100.0,
        format_size(r.thin.presented_bytes),
        format_size(r.thin.saved_bytes)
    );
    for u in &r.units {
        unit(&mut s, u);
    }
    for n in &r.notes {
        let _ = writeln!(s, "note: {n}");
    }
    if !r.skipped.is_empty() {
        let _ = writeln!(s, "{} path(s) skipped (listed on stderr)", r.skipped.len());
    }
    s
}

fn pct(x: f64) -> String {
    format!("{:.1} %", x * 100.0)
}

fn interval(e: &Estimate) -> String {
    if e.confidence >= 1.0 {
        String::new()
    } else {
        format!(
            " ({:.2}-{:.2} at {:.1} %)",
            e.low,
            e.high,
            e.confidence * 100.0
        )
    }
}

fn compression(c: &CompressionEstimate) -> String {
    format!(
        "    {:<22} {:.2} : 1{}",
        c.method,
        c.ratio.value,
        interval(&c.ratio)
    )
}

fn unit(s: &mut String, u: &UnitEstimate) {
    let _ = writeln!(s, "\nunit {} ({} blocks):", format_size(u.unit), u.blocks);
    let _ = writeln!(
        s,
        "  pattern removal  {:>7}   ({} all zero, {} one repeated byte)",
        pct(u.steps.pattern),
        u.zero_blocks,
        u.pattern_blocks
    );
    let _ = writeln!(
        s,
        "  dedupe           {:>7}   {:.2} : 1{} ({} blocks left, {:.0} unique)",
        pct(u.steps.dedupe),
        u.dedupe.value,
        interval(&u.dedupe),
        u.used_blocks,
        u.unique_blocks
    );
    let compressed = match u.compression.first() {
        Some(first) => {
            let blocks = match u.compression.iter().find(|c| c.bound > 0.0) {
                Some(c) => format!(
                    "a uniform sample of {} unique blocks; stored share within ±{:.1} % at 99.9 % (Hoeffding-Serfling)",
                    c.blocks,
                    c.bound * 100.0
                ),
                None => format!("every unique block, {}", first.blocks),
            };
            let _ = writeln!(
                s,
                "  compression      {:>7}   {:.2} : 1 {} ({blocks})",
                pct(u.steps.compression),
                first.ratio.value,
                first.method
            );
            for c in &u.compression {
                let _ = writeln!(s, "{}", compression(c));
            }
            format!(
                ", compression {} ({})",
                pct(u.steps.compression),
                first.method
            )
        }
        None => " (compression not estimated)".to_string(),
    };
    let _ = writeln!(
        s,
        "  total            {:.2} : 1{}  = pattern {}, dedupe {}{compressed}",
        u.total.value,
        interval(&u.total),
        pct(u.steps.pattern),
        pct(u.steps.dedupe),
    );
    let per = if u.fingerprints_kept > 0 {
        format!(
            " ({:.1} bytes each)",
            u.table_bytes as f64 / u.fingerprints_kept as f64
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "  fingerprints     {} kept in {}{per}; odds that two blocks share one: {:.1e}",
        u.fingerprints_kept,
        format_size(u.table_bytes),
        u.collision_odds
    );
}
