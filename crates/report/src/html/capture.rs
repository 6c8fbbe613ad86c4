//! `dbio capture --summary TRACE --html FILE`: a trace's summary on one self-contained page,
//! with per device its requests over time, its sizes, its skew curve and how many requests
//! were in flight.

use super::svg::{esc, render, Axis, Chart, Series};
use super::{foot, head};
use dbio_model::capture::{CaptureSummary, DeviceCapture};
use std::fmt::Write;

/// The whole page.
pub fn page(s: &CaptureSummary) -> String {
    let mut o = head(&format!(
        "dbio capture: {} requests from {}",
        s.requests, s.started_at
    ));
    let _ = writeln!(o, "<pre>{}</pre>", esc(&crate::capture::capture_text(s)));
    for d in &s.devices {
        let _ = writeln!(o, "<h2 data-device=\"{0}\">{0}</h2>", esc(&d.name));
        for c in charts(d) {
            o.push_str(&render(&c));
        }
    }
    o.push_str(&foot());
    o
}

fn axis(title: &str, log: bool) -> Axis {
    Axis {
        title: title.into(),
        log,
        ticks: Vec::new(),
    }
}

fn chart(id: &'static str, title: String, x: Axis, y: Axis, series: Vec<Series>) -> Chart {
    Chart {
        id,
        title,
        x,
        y,
        series,
        marks: Vec::new(),
        limit: None,
    }
}

/// The device's charts: those its trace has the figures for.
fn charts(d: &DeviceCapture) -> Vec<Chart> {
    let mut v = over_time(d);
    let sizes: Vec<Series> = [("reads", &d.read), ("writes", &d.write)]
        .into_iter()
        .filter_map(|(name, op)| {
            let mut p: Vec<(f64, f64)> = (op.as_ref()?.sizes.iter())
                .map(|s| (s.bytes as f64 / 1024.0, s.pct))
                .collect();
            p.sort_by(|a, b| a.0.total_cmp(&b.0));
            Some(Series {
                name: name.into(),
                points: p,
            })
        })
        .collect();
    if !sizes.is_empty() {
        v.push(chart(
            "capture-sizes",
            "Request sizes (share of the requests)".into(),
            axis("KiB", true),
            axis("% of requests", false),
            sizes,
        ));
    }
    if !d.skew_curve.is_empty() {
        let series = vec![
            Series {
                name: "requests".into(),
                points: d.skew_curve.clone(),
            },
            Series {
                name: "no skew".into(),
                points: vec![(0.0, 0.0), (100.0, 100.0)],
            },
        ];
        v.push(chart(
            "capture-skew",
            "Share of the requests in the hottest share of the device".into(),
            axis("% of the device, hottest first", false),
            axis("% of the requests", false),
            series,
        ));
    }
    if !d.in_flight_counts.is_empty() {
        let total: u64 = d.in_flight_counts.iter().map(|c| c.1).sum();
        let points = (d.in_flight_counts.iter())
            .map(|&(n, c)| (n as f64, c as f64 * 100.0 / total.max(1) as f64))
            .collect();
        v.push(chart(
            "capture-inflight",
            "Requests in flight as each was issued".into(),
            axis("in flight", false),
            axis("% of the requests", false),
            vec![Series {
                name: "in flight".into(),
                points,
            }],
        ));
    }
    v
}

/// Requests and MB/s over the capture: all, and each direction (none without times).
fn over_time(d: &DeviceCapture) -> Vec<Chart> {
    let mut v = Vec::new();
    if d.rates.iops_series.is_empty() {
        return v;
    }
    let step = d.rates.series_step_s.max(1) as f64;
    let points = |s: &[f64]| {
        s.iter()
            .enumerate()
            .map(|(k, y)| (k as f64 * step, *y))
            .collect()
    };
    let per = if step > 1.0 {
        format!(" (means of {step:.0} s)")
    } else {
        String::new()
    };
    // All requests, then each direction that has any.
    let ops = [
        ("all", Some(&d.rates)),
        ("reads", d.read.as_ref().map(|o| &o.rates)),
        ("writes", d.write.as_ref().map(|o| &o.rates)),
    ];
    let series = |f: fn(&dbio_model::capture::Rates) -> &Vec<f64>| {
        (ops.iter())
            .filter_map(|(name, r)| {
                Some(Series {
                    name: name.to_string(),
                    points: points(f(r.as_ref()?)),
                })
            })
            .collect()
    };
    v.push(chart(
        "capture-iops",
        format!("Requests per second over the capture{per}"),
        axis("seconds", false),
        axis("IOPS", false),
        series(|r| &r.iops_series),
    ));
    v.push(chart(
        "capture-mbs",
        format!("MB/s over the capture{per}"),
        axis("seconds", false),
        axis("MB/s", false),
        series(|r| &r.mb_s_series),
    ));
    v
}
