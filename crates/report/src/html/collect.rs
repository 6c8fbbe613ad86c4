//! `dbio collect --report NAME --html FILE`: a collection on one self-contained page: per
//! device IOPS, MB/s, the average time of a request and the number in flight over the
//! collection; the host's and the server's CPU beside them; the database's I/O.

use super::svg::{esc, render, Axis, Chart, Series};
use super::{foot, head};
use dbio_model::collect::{CollectionReport, Point};
use std::fmt::Write;

/// The whole page.
pub fn page(r: &CollectionReport) -> String {
    let mut o = head(&format!("dbio collect: {}", r.info.name));
    let _ = writeln!(o, "<pre>{}</pre>", esc(&crate::collect::text(r, 20)));
    for c in charts(r) {
        o.push_str(&render(&c));
    }
    o.push_str(&foot());
    o
}

/// Hours since the collection's start, for the x axis.
fn hours(r: &CollectionReport, p: &Point) -> f64 {
    p.t_ms.saturating_sub(r.first_ms) as f64 / 3_600_000.0
}

fn chart(id: &'static str, title: &str, y: &str, series: Vec<Series>) -> Chart {
    let axis = |t: &str| Axis {
        title: t.into(),
        log: false,
        ticks: Vec::new(),
    };
    Chart {
        id,
        title: title.into(),
        x: axis("hours since the start"),
        y: axis(y),
        series,
        marks: Vec::new(),
        limit: None,
    }
}

/// One series per device of figure `k` (0 IOPS, 1 MB/s, 2 latency, 3 queue depth).
fn devices(r: &CollectionReport, k: usize) -> Vec<Series> {
    (r.devices.iter().enumerate())
        .map(|(i, d)| Series {
            name: d.name.clone(),
            points: (r.series.iter())
                .filter_map(|p| p.devices.get(i).map(|v| (hours(r, p), v[k])))
                .collect(),
        })
        .collect()
}

/// A series of the points that have `f`.
fn of(r: &CollectionReport, name: &str, f: impl Fn(&Point) -> Option<f64>) -> Option<Series> {
    let points: Vec<(f64, f64)> = (r.series.iter())
        .filter_map(|p| f(p).map(|v| (hours(r, p), v)))
        .collect();
    (!points.is_empty()).then(|| Series {
        name: name.into(),
        points,
    })
}

/// The page's charts: those the collection has figures for.
fn charts(r: &CollectionReport) -> Vec<Chart> {
    let mut v = Vec::new();
    if !r.devices.is_empty() {
        v.push(chart("collect-iops", "Device IOPS", "IOPS", devices(r, 0)));
        v.push(chart("collect-mbs", "Device MB/s", "MB/s", devices(r, 1)));
        v.push(chart(
            "collect-latency",
            "Average time of a request",
            "ms",
            devices(r, 2),
        ));
        v.push(chart(
            "collect-queue",
            "Requests in flight (average)",
            "in flight",
            devices(r, 3),
        ));
    }
    let cpu: Vec<Series> = [
        of(r, "host CPU %", |p| p.host_cpu.map(|c| c * 100.0)),
        of(r, "server CPU % of one CPU", |p| {
            p.server_cpu.map(|c| c * 100.0)
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !cpu.is_empty() {
        v.push(chart(
            "collect-cpu",
            "CPU: the host's and the database server's",
            "%",
            cpu,
        ));
    }
    if let Some(s) = of(r, "database I/O per s", |p| p.db_iops) {
        v.push(chart(
            "collect-db",
            "The database's own I/O (reads + writes of its objects)",
            "I/O per s",
            vec![s],
        ));
    }
    v
}
