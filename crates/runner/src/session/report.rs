//! The AWR-like report of a session run: wait events with their share of DB time, and the
//! load profile.

use super::meter::{Ev, Meter};
use dbio_model::histogram::new_histogram;
use dbio_model::session::{LoadProfile, SessionReport, SessionSpec, WaitEvent};
use dbio_model::{LatencyHistogram, LatencySummary, RunResult};

/// Builds the report from every thread's meter (sessions first, then the two writers) and,
/// per session, its measured wall time and CPU seconds.
pub fn build(
    ss: &SessionSpec,
    result: &RunResult,
    meters: &[Meter],
    sessions: &[(f64, f64)],
    redo_target: String,
) -> SessionReport {
    let secs = result.measured_secs;
    let think_s: f64 = meters.iter().map(|m| m.think_ns as f64 / 1e9).sum();
    let db_time_s = (sessions.iter().map(|s| s.0).sum::<f64>() - think_s).max(0.0);
    let db_cpu_s = sessions.iter().map(|s| s.1).sum();
    let mut events: Vec<WaitEvent> = Ev::ALL
        .iter()
        .enumerate()
        .filter_map(|(i, ev)| {
            let mut h = new_histogram();
            for m in meters {
                h.add(&m.events[i])
                    .expect("histograms of equal bounds merge");
            }
            if h.is_empty() {
                return None;
            }
            let (name, generic, foreground) = ev.names();
            let time_s = h.mean() * h.len() as f64 / 1e9;
            Some(WaitEvent {
                name: name.into(),
                generic: generic.into(),
                class: if foreground {
                    "foreground"
                } else {
                    "background"
                }
                .into(),
                waits: h.len(),
                time_s,
                pct_db_time: (foreground && db_time_s > 0.0).then(|| time_s / db_time_s * 100.0),
                latency_ns: LatencySummary::of(&h),
                histogram: LatencyHistogram::from_hdr(&h),
            })
        })
        .collect();
    events.sort_by(|a, b| {
        (a.class != "foreground")
            .cmp(&(b.class != "foreground"))
            .then(b.time_s.total_cmp(&a.time_s))
    });
    let sum = |f: fn(&Meter) -> u64| meters.iter().map(f).sum::<u64>();
    let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
    let operations = sum(|m| m.ops);
    let redo_bytes = sum(|m| m.redo_bytes);
    let (reads, writes) = (
        result.read.as_ref().map_or((0, 0), |d| (d.ios, d.bytes)),
        result.write.as_ref().map_or((0, 0), |d| (d.ios, d.bytes)),
    );
    let cpu_s = result.cpu.process_user_s + result.cpu.process_sys_s;
    SessionReport {
        events,
        load: LoadProfile {
            operations,
            updates: sum(|m| m.updates),
            ops_per_s: per_s(operations as f64),
            logical_reads_per_s: per_s((operations * ss.work_unit as u64) as f64),
            physical_reads_per_s: per_s(reads.0 as f64),
            physical_writes_per_s: per_s(writes.0 as f64),
            read_mb_s: per_s(reads.1 as f64) / 1e6,
            write_mb_s: per_s(writes.1 as f64) / 1e6,
            redo_bytes,
            log_bytes_written: sum(|m| m.log_bytes),
            redo_mb_s: per_s(redo_bytes as f64) / 1e6,
            cache_hits: sum(|m| m.cache_hits),
            cpu_pct: per_s(cpu_s) * 100.0,
        },
        db_time_s,
        db_cpu_s,
        redo_target,
    }
}
