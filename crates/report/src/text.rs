//! The human summary of a run: what ran, a table per direction, CPU, warnings.

use crate::units::us;
use dbio_model::units::format_size;
use dbio_model::*;
use std::fmt::Write;

/// One line saying what ran, e.g. `randrw 70 % read, 8 KiB, QD 32 × 1 thread, 30 s on ./dbio-testfile`.
pub fn describe_job(r: &RunResult) -> String {
    describe_spec(&r.job)
}

/// One line saying what a job does (see [`describe_job`]).
pub fn describe_spec(j: &JobSpec) -> String {
    let rw = match j.rw {
        Rw::RandRw => format!("randrw {} % read", j.read_pct),
        Rw::ReadWrite => format!("readwrite {} % read", j.read_pct),
        other => format!("{other:?}").to_lowercase(),
    };
    let bs =
        j.bs.iter()
            .map(|b| {
                if j.bs.len() == 1 {
                    format_size(b.size)
                } else {
                    format!("{} ×{}", format_size(b.size), b.weight)
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
    let length = match j.stop {
        StopAfter::Seconds(s) => format!("{s} s"),
        StopAfter::Ops(n) if j.session.is_some() => format!("{n} operations"),
        StopAfter::Ops(n) => format!("{n} I/Os"),
        StopAfter::Bytes(n) => format_size(n),
    };
    if let Some(ss) = &j.session {
        return format!(
            "{} sessions (the SLOB method), {} pages of {} per operation, {length} on {}",
            ss.sessions,
            ss.work_unit,
            format_size(ss.page),
            j.targets.join(", ")
        );
    }
    let threads = if j.threads == 1 { "thread" } else { "threads" };
    let rate = j
        .rate
        .map(|r| format!(", paced at {r} IOPS (latency from each I/O's scheduled start)"))
        .unwrap_or_default();
    let part = j.region.split.map_or(String::new(), |s| {
        format!(
            " (part {} of {} of the region, --split-region)",
            s.part, s.parts
        )
    });
    format!(
        "{rw}, {bs}, QD {} × {} {threads}, {length}{rate} on {}{part}",
        j.qd,
        j.threads,
        place(j)
    )
}

/// Where the job ran: its targets, or the simulated device.
pub fn place(j: &JobSpec) -> String {
    match (&j.engine, &j.sim) {
        (EngineKind::Sim, Some(d)) => format!("a SIMULATED device ({})", d.describe()),
        (EngineKind::Sim, None) => "a SIMULATED device".into(),
        _ => j.targets.join(", "),
    }
}

/// One line of target facts, e.g. `./f: file, 1 GiB on vda (logical block 512 B, rotational no, scheduler mq-deadline, write back)`.
pub fn describe_target(t: &TargetFacts) -> String {
    let mut facts = Vec::new();
    if let Some(l) = t.logical_block_size {
        facts.push(format!("logical block {l} B"));
    }
    if let Some(r) = t.rotational {
        facts.push(format!("rotational {}", if r { "yes" } else { "no" }));
    }
    if let Some(sch) = &t.scheduler {
        facts.push(format!("scheduler {sch}"));
    }
    if let Some(w) = &t.write_cache {
        facts.push(w.clone());
    }
    let on = t
        .device
        .as_deref()
        .map(|d| format!(" on {d}"))
        .unwrap_or_default();
    let facts = if facts.is_empty() {
        String::new()
    } else {
        format!(" ({})", facts.join(", "))
    };
    let medium = t
        .medium
        .as_ref()
        .map(|m| format!(" in {}", m.describe()))
        .unwrap_or_default();
    format!(
        "{}: {}, {}{medium}{on}{facts}",
        t.path,
        t.kind,
        format_size(t.size_bytes)
    )
}

/// The first line(s) of a run's summary: what ran (a replay, a job, or a profile's streams).
fn headline(r: &RunResult, status: &str) -> String {
    let mut s = String::new();
    if let Some(rp) = &r.job.replay {
        let how = if rp.as_fast_as_possible {
            "as fast as possible".to_string()
        } else {
            format!("at {}x its times", rp.speed)
        };
        let _ = writeln!(
            s,
            "dbio replay: {} ({} requests of {}) {how}, up to {} in flight, on {}{status}",
            rp.trace,
            rp.requests,
            rp.devices.join(", "),
            r.job.qd,
            r.job.targets.join(", ")
        );
    } else if r.streams.is_empty() {
        let _ = writeln!(s, "dbio run: {}{status}", describe_job(r));
    } else {
        let _ = writeln!(
            s,
            "dbio run: profile {}, {} streams at once{status}",
            r.job.profile,
            r.streams.len()
        );
        for st in &r.streams {
            let _ = writeln!(
                s,
                "  stream {} ({}): {}",
                st.name,
                st.role,
                describe_spec(&st.job)
            );
        }
    }
    s
}

/// Renders the summary printed at the end of `dbio run`.
pub fn summary(r: &RunResult) -> String {
    let mut s = String::new();
    let status = match &r.outcome {
        Outcome::Complete => String::new(),
        Outcome::Interrupted => " [PARTIAL: interrupted]".into(),
        Outcome::IoError(_) => " [PARTIAL: I/O error]".into(),
    };
    s += &headline(r, &status);
    let feats = if r.engine.features.is_empty() {
        String::new()
    } else {
        format!(" ({})", r.engine.features.join(", "))
    };
    if r.engine.name == "sim" {
        let _ = writeln!(
            s,
            "engine sim: SIMULATED, no I/O was done; {} of virtual time measured",
            measured(r.measured_secs)
        );
    } else {
        let _ = writeln!(
            s,
            "engine {}{feats}, {}, data: {}; measured {}",
            r.engine.name,
            if r.engine.direct {
                "O_DIRECT"
            } else {
                "buffered"
            },
            data_label(&r.data),
            measured(r.measured_secs)
        );
        if let Some(c) = &r.engine.cpu_idle {
            let _ = writeln!(s, "CPU idle states: {c}");
        }
    }
    for t in &r.targets {
        let _ = writeln!(s, "target {}", describe_target(t));
    }
    if let Some(st) = &r.steady {
        let _ = writeln!(s, "{}", steady_line(st));
    }
    if let Some(b) = &r.job.burst {
        let _ = writeln!(s, "{}", burst_line(r, b));
    }
    for st in &r.streams {
        let _ = writeln!(s, "\nstream {} on {}:", st.name, st.job.targets.join(", "));
        dir_table(&mut s, [&st.read, &st.write, &st.flush]);
    }
    if !r.streams.is_empty() {
        let _ = writeln!(s, "\ntotal of all streams:");
    } else {
        let _ = writeln!(s);
    }
    dir_table(&mut s, [&r.read, &r.write, &r.flush]);
    if let Some(t) = crate::cluster::table(r) {
        s += &t;
    }
    let c = &r.cpu;
    let _ = writeln!(s);
    if r.engine.name != "sim" {
        let _ = writeln!(
            s,
            "CPU: dbio {:.2} s user + {:.2} s system ({:.0} I/Os per CPU-second); host {:.0} % busy",
            c.process_user_s, c.process_sys_s, c.ios_per_cpu_s, c.host_busy_pct
        );
    }
    if let Some(v) = &r.verdict {
        let _ = writeln!(s, "verdict: {}", v.message);
    }
    if let Some(awr) = crate::awr::report(r) {
        s += &awr;
    }
    if let Some(v) = &r.verify {
        s += &v.summary(5);
    }
    if let Some(rp) = &r.replay {
        s += &replay_line(rp);
    }
    if let Some(d) = crate::device_latency::text(r) {
        s += &d;
    }
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {}", w.message);
    }
    s
}

/// The table of read, write and flush figures with latency percentiles.
fn dir_table(s: &mut String, dirs: [&Option<DirStats>; 3]) {
    let _ = writeln!(
        s,
        "{:<6} {:>10} {:>9} {:>9}  {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}   latency µs",
        "", "IOPS", "MB/s", "MiB/s", "min", "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max"
    );
    for (name, d) in ["read", "write", "flush"].into_iter().zip(dirs) {
        let Some(d) = d else { continue };
        let l = &d.latency_ns;
        let _ = writeln!(
            s,
            "{:<6} {:>10.0} {:>9.1} {:>9.1}  {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
            name,
            d.iops,
            d.mb_s,
            d.mib_s,
            us(l.min),
            us(l.mean as u64),
            us(l.p50),
            us(l.p90),
            us(l.p99),
            us(l.p99_9),
            us(l.p99_99),
            us(l.max)
        );
    }
}

/// One line on settling: whether the criterion held, after how long, and the last window.
pub fn steady_line(st: &SteadyState) -> String {
    let window = match (st.spread_pct, st.slope_pct) {
        (Some(spread), Some(slope)) => format!(
            " (last {} s: within {spread:.1} % of the mean, slope {slope:+.2} %/s)",
            st.window_secs
        ),
        _ => String::new(),
    };
    if st.settled {
        format!(
            "steady state {} reached after {:.1} s{window}; measured after it",
            st.criterion, st.settle_secs
        )
    } else {
        format!(
            "steady state {} NOT reached within {} s{window}; measured anyway",
            st.criterion, st.max_secs
        )
    }
}

/// One line on bursts: the figures above average idle time in; the rate within bursts.
pub fn burst_line(r: &RunResult, b: &Burst) -> String {
    let (ios, bytes) = (r.total_ios(), r.total_bytes());
    let on = b.on_time(r.measured_secs);
    let per_s = |x: u64| if on > 0.0 { x as f64 / on } else { 0.0 };
    format!(
        "bursts of {} s every {} s: IOPS and MB/s in the table are averaged over the whole window, idle time included; within bursts ({on:.1} s of {:.1} s) {:.0} IOPS, {:.1} MB/s",
        b.on_secs,
        b.period_secs,
        r.measured_secs,
        per_s(ios),
        per_s(bytes) / 1e6
    )
}

/// The data kind with its parameters, e.g. "reducible (dedupe 3:1, compress 2:1, 8 KiB units)".
/// A measuring time for reading: a run of ops or bytes may take a few milliseconds.
pub fn measured(secs: f64) -> String {
    if secs < 1.0 {
        format!("{:.0} ms", secs * 1000.0)
    } else {
        format!("{secs:.1} s")
    }
}

fn data_label(d: &dbio_model::DataInfo) -> String {
    match (d.dedupe_ratio, d.compress_ratio, d.unit_bytes, &d.pattern) {
        (Some(r), Some(c), Some(u), _) => format!(
            "{} (dedupe {r}:1, compress {c}:1, {} units)",
            d.kind,
            dbio_model::units::format_size(u)
        ),
        (_, _, _, Some(p)) => format!("{} {p}", d.kind),
        _ => d.kind.clone(),
    }
}

/// How closely a replay kept its trace, in one line.
fn replay_line(rp: &dbio_model::replay::ReplayReport) -> String {
    let us = |ns: u64| ns as f64 / 1000.0;
    let timed = if rp.as_fast_as_possible {
        String::new()
    } else {
        format!(
            "; {:.1} % within 100 µs of their time (lag p50 {:.0} µs, p99 {:.0} µs); {:.0} % of the seconds within 5 % of the captured I/O",
            rp.on_time_pct,
            us(rp.lag_ns.p50),
            us(rp.lag_ns.p99),
            rp.seconds_within_5_pct
        )
    };
    format!(
        "replay: {} of {} requests issued{timed}; {} folded into the target, {} discards not replayed\n",
        rp.issued, rp.requests, rp.folded, rp.discards_skipped
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_line_names_device_and_facts() {
        let t = TargetFacts {
            path: "/d/f".into(),
            kind: "file".into(),
            size_bytes: 1 << 30,
            device: Some("vda".into()),
            logical_block_size: Some(512),
            rotational: Some(false),
            scheduler: Some("none".into()),
            write_cache: Some("write back".into()),
            ..Default::default()
        };
        assert_eq!(
            describe_target(&t),
            "/d/f: file, 1 GiB on vda (logical block 512 B, rotational no, scheduler none, write back)"
        );
    }

    #[test]
    fn target_line_names_a_memory_medium() {
        let t = TargetFacts {
            path: "/dev/shm/f".into(),
            kind: "file".into(),
            size_bytes: 1 << 20,
            medium: Some(dbio_model::TargetMedium {
                kind: "memory".into(),
                via: "tmpfs".into(),
                reason: "/dev/shm/f is on tmpfs (statfs)".into(),
            }),
            ..Default::default()
        };
        assert_eq!(
            describe_target(&t),
            "/dev/shm/f: file, 1 MiB in memory (tmpfs)"
        );
    }

    #[test]
    fn microseconds_keep_three_figures() {
        assert_eq!(us(1_234), "1.23");
        assert_eq!(us(81_234), "81.2");
        assert_eq!(us(12_345_678), "12346");
    }
}
