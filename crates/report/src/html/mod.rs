//! The HTML report: one self-contained page (inline CSS and SVG, no scripts, no fonts, no
//! network), one section per run or sweep, that reads at laptop width and prints.

pub mod advise;
pub mod capture;
pub mod charts;
mod cluster;
pub mod collect;
mod db;
pub mod svg;

use crate::item::{warnings, Item, Result};
use crate::text::{burst_line, describe_job, describe_spec, describe_target, steady_line};
use crate::units::us;
use charts::{directions, mean_p99_us, run_charts, sweep_charts};
use dbio_model::sweep::SweepResult;
use dbio_model::units::format_size;
use dbio_model::{DirStats, RunResult};
use std::fmt::Write;
use svg::{esc, render};

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2330;
  background: #fff; margin: 0 auto; padding: 1rem 1.25rem 3rem; max-width: 62rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 .25rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #d8dde6; padding-bottom: .2rem; margin-top: 2.2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
p.what { font-size: 1.05rem; margin: .3rem 0; }
.muted { color: #5b6474; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: .4rem 0 .8rem; font-variant-numeric: tabular-nums; }
th, td { padding: .22rem .6rem; border-bottom: 1px solid #e3e7ee; text-align: right; white-space: nowrap; }
th { background: #f3f5f9; font-weight: 600; }
td.l, th.l { text-align: left; white-space: normal; }
figure { margin: .6rem 0 1.2rem; }
svg { width: 100%; height: auto; max-width: 46rem; display: block; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg text.title { font-size: 13px; font-weight: 600; }
svg text.axis { font-size: 12px; fill: #444; }
svg .grid { stroke: #e6e9ef; stroke-width: 1; }
svg .frame { fill: none; stroke: #9aa3b2; }
svg polyline { fill: none; stroke-width: 2; }
svg .s0 polyline { stroke: #1f6fd1; } svg .s0 circle, svg .s0 rect { fill: #1f6fd1; }
svg .s1 polyline { stroke: #d1541f; } svg .s1 circle, svg .s1 rect { fill: #d1541f; }
svg .s2 polyline { stroke: #2f9a4a; } svg .s2 circle, svg .s2 rect { fill: #2f9a4a; }
svg .s3 polyline { stroke: #8a3fc1; } svg .s3 circle, svg .s3 rect { fill: #8a3fc1; }
svg .s4 polyline { stroke: #b8901a; } svg .s4 circle, svg .s4 rect { fill: #b8901a; }
svg .s5 polyline { stroke: #444; } svg .s5 circle, svg .s5 rect { fill: #444; }
svg .mark circle { fill: none; stroke: #c0182b; stroke-width: 2; }
svg .mark text { fill: #c0182b; font-weight: 600; }
svg .limit line { stroke: #c0182b; stroke-dasharray: 6 4; stroke-width: 1.5; }
svg .limit text { fill: #c0182b; }
ul.warnings li { margin: .3rem 0; }
ul.warnings code { color: #8a5a00; }
.partial { color: #b00020; font-weight: 600; }
details pre { font-size: 12px; overflow-x: auto; background: #f6f7f9; padding: .6rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-before: page; } h2.first { break-before: auto; }
  figure, table { break-inside: avoid; }
  svg { max-width: 17cm; }
  details { display: none; }
}
"#;

/// The whole page for the given runs and sweeps.
pub fn page(items: &[Item]) -> String {
    let mut o = String::new();
    let title = match items {
        [one] => format!("dbio report: {}", one.name),
        _ => format!("dbio report: {} results", items.len()),
    };
    o.push_str(&head(&title));
    if items.len() > 1 {
        overview(&mut o, items);
    }
    for (i, it) in items.iter().enumerate() {
        let first = if i == 0 { " class=\"first\"" } else { "" };
        match &it.result {
            Result::Run(r) => {
                let _ = writeln!(o, "<h2{first}>Run {}</h2>", esc(&it.name));
                run_section(&mut o, r);
            }
            Result::Sweep(s) => {
                let _ = writeln!(o, "<h2{first}>Sweep {}</h2>", esc(&it.name));
                sweep_section(&mut o, s);
            }
            Result::Suite(s) => {
                let _ = writeln!(o, "<h2{first}>Assessment {}</h2>", esc(&it.name));
                suite_section(&mut o, s);
            }
        }
    }
    o.push_str(&foot());
    o
}

/// The top of every page: the self-contained head (inline style, a policy that forbids any
/// load) and the title.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    )
}

/// The end of every page.
fn foot() -> String {
    format!(
        "<p class=\"muted\">Written by dbio {}. Latency figures come from HDR histograms (3 significant digits).</p></body></html>\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// `dbio compare --html`: the conditions that differ, the metrics side by side, and the
/// runs' histograms, percentile curves and IOPS over time overlaid, B against A.
pub fn compare_page(a: (&str, &RunResult), others: &[(&str, &RunResult)]) -> String {
    use dbio_analyze::compare::{differences, direction};
    let mut o = head(&format!(
        "dbio compare: {} against {}",
        others.iter().map(|x| x.0).collect::<Vec<_>>().join(", "),
        a.0
    ));
    for (bn, b) in others {
        let _ = writeln!(o, "<h2>{} against {}</h2>", esc(bn), esc(a.0));
        let diffs = differences(a.1, b);
        if diffs.is_empty() {
            o.push_str("<p>The same workload, engine, data, host and targets.</p>\n");
        } else {
            o.push_str("<p>Conditions that differ: read these before the figures.</p><div class=\"scroll\"><table data-table=\"differences\"><tr><th class=\"l\">setting</th><th class=\"l\">A</th><th class=\"l\">B</th></tr>\n");
            for d in &diffs {
                let _ = writeln!(o, "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td></tr>", esc(&d.key), esc(&d.a), esc(&d.b));
            }
            o.push_str("</table></div>\n");
        }
        for dir in ["read", "write"] {
            let metrics = direction(dir, a.1, b);
            if metrics.is_empty() {
                continue;
            }
            let _ = writeln!(o, "<h3>{dir}</h3><div class=\"scroll\"><table data-table=\"compare-{dir}\"><tr><th class=\"l\">metric</th><th>A</th><th>B</th><th>B/A</th><th>spread</th><th class=\"l\">verdict</th></tr>");
            for m in &metrics {
                let _ = writeln!(
                    o,
                    "<tr><td class=\"l\">{}</td><td>{:.1}</td><td>{:.1}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
                    esc(&m.name),
                    m.a,
                    m.b,
                    m.ratio.map_or("-".into(), |r| format!("{r:.3}")),
                    m.spread.map_or("-".into(), |x| format!("{:.1} %", x * 100.0)),
                    m.verdict.unwrap_or("")
                );
            }
            o.push_str("</table></div>\n");
        }
        for c in charts::overlay_charts((a.0, a.1), (bn, b)) {
            let _ = writeln!(o, "<figure>{}</figure>", render(&c));
        }
    }
    o.push_str(&foot());
    o
}

/// A table with one row per result: what ran and its headline figures.
fn overview(o: &mut String, items: &[Item]) {
    o.push_str("<div class=\"scroll\"><table><tr><th class=\"l\">result</th><th class=\"l\">what ran</th><th>IOPS</th><th>MB/s</th><th>mean µs</th><th>p99 µs</th></tr>\n");
    for it in items {
        let (what, r) = match &it.result {
            Result::Run(r) => (describe_job(r), Some(&**r)),
            Result::Sweep(s) => (
                format!("sweep of {} over {}", s.vary, s.values.join(", ")),
                s.knee.as_ref().and_then(|k| s.steps.get(k.step)),
            ),
            Result::Suite(s) => (
                format!("assessment: {}", crate::suite::passed(s)),
                s.oltp_read
                    .as_ref()
                    .and_then(|w| w.knee.as_ref().and_then(|k| w.steps.get(k.step))),
            ),
        };
        let figs = r.map_or("<td></td><td></td><td></td><td></td>".into(), |r| {
            let (mean, p99) = mean_p99_us(r);
            format!(
                "<td>{:.0}</td><td>{:.1}</td><td>{mean:.1}</td><td>{p99:.1}</td>",
                r.total_iops(),
                r.total_mb_s()
            )
        });
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td>{figs}</tr>",
            esc(&it.name),
            esc(&what)
        );
    }
    o.push_str("</table></div>\n<p class=\"muted\">A sweep's figures are those of its knee, when it has one.</p>\n");
}

/// An assessment: its scorecard, then every part as a run or sweep of its own.
fn suite_section(o: &mut String, s: &dbio_model::suite::SuiteResult) {
    let _ = writeln!(
        o,
        "<p class=\"what\">{}{}</p>",
        esc(&crate::suite::passed(s)),
        if s.partial {
            " <span class=\"partial\">PARTIAL: the suite stopped before its end</span>"
        } else {
            ""
        }
    );
    o.push_str("<div class=\"scroll\"><table data-table=\"scorecard\"><tr><th class=\"l\">check</th><th>measured</th><th>threshold</th><th class=\"l\">verdict</th><th class=\"l\">where</th></tr>\n");
    for c in &s.scorecard {
        let (value, limit) = crate::suite::cells(c);
        let verdict = match c.pass {
            Some(true) => "PASS",
            Some(false) => "<span class=\"partial\">FAIL</span>",
            None => "-",
        };
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td class=\"l\">{verdict}</td><td class=\"l\">{}</td></tr>",
            esc(&c.check),
            esc(&value),
            esc(&limit),
            esc(&c.detail)
        );
    }
    o.push_str("</table></div>\n");
    for p in crate::item::parts(s) {
        match p {
            crate::item::Part::Run(title, r) => {
                let _ = writeln!(o, "<h3>{}</h3>", esc(title));
                run_section(o, r);
            }
            crate::item::Part::Sweep(title, w) => {
                let _ = writeln!(o, "<h3>{}</h3>", esc(title));
                sweep_section(o, w);
            }
        }
    }
}

fn run_section(o: &mut String, r: &RunResult) {
    let _ = writeln!(o, "<p class=\"what\">{}</p>", esc(&describe_job(r)));
    let outcome = match &r.outcome {
        dbio_model::Outcome::Complete => String::new(),
        dbio_model::Outcome::Interrupted => {
            " <span class=\"partial\">PARTIAL: interrupted</span>".into()
        }
        dbio_model::Outcome::IoError(e) => {
            format!(
                " <span class=\"partial\">PARTIAL: I/O error: {}</span>",
                esc(e)
            )
        }
    };
    let _ = writeln!(
        o,
        "<p class=\"muted\">started {}, measured {}{}{outcome}</p>",
        esc(&r.started_at),
        crate::text::measured(r.measured_secs),
        if r.engine.name == "sim" {
            " of virtual time on a SIMULATED device: no I/O was done"
        } else {
            ""
        }
    );
    for st in &r.streams {
        let _ = writeln!(
            o,
            "<p>stream <b>{}</b> ({}): {}</p>",
            esc(&st.name),
            esc(&st.role),
            esc(&describe_spec(&st.job))
        );
    }
    if let Some(st) = &r.steady {
        let _ = writeln!(o, "<p>{}</p>", esc(&steady_line(st)));
    }
    if let Some(b) = &r.job.burst {
        let _ = writeln!(o, "<p>{}</p>", esc(&burst_line(r, b)));
    }
    if let Some(v) = &r.verdict {
        let _ = writeln!(
            o,
            "<p class=\"verdict\" data-verdict=\"{}\"><b>Verdict:</b> {}</p>",
            esc(&v.limit),
            esc(&v.message)
        );
    }
    warnings_list(o, &[r]);
    o.push_str("<h3>Throughput and latency</h3>\n");
    for st in &r.streams {
        let _ = writeln!(o, "<p>stream {}:</p>", esc(&st.name));
        dir_table(o, [&st.read, &st.write, &st.flush]);
    }
    if !r.streams.is_empty() {
        o.push_str("<p>total of all streams:</p>\n");
    }
    dir_table(o, [&r.read, &r.write, &r.flush]);
    device_latency(o, r);
    cluster::section(o, r);
    if r.engine.name != "sim" {
        let c = &r.cpu;
        let _ = writeln!(
            o,
            "<p>CPU: dbio {:.2} s user + {:.2} s system ({:.0} I/Os per CPU-second); host {:.0} % busy</p>",
            c.process_user_s, c.process_sys_s, c.ios_per_cpu_s, c.host_busy_pct
        );
    }
    if !directions(r).is_empty() {
        o.push_str("<h3>Charts</h3>\n");
        for c in run_charts(r) {
            o.push_str(&render(&c));
        }
    }
    session_table(o, r);
    db::run_tables(o, r);
    facts(o, r);
    let _ = writeln!(
        o,
        "<details><summary>The summary as dbio prints it</summary><pre>{}</pre></details>",
        esc(&crate::text::summary(r))
    );
}

/// A direction's row of figures in µs, with the latency percentiles.
/// Where the time went (`--device-latency`), as a table with its notes.
fn device_latency(o: &mut String, r: &RunResult) {
    let Some(t) = crate::device_latency::table(r) else {
        return;
    };
    let _ = write!(
        o,
        "<h3>{}</h3>\n<div class=\"scroll\"><table class=\"device-latency\">",
        esc(&t.title)
    );
    let header = crate::device_latency::HEADER.map(String::from);
    for (k, cells) in std::iter::once(header).chain(t.rows).enumerate() {
        let tag = if k == 0 { "th" } else { "td" };
        let _ = write!(o, "<tr><th class=\"l\">{}</th>", esc(&cells[0]));
        for c in &cells[1..] {
            let _ = write!(o, "<{tag}>{}</{tag}>", esc(c));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table></div>\n");
    for n in t.notes {
        let _ = writeln!(o, "<p class=\"muted\">{}</p>", esc(&n));
    }
}

fn dir_table(o: &mut String, dirs: [&Option<DirStats>; 3]) {
    o.push_str("<div class=\"scroll\"><table><tr><th class=\"l\"></th><th>I/Os</th><th>IOPS</th><th>MB/s</th><th>MiB/s</th><th>min</th><th>mean</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th></tr>\n");
    for (name, d) in ["read", "write", "flush"].into_iter().zip(dirs) {
        let Some(d) = d else { continue };
        let l = &d.latency_ns;
        let _ = write!(
            o,
            "<tr><th class=\"l\">{name}</th><td>{}</td><td>{:.0}</td><td>{:.1}</td><td>{:.1}</td>",
            d.ios, d.iops, d.mb_s, d.mib_s
        );
        for v in [
            l.min,
            l.mean as u64,
            l.p50,
            l.p90,
            l.p99,
            l.p99_9,
            l.p99_99,
            l.max,
        ] {
            let _ = write!(o, "<td>{}</td>", us(v));
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table></div><p class=\"muted\">Latency in µs.</p>\n");
}

/// Every warning, in the plain words the run wrote, with its stable code.
fn warnings_list(o: &mut String, runs: &[&RunResult]) {
    let ws = warnings(runs);
    if ws.is_empty() {
        return;
    }
    o.push_str("<h3>Warnings</h3>\n<ul class=\"warnings\">\n");
    for w in ws {
        let _ = writeln!(
            o,
            "<li data-warning=\"{}\">{} <code>{}</code></li>",
            esc(&w.code),
            esc(&w.message),
            esc(&w.code)
        );
    }
    o.push_str("</ul>\n");
}

/// The AWR-like wait-event table and load profile of a session run.
fn session_table(o: &mut String, r: &RunResult) {
    let (Some(s), Some(spec)) = (&r.session, &r.job.session) else {
        return;
    };
    let _ = writeln!(
        o,
        "<h3>Wait events (session mode, the SLOB method)</h3>\n<p>{} sessions, work unit {} pages of {}, update {} %, redo {} B per page, buffer pool hits {} %; redo log: {}</p>",
        spec.sessions,
        spec.work_unit,
        format_size(spec.page),
        spec.update_pct,
        spec.redo_stress,
        spec.cache_hit_pct,
        esc(&s.redo_target)
    );
    o.push_str("<div class=\"scroll\"><table data-table=\"wait-events\"><tr><th class=\"l\">Event</th><th class=\"l\">(generic)</th><th class=\"l\">class</th><th>Waits</th><th>Time (s)</th><th>Avg (µs)</th><th>p99 (µs)</th><th>% DB time</th></tr>\n");
    for e in &s.events {
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&e.name),
            esc(&e.generic),
            esc(&e.class),
            e.waits,
            e.time_s,
            us(e.latency_ns.mean as u64),
            us(e.latency_ns.p99),
            e.pct_db_time.map_or("bg".into(), |p| format!("{p:.1}"))
        );
    }
    let cpu_pct = if s.db_time_s > 0.0 {
        s.db_cpu_s / s.db_time_s * 100.0
    } else {
        0.0
    };
    let _ = writeln!(
        o,
        "<tr><td class=\"l\">DB CPU</td><td class=\"l\">session CPU</td><td class=\"l\"></td><td></td><td>{:.2}</td><td></td><td></td><td>{cpu_pct:.1}</td></tr></table></div>",
        s.db_cpu_s
    );
    let l = &s.load;
    let _ = writeln!(
        o,
        "<p>Load profile per second: operations {:.1}, logical reads {:.1}, physical reads {:.1}, physical writes {:.1}; read {:.2} MB/s, write {:.2} MB/s, redo {:.3} MB/s; DB time {:.1} s.</p>",
        l.ops_per_s, l.logical_reads_per_s, l.physical_reads_per_s, l.physical_writes_per_s,
        l.read_mb_s, l.write_mb_s, l.redo_mb_s, s.db_time_s
    );
}

/// Host, engine, data and target facts.
fn facts(o: &mut String, r: &RunResult) {
    let h = &r.host;
    o.push_str("<h3>Host and targets</h3>\n<div class=\"scroll\"><table data-table=\"host\">\n");
    let engine = if r.engine.features.is_empty() {
        r.engine.name.clone()
    } else {
        format!("{} ({})", r.engine.name, r.engine.features.join(", "))
    };
    let rows = [
        ("host", h.hostname.clone()),
        ("CPU", format!("{} × {}", h.cpus, h.cpu_model)),
        ("memory", format_size(h.memory_bytes)),
        ("kernel", h.kernel.clone()),
        ("engine", engine),
        (
            "I/O",
            if r.engine.direct {
                "O_DIRECT".into()
            } else {
                "buffered (page cache)".into()
            },
        ),
        ("data", r.data.description.clone()),
        ("profile", r.job.profile.clone()),
        ("dbio", r.dbio_version.clone()),
    ];
    for (k, v) in rows {
        let _ = writeln!(
            o,
            "<tr><th class=\"l\">{k}</th><td class=\"l\">{}</td></tr>",
            esc(&v)
        );
    }
    o.push_str("</table></div>\n");
    let targets: Vec<_> = r
        .targets
        .iter()
        .chain(r.streams.iter().flat_map(|s| &s.targets))
        .collect();
    if !targets.is_empty() {
        o.push_str("<ul>\n");
        let mut seen = Vec::new();
        for t in targets {
            if seen.contains(&&t.path) {
                continue;
            }
            seen.push(&t.path);
            let _ = writeln!(o, "<li>{}</li>", esc(&describe_target(t)));
        }
        o.push_str("</ul>\n");
    }
    if !r.data.prefill.is_empty() {
        let _ = writeln!(
            o,
            "<p class=\"muted\">Target content: {}.</p>",
            esc(&r.data.prefill.join("; "))
        );
    }
}

fn sweep_section(o: &mut String, s: &SweepResult) {
    let Some(first) = s.steps.first() else {
        o.push_str("<p>The sweep has no steps.</p>\n");
        return;
    };
    let _ = writeln!(
        o,
        "<p class=\"what\">{} varying <b>{}</b> over {}: {}</p>",
        esc(&first.job.profile),
        esc(&s.vary),
        esc(&s.values.join(", ")),
        esc(&describe_job(first))
    );
    if s.partial {
        o.push_str("<p class=\"partial\">PARTIAL: the sweep stopped before its last step.</p>\n");
    }
    let runs: Vec<&RunResult> = s.steps.iter().collect();
    warnings_list(o, &runs);
    o.push_str("<h3>Steps</h3>\n");
    o.push_str(&format!("<div class=\"scroll\"><table data-table=\"steps\"><tr><th class=\"l\">{}</th><th>I/Os</th><th>s</th><th>IOPS</th><th>MB/s</th><th>mean µs</th><th>p99 µs</th><th class=\"l\"></th></tr>\n", esc(&s.vary)));
    for (i, (v, r)) in s.values.iter().zip(&s.steps).enumerate() {
        let (mean, p99) = mean_p99_us(r);
        let ios = r.total_ios();
        let mut notes = Vec::new();
        if s.knee.as_ref().is_some_and(|k| k.step == i) {
            notes.push("knee");
        }
        if s.saturation.as_ref().is_some_and(|k| k.step == i) {
            notes.push("saturation");
        }
        if s.bandwidth_90.as_ref().is_some_and(|k| k.step == i) {
            notes.push("90 % of best bandwidth");
        }
        if r.steady.as_ref().is_some_and(|st| !st.settled) {
            notes.push("not settled");
        }
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td>{ios}</td><td>{:.1}</td><td>{:.0}</td><td>{:.1}</td><td>{mean:.1}</td><td>{p99:.1}</td><td class=\"l\">{}</td></tr>",
            esc(v),
            r.measured_secs,
            r.total_iops(),
            r.total_mb_s(),
            notes.join(", ")
        );
    }
    o.push_str("</table></div>\n");
    db::sweep_table(o, s);
    for line in crate::markdown::sweep_conclusions(s) {
        let _ = writeln!(o, "<p>{}</p>", esc(&line));
    }
    o.push_str("<h3>Charts</h3>\n");
    for c in sweep_charts(s) {
        o.push_str(&render(&c));
    }
    let awr: Vec<String> = s.steps.iter().filter_map(crate::awr::awr_info).collect();
    if !awr.is_empty() {
        let _ = writeln!(
            o,
            "<h3>awr_info (one row per step)</h3><pre>{}\n{}</pre>",
            esc(crate::awr::AWR_INFO_HEADER),
            esc(&awr.join("\n"))
        );
        for (v, r) in s.values.iter().zip(&s.steps) {
            if r.session.is_some() {
                let _ = writeln!(o, "<p>step {}={}:</p>", esc(&s.vary), esc(v));
                session_table(o, r);
            }
        }
    }
    facts(o, first);
}
