//! The Markdown report: the same sections as the HTML page without charts, for pasting into
//! tickets, wikis and pull requests.

use crate::html::charts::mean_p99_us;
use crate::item::{warnings, Item, Result};
use crate::text::{burst_line, describe_job, describe_spec, describe_target, steady_line};
use crate::units::us;
use dbio_model::sweep::SweepResult;
use dbio_model::units::format_size;
use dbio_model::{DirStats, RunResult};
use std::fmt::Write;

/// The Markdown report of the given runs and sweeps.
pub fn report(items: &[Item]) -> String {
    let mut o = String::new();
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            o.push('\n');
        }
        match &it.result {
            Result::Run(r) => {
                let _ = writeln!(o, "# dbio run {}\n", cell(&it.name));
                run(&mut o, r);
            }
            Result::Sweep(s) => {
                let _ = writeln!(o, "# dbio sweep {}\n", cell(&it.name));
                sweep(&mut o, s);
            }
            Result::Suite(s) => {
                let _ = writeln!(o, "# dbio suite {}\n", cell(&it.name));
                let _ = writeln!(o, "{}\n\n| check | measured | threshold | verdict | where |\n|---|---:|---:|---|---|", crate::suite::passed(s));
                for c in &s.scorecard {
                    let (value, limit) = crate::suite::cells(c);
                    let verdict = match c.pass {
                        Some(true) => "PASS",
                        Some(false) => "**FAIL**",
                        None => "-",
                    };
                    let _ = writeln!(
                        o,
                        "| {} | {value} | {limit} | {verdict} | {} |",
                        cell(&c.check),
                        cell(&c.detail)
                    );
                }
                for p in crate::item::parts(s) {
                    match p {
                        crate::item::Part::Run(title, r) => {
                            let _ = writeln!(o, "\n## {title}\n");
                            run(&mut o, r);
                        }
                        crate::item::Part::Sweep(title, w) => {
                            let _ = writeln!(o, "\n## {title}\n");
                            sweep(&mut o, w);
                        }
                    }
                }
            }
        }
    }
    o
}

/// Text safe inside a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn run(o: &mut String, r: &RunResult) {
    let _ = writeln!(o, "{}\n", cell(&describe_job(r)));
    let status = match &r.outcome {
        dbio_model::Outcome::Complete => String::new(),
        dbio_model::Outcome::Interrupted => " **PARTIAL: interrupted**".into(),
        dbio_model::Outcome::IoError(e) => format!(" **PARTIAL: I/O error: {}**", cell(e)),
    };
    let _ = writeln!(
        o,
        "Started {}, measured {}{}.{status}\n",
        r.started_at,
        crate::text::measured(r.measured_secs),
        if r.engine.name == "sim" {
            " of virtual time on a SIMULATED device (no I/O was done)"
        } else {
            ""
        }
    );
    if let Some(v) = &r.verdict {
        let _ = writeln!(o, "**Verdict:** {}\n", cell(&v.message));
    }
    for st in &r.streams {
        let _ = writeln!(
            o,
            "- stream {} ({}): {}",
            st.name,
            st.role,
            describe_spec(&st.job)
        );
    }
    if !r.streams.is_empty() {
        o.push('\n');
    }
    if let Some(st) = &r.steady {
        let _ = writeln!(o, "{}\n", steady_line(st));
    }
    if let Some(b) = &r.job.burst {
        let _ = writeln!(o, "{}\n", burst_line(r, b));
    }
    for st in &r.streams {
        let _ = writeln!(o, "Stream {}:\n", st.name);
        dir_table(o, [&st.read, &st.write, &st.flush]);
    }
    if !r.streams.is_empty() {
        o.push_str("Total of all streams:\n\n");
    }
    dir_table(o, [&r.read, &r.write, &r.flush]);
    if let Some(d) = crate::device_latency::markdown(r) {
        o.push_str(&d);
    }
    if let Some(s) = &r.session {
        o.push_str("## Wait events\n\n| Event | (generic) | class | Waits | Time (s) | Avg (µs) | p99 (µs) | % DB time |\n|---|---|---|--:|--:|--:|--:|--:|\n");
        for e in &s.events {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {:.2} | {} | {} | {} |",
                e.name,
                e.generic,
                e.class,
                e.waits,
                e.time_s,
                us(e.latency_ns.mean as u64),
                us(e.latency_ns.p99),
                e.pct_db_time.map_or("bg".into(), |p| format!("{p:.1}"))
            );
        }
        let _ = writeln!(
            o,
            "\nLoad profile per second: operations {:.1}, physical reads {:.1}, physical writes {:.1}, redo {:.3} MB/s; DB time {:.1} s, DB CPU {:.1} s.\n",
            s.load.ops_per_s,
            s.load.physical_reads_per_s,
            s.load.physical_writes_per_s,
            s.load.redo_mb_s,
            s.db_time_s,
            s.db_cpu_s
        );
    }
    facts(o, r);
    warnings_list(o, &[r]);
}

fn dir_table(o: &mut String, dirs: [&Option<DirStats>; 3]) {
    o.push_str("| | I/Os | IOPS | MB/s | min µs | mean µs | p50 µs | p90 µs | p99 µs | p99.9 µs | p99.99 µs | max µs |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (name, d) in ["read", "write", "flush"].into_iter().zip(dirs) {
        let Some(d) = d else { continue };
        let l = &d.latency_ns;
        let _ = writeln!(
            o,
            "| {name} | {} | {:.0} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
            d.ios,
            d.iops,
            d.mb_s,
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
    o.push('\n');
}

fn facts(o: &mut String, r: &RunResult) {
    let h = &r.host;
    let _ = writeln!(
        o,
        "## Host and targets\n\n- host {}: {} × {}, {} memory, kernel {}",
        h.hostname,
        h.cpus,
        h.cpu_model,
        format_size(h.memory_bytes),
        h.kernel
    );
    let _ = writeln!(
        o,
        "- engine {}{}, {}; data: {}",
        r.engine.name,
        if r.engine.features.is_empty() {
            String::new()
        } else {
            format!(" ({})", r.engine.features.join(", "))
        },
        if r.engine.direct {
            "O_DIRECT"
        } else {
            "buffered"
        },
        r.data.description
    );
    for t in r
        .targets
        .iter()
        .chain(r.streams.iter().flat_map(|s| &s.targets))
    {
        let _ = writeln!(o, "- target {}", describe_target(t));
    }
    o.push('\n');
}

fn warnings_list(o: &mut String, runs: &[&RunResult]) {
    let ws = warnings(runs);
    if ws.is_empty() {
        return;
    }
    o.push_str("## Warnings\n\n");
    for w in ws {
        let _ = writeln!(o, "- {} (`{}`)", w.message, w.code);
    }
    o.push('\n');
}

/// What a sweep shows, one sentence each: the knee, saturation, where bandwidth levels off.
pub fn sweep_conclusions(s: &SweepResult) -> Vec<String> {
    let mut out = Vec::new();
    match (&s.slo, &s.knee) {
        (Some(slo), Some(k)) => out.push(format!(
            "Knee: {}={} gives {:.0} IOPS within {slo}.",
            s.vary, k.value, k.iops
        )),
        (Some(slo), None) => out.push(format!("Knee: no step met {slo}.")),
        (None, _) => out.push("Knee: the sweep had no latency objective (--slo).".into()),
    }
    match &s.saturation {
        Some(p) => out.push(format!(
            "Saturation: from {}={} on, more load adds under 5 % IOPS while latency grows ({:.0} IOPS).",
            s.vary, p.value, p.iops
        )),
        None => out.push("Saturation: not reached; every step still added IOPS.".into()),
    }
    if let Some(p) = &s.bandwidth_90 {
        out.push(format!(
            "Bandwidth reaches 90 % of its best at bs={} ({:.1} MB/s).",
            p.value, p.mb_s
        ));
    }
    out
}

fn sweep(o: &mut String, s: &SweepResult) {
    let Some(first) = s.steps.first() else {
        o.push_str("The sweep has no steps.\n");
        return;
    };
    let _ = writeln!(
        o,
        "{} varying {} over {}: {}\n",
        first.job.profile,
        s.vary,
        s.values.join(", "),
        cell(&describe_job(first))
    );
    if s.partial {
        o.push_str("**PARTIAL: the sweep stopped before its last step.**\n\n");
    }
    let _ = writeln!(
        o,
        "| {} | I/Os | s | IOPS | MB/s | mean µs | p99 µs |\n|---|--:|--:|--:|--:|--:|--:|",
        s.vary
    );
    for (v, r) in s.values.iter().zip(&s.steps) {
        let (mean, p99) = mean_p99_us(r);
        let ios = r.total_ios();
        let _ = writeln!(
            o,
            "| {} | {ios} | {:.1} | {:.0} | {:.1} | {mean:.1} | {p99:.1} |",
            cell(v),
            r.measured_secs,
            r.total_iops(),
            r.total_mb_s()
        );
    }
    o.push('\n');
    for line in sweep_conclusions(s) {
        let _ = writeln!(o, "{line}\n");
    }
    facts(o, first);
    let runs: Vec<&RunResult> = s.steps.iter().collect();
    warnings_list(o, &runs);
}
