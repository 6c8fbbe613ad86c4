//! Charts say exactly what they draw (issue 12). On the knee chart of a read-only ramp with
//! the objective `read:p99<1000us`, every legend entry belongs to exactly one drawn thing, no
//! figure is drawn twice, and the objective is the dashed line with a legend entry of its own;
//! on a ramp that also writes, the objective's figure is its own series, named by that figure,
//! with each step's read p99 as the run recorded it. Every tick of the percentile axis carries
//! the same unit and fits inside the chart.

use dbio_model::sweep::SweepResult;
use dbio_report::html::charts::sweep_charts;
use dbio_report::item::Item;
use serde_json::Value;
use std::path::PathBuf;

/// Width of the charts' viewBox, in its units.
const VIEW_W: f64 = 640.0;

fn fixture(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(file);
    std::fs::read_to_string(path).expect("the fixture is committed")
}

/// The read-only block-size sweep of the fixtures (4 steps), with objective `slo`; with
/// `writes`, each step also carries the next step's read figures as its writes, so its
/// merged latency differs from its reads'.
fn sweep(slo: &str, writes: bool) -> Value {
    let mut s: Value = serde_json::from_str(&fixture("sweep-bs.json")).unwrap();
    s["slo"] = Value::from(slo);
    let steps = s["steps"].as_array_mut().unwrap();
    for st in steps.iter() {
        assert!(st["write"].is_null(), "the fixture's steps only read");
    }
    if writes {
        let n = steps.len();
        let reads: Vec<Value> = steps.iter().map(|st| st["read"].clone()).collect();
        for (i, st) in steps.iter_mut().enumerate() {
            st["write"] = reads[(i + 1) % n].clone();
        }
    }
    s
}

/// The `<svg>` of chart `id` in the HTML page of `json`.
fn chart_svg(json: &Value, id: &str) -> String {
    let item = Item::from_json("t", &json.to_string()).expect("a dbio result");
    let page = dbio_report::html::page(&[item]);
    let start = page
        .find(&format!("<svg data-chart=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} chart"));
    let end = start + page[start..].find("</svg>").unwrap();
    page[start..end].to_string()
}

/// The value of attribute `name` in the first tag of `s` that has it.
fn attr<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    let at = s.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&s[at..at + s[at..].find('"')?])
}

/// Each `<g …>…</g>` group of an SVG (groups do not nest in these charts).
fn groups(svg: &str) -> Vec<&str> {
    svg.split("<g ")
        .skip(1)
        .map(|g| &g[..g.find("</g>").expect("a closed group")])
        .collect()
}

/// The texts of every `<text class="CLASS" …>TEXT</text>` in `s`.
fn texts<'a>(s: &'a str, class: &str) -> Vec<&'a str> {
    let want = format!("class=\"{class}\"");
    s.split("<text ")
        .skip(1)
        .filter(|e| e[..e.find('>').unwrap()].contains(&want))
        .map(|e| &e[e.find('>').unwrap() + 1..e.find('<').unwrap()])
        .collect()
}

/// One drawn series: its name, the points of its polylines, its legend texts.
struct DrawnSeries {
    name: String,
    polylines: Vec<String>,
    legend: Vec<String>,
}

/// One drawn limit: its value, its lines as (y1, y2), its legend texts.
struct DrawnLimit {
    value: String,
    lines: Vec<(String, String)>,
    legend: Vec<String>,
}

/// What a chart draws, and how many legend entries it has in all.
struct Drawn {
    series: Vec<DrawnSeries>,
    limits: Vec<DrawnLimit>,
    legend_entries: usize,
}

fn drawn(svg: &str) -> Drawn {
    let mut d = Drawn {
        series: Vec::new(),
        limits: Vec::new(),
        legend_entries: texts(svg, "legend").len(),
    };
    for g in groups(svg) {
        let legend: Vec<String> = texts(g, "legend").into_iter().map(String::from).collect();
        if let Some(name) = attr(g, "data-series") {
            let polylines = g
                .split("<polyline ")
                .skip(1)
                .map(|p| attr(&format!(" {p}"), "points").unwrap().to_string())
                .collect();
            d.series.push(DrawnSeries {
                name: name.to_string(),
                polylines,
                legend,
            });
        } else if let Some(v) = attr(g, "data-limit") {
            let lines = g
                .split("<line ")
                .skip(1)
                .map(|l| {
                    let l = format!(" {l}");
                    (
                        attr(&l, "y1").unwrap().to_string(),
                        attr(&l, "y2").unwrap().to_string(),
                    )
                })
                .collect();
            d.limits.push(DrawnLimit {
                value: v.to_string(),
                lines,
                legend,
            });
        }
    }
    d
}

/// True when no two polylines of `d` have the same points.
fn all_distinct(d: &Drawn) -> bool {
    let mut points: Vec<&String> = d.series.iter().flat_map(|s| &s.polylines).collect();
    let n = points.len();
    points.sort();
    points.dedup();
    points.len() == n
}

#[test]
fn a_read_only_ramp_draws_each_figure_once_and_the_objective_as_the_line() {
    let s = sweep("read:p99<1000us", false);
    let d = drawn(&chart_svg(&s, "latency-iops"));
    // The ramp only reads, so the read p99 the objective bounds is the p99 of all I/Os: two
    // figures, each named by what it plots.
    let names: Vec<&str> = d.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["p99", "mean"]);
    for s in &d.series {
        assert_eq!(s.polylines.len(), 1, "{}: one polyline", s.name);
        assert_eq!(s.legend, [s.name.as_str()], "{}: one legend entry", s.name);
    }
    // The objective: one dashed line at 1000 µs with one legend entry naming it.
    assert_eq!(d.limits.len(), 1);
    let l = &d.limits[0];
    assert_eq!(l.value, "1000");
    assert!(
        l.lines.iter().any(|(y1, y2)| y1 == y2),
        "no horizontal line: {:?}",
        l.lines
    );
    assert_eq!(l.legend.len(), 1, "{:?}", l.legend);
    assert!(
        l.legend[0].contains("objective") && l.legend[0].contains("read:p99&lt;1000us"),
        "{:?}",
        l.legend
    );
    // Every legend entry is one of those: none stands for nothing or for a hidden line.
    assert_eq!(d.legend_entries, d.series.len() + d.limits.len());
    assert!(all_distinct(&d), "two polylines are identical");
}

#[test]
fn on_a_ramp_that_writes_the_objectives_figure_is_its_own_series() {
    let json = sweep("read:p99<1000us", true);
    let s: SweepResult = serde_json::from_value(json.clone()).unwrap();
    let c = &sweep_charts(&s)[0];
    let names: Vec<&str> = c.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["p99", "mean", "read p99"]);
    // Each step's read p99, as the run recorded it, in µs.
    let want: Vec<f64> = s
        .steps
        .iter()
        .map(|r| r.read.as_ref().unwrap().latency_ns.p99 as f64 / 1000.0)
        .collect();
    let got: Vec<f64> = c.series[2].points.iter().map(|p| p.1).collect();
    assert_eq!(got, want);
    let d = drawn(&chart_svg(&json, "latency-iops"));
    assert_eq!(d.legend_entries, 4, "three figures and the objective");
    assert_eq!(d.series.len(), 3);
    assert!(all_distinct(&d), "two polylines are identical");
}

/// (x, text-anchor, label) of each x-axis tick label of `svg`: the tick labels on the line
/// under the plot (y = 300 − 46 + 14), not those of the y axis left of it.
fn x_ticks(svg: &str) -> Vec<(f64, String, String)> {
    svg.split("<text ")
        .skip(1)
        .map(|t| format!(" {t}"))
        .filter(|t| attr(t, "class") == Some("tick") && attr(t, "y") == Some("268.0"))
        .map(|t| {
            let x: f64 = attr(&t, "x").unwrap().parse().unwrap();
            let anchor = attr(&t, "text-anchor").unwrap().to_string();
            let label = t[t.find('>').unwrap() + 1..t.find('<').unwrap()].to_string();
            (x, anchor, label)
        })
        .collect()
}

#[test]
fn every_percentile_tick_carries_the_unit_and_fits_in_the_chart() {
    let run: Value = serde_json::from_str(&fixture("run.json")).unwrap();
    let ticks = x_ticks(&chart_svg(&run, "percentiles"));
    let labels: Vec<&str> = ticks.iter().map(|t| t.2.as_str()).collect();
    assert_eq!(
        labels,
        ["0 %", "90 %", "99 %", "99.9 %", "99.99 %", "99.999 %"]
    );
    // At 11 px, no glyph of these labels is wider than 0.6 em on average: a label's extent
    // from its anchor must lie inside the viewBox, or its end (the unit) is cut off.
    for (x, anchor, label) in &ticks {
        let w = label.chars().count() as f64 * 0.6 * 11.0;
        let (left, right) = match anchor.as_str() {
            "start" => (*x, x + w),
            "end" => (x - w, *x),
            _ => (x - w / 2.0, x + w / 2.0),
        };
        assert!(
            left >= 0.0 && right <= VIEW_W,
            "{label:?} spans {left:.1}..{right:.1}, outside 0..{VIEW_W}"
        );
    }
}
