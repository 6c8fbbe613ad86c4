//! The report of a session run as AWR shows one: wait events, load profile, and SLOB's
//! awr_info line (one per run, so several runs make a table).

use crate::units::us;
use dbio_model::session::WaitEvent;
use dbio_model::RunResult;
use std::fmt::Write;

/// Column names of the awr_info line, after SLOB's awr_info.sh: rates per second,
/// latencies as averages in µs, "-" where the event did not occur.
pub const AWR_INFO_HEADER: &str = "awr_info|SESSIONS|ELAPSED|DB CPU|DB Tm|EXECUTES|LIO|PREADS|READ_MBS|PWRITES|WRITE_MBS|REDO_MBS|DFSR_LAT|DFPR_LAT|DFPW_LAT|LFPW_LAT|LFS_LAT|TOP WAIT|";

fn event<'a>(r: &'a RunResult, name: &str) -> Option<&'a WaitEvent> {
    r.session.as_ref()?.events.iter().find(|e| e.name == name)
}

/// The awr_info line of a session run (None for other runs).
pub fn awr_info(r: &RunResult) -> Option<String> {
    let s = r.session.as_ref()?;
    let spec = r.job.session.as_ref()?;
    let lat = |name: &str| {
        event(r, name).map_or("-".into(), |e| format!("{:.0}", e.latency_ns.mean / 1000.0))
    };
    let top = s
        .events
        .iter()
        .filter(|e| e.class == "foreground")
        .max_by(|a, b| a.time_s.total_cmp(&b.time_s))
        .map_or("-", |e| e.name.as_str());
    let l = &s.load;
    Some(format!(
        "awr_info|{}|{:.0}|{:.1}|{:.1}|{:.0}|{:.0}|{:.0}|{:.1}|{:.0}|{:.1}|{:.2}|{}|{}|{}|{}|{}|{top}|",
        spec.sessions,
        r.measured_secs,
        s.db_cpu_s,
        s.db_time_s,
        l.ops_per_s,
        l.logical_reads_per_s,
        l.physical_reads_per_s,
        l.read_mb_s,
        l.physical_writes_per_s,
        l.write_mb_s,
        l.redo_mb_s,
        lat("db file sequential read"),
        lat("db file parallel read"),
        lat("db file parallel write"),
        lat("log file parallel write"),
        lat("log file sync"),
    ))
}

/// The session section of a run's summary: settings, wait events, load profile, awr_info.
pub fn report(r: &RunResult) -> Option<String> {
    let s = r.session.as_ref()?;
    let spec = r.job.session.as_ref()?;
    let mut out = String::new();
    let think = spec.think.map_or(String::new(), |t| {
        format!(
            ", think {}-{} µs every {} ops",
            us(t.min_ns),
            us(t.max_ns),
            t.every
        )
    });
    let _ = writeln!(
        out,
        "\nsession mode (the SLOB method): {} sessions, work unit {} pages of {} B read {}, update {} %, redo {} B per page, buffer pool hits {} %{think}",
        spec.sessions,
        spec.work_unit,
        spec.page,
        if spec.batch_reads { "as one batch" } else { "one at a time" },
        spec.update_pct,
        spec.redo_stress,
        spec.cache_hit_pct,
    );
    let _ = writeln!(out, "redo log: {}", s.redo_target);
    let _ = writeln!(
        out,
        "\n{:<24} {:<26} {:>11} {:>9} {:>10} {:>10} {:>9}",
        "Event", "(generic)", "Waits", "Time(s)", "Avg(µs)", "p99(µs)", "% DB time"
    );
    for e in &s.events {
        let pct = e.pct_db_time.map_or("bg".into(), |p| format!("{p:.1}"));
        let _ = writeln!(
            out,
            "{:<24} {:<26} {:>11} {:>9.2} {:>10} {:>10} {:>9}",
            e.name,
            format!("({})", e.generic),
            e.waits,
            e.time_s,
            us(e.latency_ns.mean as u64),
            us(e.latency_ns.p99),
            pct
        );
    }
    let l = &s.load;
    let _ = writeln!(
        out,
        "{:<24} {:<26} {:>11} {:>9.2} {:>10} {:>10} {:>9.1}",
        "DB CPU",
        "(session CPU)",
        "",
        s.db_cpu_s,
        "",
        "",
        if s.db_time_s > 0.0 {
            s.db_cpu_s / s.db_time_s * 100.0
        } else {
            0.0
        }
    );
    let _ = writeln!(out, "\nload profile (per second): operations {:.1}, logical reads {:.1}, physical reads {:.1}, physical writes {:.1}",
        l.ops_per_s, l.logical_reads_per_s, l.physical_reads_per_s, l.physical_writes_per_s);
    let _ = writeln!(
        out,
        "  read {:.2} MB/s, write {:.2} MB/s, redo {:.3} MB/s ({} B of redo from {} updates; {} B written to the log); DB time {:.1} s; dbio CPU {:.0} % of one core",
        l.read_mb_s, l.write_mb_s, l.redo_mb_s, l.redo_bytes, l.updates, l.log_bytes_written, s.db_time_s, l.cpu_pct
    );
    let _ = writeln!(out, "\n{AWR_INFO_HEADER}\n{}", awr_info(r)?);
    Some(out)
}
