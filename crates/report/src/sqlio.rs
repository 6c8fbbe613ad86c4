//! A run in SQLIO's result layout (its readme's, sqlio v1.5.SG), so scripts that parse SQLIO
//! output keep working: the run as SQLIO describes it, `IOs/sec`, `MBs/sec` (MiB),
//! `Min/Avg/Max_Latency(ms)` and the millisecond histogram (0 to 23 ms and 24+, in percent
//! of the I/Os). A run that both reads and writes gives two results, one per direction,
//! each starting with SQLIO's version line as SQLIO's own runs would.

use dbio_model::{DirStats, RunResult, SyncMode};
use std::fmt::Write;

/// The result in SQLIO's layout.
pub fn to_sqlio(r: &RunResult) -> String {
    to_sqlio_as(r, None)
}

/// The result in SQLIO's layout, for a run SQLIO's `-B` letter (`buffering`: N, Y, H or S)
/// asked for: a run that does not write says nothing of write-through, and the letter tells
/// -BN from -BH (and -BS from -BY) there, as SQLIO's header does.
pub fn to_sqlio_as(r: &RunResult, buffering: Option<char>) -> String {
    let mut s = String::new();
    for (d, verb) in [(&r.read, "reading"), (&r.write, "writing")] {
        if let Some(d) = d {
            direction(&mut s, r, d, verb, buffering);
        }
    }
    if s.is_empty() {
        s.push_str("sqlio v1.5.SG\nno I/O was measured\n");
    }
    s
}

/// One direction as one SQLIO result.
fn direction(s: &mut String, r: &RunResult, d: &DirStats, verb: &str, buffering: Option<char>) {
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
    let from_or_to = if verb == "reading" { "from" } else { "to" };
    let _ = writeln!(
        s,
        "{} threads {verb} for {:.0} secs {from_or_to} file {target}",
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
    // A run that writes says whether it writes through; one that does not, only the letter.
    let write_through = if j.rw.writes() {
        j.sync == SyncMode::Dsync
    } else {
        matches!(buffering, Some('N' | 'S'))
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::Rw;

    /// The committed fixture run, as a run of `rw` through the file cache or not (`direct`)
    /// and with `sync`.
    fn run(rw: Rw, direct: bool, sync: SyncMode) -> RunResult {
        let mut r: RunResult = serde_json::from_str(include_str!("../tests/fixtures/run.json"))
            .expect("the fixture run");
        (r.job.rw, r.job.direct, r.job.sync) = (rw, direct, sync);
        if !rw.writes() {
            r.write = None;
        }
        r
    }

    fn line_with<'a>(s: &'a str, needle: &str) -> &'a str {
        s.lines().find(|l| l.contains(needle)).unwrap_or("")
    }

    /// SQLIO's header lines for each -B letter, as its readme and its own output have them:
    /// "N threads reading for S secs from file F", "... writing for S secs to file F".
    #[test]
    fn reads_come_from_the_file_and_say_the_buffering_sqlio_was_given() {
        let text = [
            (
                'N',
                "buffering set to not use file nor disk caches (as is SQL Server)",
            ),
            (
                'H',
                "buffering set to use hardware disk cache (but not file cache)",
            ),
            (
                'S',
                "buffering set to use software cache (but not hardware disk cache)",
            ),
            (
                'Y',
                "buffering set to use software and hardware disk caches",
            ),
        ];
        for (letter, want) in text {
            // The run dbio sqlio makes of -kR -B<letter>: O_DIRECT for N and H.
            let direct = matches!(letter, 'N' | 'H');
            let s = to_sqlio_as(&run(Rw::RandRead, direct, SyncMode::None), Some(letter));
            assert_eq!(
                line_with(&s, "buffering"),
                format!("\t{want}"),
                "-B{letter}"
            );
            assert!(
                line_with(&s, "threads").ends_with("secs from file ./small"),
                "{s}"
            );
        }
        // Writes say the buffering by the run itself (O_DSYNC is write-through).
        let s = to_sqlio_as(&run(Rw::RandWrite, true, SyncMode::Dsync), None);
        assert!(
            line_with(&s, "threads writing").ends_with("secs to file ./small"),
            "{s}"
        );
        assert!(line_with(&s, "buffering").contains("not use file nor disk caches"));
        // A dbio read run without SQLIO's letter: O_DIRECT, nothing said of write-through.
        let s = to_sqlio(&run(Rw::RandRead, true, SyncMode::None));
        assert!(line_with(&s, "buffering").contains("hardware disk cache (but not"));
    }
}
