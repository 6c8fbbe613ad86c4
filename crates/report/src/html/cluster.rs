//! A merged result's own part of the page: a row per host with its figures, the hosts that
//! gave nothing, the spread and the clocks, and the hosts' IOPS and p99 side by side.

use super::svg::{esc, render, Axis, Chart, Series};
use dbio_model::cluster::{Cluster, HostDir, HostRow};
use dbio_model::RunResult;
use std::fmt::Write;

/// Host names shown under a chart's x axis up to this many hosts; above, their numbers (the
/// table's first column).
const NAMED_TICKS: usize = 12;

/// The hosts' table and charts of a merged result (nothing for one host's run).
pub fn section(o: &mut String, r: &RunResult) {
    let Some(c) = &r.cluster else { return };
    o.push_str("<h3>Hosts</h3>\n");
    let _ = writeln!(
        o,
        "<p>{} hosts merged exactly over the {:.1} s all of them measured (start skew {:.1} ms).</p>",
        c.hosts.len(),
        c.window_secs,
        c.start_skew_ms
    );
    table(o, c);
    for n in crate::cluster::notes(c) {
        let _ = writeln!(o, "<p class=\"muted\">{}</p>", esc(&n));
    }
    if !c.hosts.is_empty() {
        for chart in charts(c) {
            o.push_str(&render(&chart));
        }
    }
}

/// One direction's cells of a host's row.
fn dir_cells(d: &Option<HostDir>) -> String {
    match d {
        Some(d) => format!(
            "<td>{:.0}</td><td>{:.1}</td><td>{:.0}</td><td>{:.0}</td><td>{:.0}</td>",
            d.iops, d.mb_s, d.p50_us, d.p99_us, d.p99_9_us
        ),
        None => "<td>-</td>".repeat(5),
    }
}

/// What limited a host, or how its run ended when it did not complete.
fn verdict(h: &HostRow) -> String {
    if h.outcome != "complete" {
        h.outcome.clone()
    } else {
        h.verdict.clone().unwrap_or_default()
    }
}

/// A row per host, then a row per host that gave no result and why.
fn table(o: &mut String, c: &Cluster) {
    o.push_str(
        "<div class=\"scroll\"><table data-table=\"hosts\"><tr><th>#</th><th class=\"l\">host</th>\
        <th>read IOPS</th><th>MB/s</th><th>p50</th><th>p99</th><th>p99.9</th>\
        <th>write IOPS</th><th>MB/s</th><th>p50</th><th>p99</th><th>p99.9</th>\
        <th>CPU %</th><th>start ms</th><th class=\"l\">verdict</th></tr>\n",
    );
    for (i, h) in c.hosts.iter().enumerate() {
        let _ = writeln!(
            o,
            "<tr data-host=\"{}\"><td>{}</td><td class=\"l\">{}</td>{}{}<td>{:.0}</td><td>{:+.1}</td><td class=\"l\">{}</td></tr>",
            esc(&h.name),
            i + 1,
            esc(&h.name),
            dir_cells(&h.read),
            dir_cells(&h.write),
            h.cpu_pct,
            h.start_offset_ms,
            esc(&verdict(h))
        );
    }
    for f in &c.failed {
        let _ = writeln!(
            o,
            "<tr data-failed=\"{}\"><td></td><td class=\"l\">{}</td><td class=\"l partial\" colspan=\"13\">no result: {}</td></tr>",
            esc(&f.name),
            esc(&f.name),
            esc(&f.reason)
        );
    }
    o.push_str("</table></div><p class=\"muted\">Latency in µs; start: when the host began measuring, after the earliest.</p>\n");
}

/// A series of one figure per host, for the directions the hosts did.
fn per_host(c: &Cluster, figure: fn(&HostDir) -> f64) -> Vec<Series> {
    let mut out = Vec::new();
    for (name, dir) in [
        (
            "read",
            (|h: &HostRow| h.read.clone()) as fn(&HostRow) -> Option<HostDir>,
        ),
        ("write", |h: &HostRow| h.write.clone()),
    ] {
        let points: Vec<(f64, f64)> = c
            .hosts
            .iter()
            .enumerate()
            .filter_map(|(i, h)| {
                dir(h)
                    .filter(|d| d.ios > 0)
                    .map(|d| ((i + 1) as f64, figure(&d)))
            })
            .collect();
        if !points.is_empty() {
            out.push(Series {
                name: name.into(),
                points,
            });
        }
    }
    out
}

/// The x axis of the host charts: host i at i + 1, ticked by name or by number, with an
/// empty tick either side so that the first and last hosts stand clear of the frame.
fn host_axis(c: &Cluster) -> Axis {
    let named = c.hosts.len() <= NAMED_TICKS;
    let hosts = c.hosts.iter().enumerate().map(|(i, h)| {
        let label = if named {
            h.name.clone()
        } else {
            (i + 1).to_string()
        };
        ((i + 1) as f64, label)
    });
    let edge = (c.hosts.len() + 1) as f64;
    Axis {
        title: if named {
            "host"
        } else {
            "host (# of the table)"
        }
        .into(),
        log: false,
        ticks: std::iter::once((0.0, String::new()))
            .chain(hosts)
            .chain(std::iter::once((edge, String::new())))
            .collect(),
    }
}

/// The hosts' IOPS and p99 side by side: which host lags, which one's latency stands out.
fn charts(c: &Cluster) -> Vec<Chart> {
    let axis = |title: &str| Axis {
        title: title.into(),
        log: false,
        ticks: Vec::new(),
    };
    vec![
        Chart {
            id: "host-iops",
            title: "IOPS per host".into(),
            x: host_axis(c),
            y: axis("IOPS"),
            series: per_host(c, |d| d.iops),
            marks: vec![],
            limit: None,
        },
        Chart {
            id: "host-p99",
            title: "p99 latency per host".into(),
            x: host_axis(c),
            y: axis("p99 latency (µs)"),
            series: per_host(c, |d| d.p99_us),
            marks: vec![],
            limit: None,
        },
    ]
}
