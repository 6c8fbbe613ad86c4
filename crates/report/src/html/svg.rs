//! A small hand-written SVG line chart: axes (linear or log), series as polylines with dots,
//! marked points. Every chart and series carries data attributes a test can count.

use std::fmt::Write;

/// One line of a chart; `name` is its `data-series` attribute and legend entry.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A labelled point singled out on a chart (the knee, the saturation point).
pub struct Mark {
    /// Its `data-mark` attribute, e.g. "knee".
    pub kind: &'static str,
    pub label: String,
    pub x: f64,
    pub y: f64,
}

/// One axis: its title, scale, and tick labels to use instead of the numbers (if any).
#[derive(Default)]
pub struct Axis {
    pub title: String,
    pub log: bool,
    /// Fixed ticks as (value, label); empty: ticks chosen from the data.
    pub ticks: Vec<(f64, String)>,
}

/// A chart: `id` is its `data-chart` attribute.
pub struct Chart {
    pub id: &'static str,
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
    pub marks: Vec<Mark>,
    /// A horizontal limit line (y value, label), e.g. a latency objective.
    pub limit: Option<(f64, String)>,
}

const W: f64 = 640.0;
const H: f64 = 300.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 46.0;
const BOTTOM: f64 = 46.0;

/// Maps data values to pixels along one axis.
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Scale {
    fn new(values: impl Iterator<Item = f64>, log: bool, from: f64, to: f64) -> Scale {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = if log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        if log {
            lo = 10f64.powf(lo.log10().floor());
            hi = 10f64.powf(hi.log10().ceil().max(lo.log10() + 1.0));
        } else {
            lo = lo.min(0.0);
            if hi <= lo {
                hi = lo + 1.0;
            }
            let step = nice_step(hi - lo);
            hi = (hi / step).ceil() * step;
        }
        Scale {
            lo,
            hi,
            log,
            from,
            to,
        }
    }

    fn at(&self, v: f64) -> f64 {
        let f = if self.log {
            (v.max(self.lo).log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from + f * (self.to - self.from)
    }

    /// Tick values and labels: decades on a log axis, 1-2-5 steps on a linear one.
    fn ticks(&self) -> Vec<(f64, String)> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            (a..=b)
                .map(|e| (10f64.powi(e), number(10f64.powi(e))))
                .collect()
        } else {
            let step = nice_step(self.hi - self.lo);
            let n = ((self.hi - self.lo) / step).round() as i64;
            (0..=n)
                .map(|i| {
                    let v = self.lo + i as f64 * step;
                    (v, number(v))
                })
                .collect()
        }
    }
}

/// A 1, 2 or 5 × 10^k step giving about five ticks over `span`.
fn nice_step(span: f64) -> f64 {
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    let f = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    f * mag
}

/// A number as a tick label: 1.5k, 20M, 0.01.
pub fn number(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if a >= 1e9 {
        trim(format!("{:.1}", v / 1e9)) + "G"
    } else if a >= 1e6 {
        trim(format!("{:.1}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else if a >= 1.0 || a == 0.0 {
        trim(format!("{v:.1}"))
    } else {
        trim(format!("{v:.3}"))
    }
}

/// Escapes text for HTML and SVG.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A width no narrower than `text` takes in the 11 px sans-serif of tick and legend labels
/// (per character: digits and most letters 0.6 em, wide letters and % 0.95 em, narrow ones
/// 0.35 em), to keep labels inside the chart and apart.
fn text_width(text: &str) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            '.' | ',' | ':' | ' ' | 'i' | 'l' | 'j' | 't' | 'f' | 'r' | '(' | ')' | '/' => 0.35,
            '%' | 'm' | 'w' | 'M' | 'W' | '@' => 0.95,
            c if c.is_uppercase() => 0.75,
            _ => 0.6,
        })
        .sum();
    em * 11.0
}

/// Where and how to anchor an x tick label centred at `x` so that all of it lies within the
/// chart's width: (x, text-anchor).
fn tick_anchor(x: f64, label: &str) -> (f64, &'static str) {
    let half = text_width(label) / 2.0;
    if x + half > W - 1.0 {
        (W - 1.0, "end")
    } else if x - half < 1.0 {
        (1.0, "start")
    } else {
        (x, "middle")
    }
}

/// Renders the chart as an inline `<svg>` that scales to its container's width.
pub fn render(c: &Chart) -> String {
    let (sx, sy) = scales(c);
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<figure><svg data-chart="{}" viewBox="0 0 {W} {H}" role="img" aria-label="{}" xmlns="http://www.w3.org/2000/svg">"#,
        c.id,
        esc(&c.title)
    );
    let _ = write!(
        o,
        r#"<text class="title" x="{LEFT}" y="18">{}</text>"#,
        esc(&c.title)
    );
    grid(&mut o, c, &sx, &sy);
    series(&mut o, c, &sx, &sy);
    marks(&mut o, c, &sx, &sy);
    o += "</svg></figure>\n";
    o
}

/// The x and y scales of the chart's points (and its limit), x widened to its own ticks.
fn scales(c: &Chart) -> (Scale, Scale) {
    let xs = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = c
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .chain(c.limit.iter().map(|l| l.0));
    let mut sx = Scale::new(xs, c.x.log, LEFT, W - RIGHT);
    let sy = Scale::new(ys, c.y.log, H - BOTTOM, TOP);
    if let (Some(first), Some(last)) = (c.x.ticks.first(), c.x.ticks.last()) {
        if !c.x.log {
            sx.lo = sx.lo.min(first.0);
            sx.hi = sx.hi.max(last.0);
        }
    }
    (sx, sy)
}

/// The grid with its tick labels, the frame and the axis titles.
fn grid(o: &mut String, c: &Chart, sx: &Scale, sy: &Scale) {
    // Grid and tick labels.
    let xt = if c.x.ticks.is_empty() {
        sx.ticks()
    } else {
        c.x.ticks.clone()
    };
    for (v, label) in xt {
        let x = sx.at(v);
        let (tx, anchor) = tick_anchor(x, &label);
        let _ = write!(
            o,
            r#"<line class="grid" x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}"/><text class="tick" x="{tx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text>"#,
            H - BOTTOM,
            H - BOTTOM + 14.0,
            esc(&label)
        );
    }
    for (v, label) in sy.ticks() {
        let y = sy.at(v);
        let _ = write!(
            o,
            r#"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><text class="tick" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            W - RIGHT,
            LEFT - 4.0,
            y + 4.0,
            esc(&label)
        );
    }
    let _ = write!(
        o,
        r#"<rect class="frame" x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}"/>"#,
        W - LEFT - RIGHT,
        H - TOP - BOTTOM
    );
    let _ = write!(
        o,
        r#"<text class="axis" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 8.0,
        esc(&c.x.title)
    );
    let _ = write!(
        o,
        r#"<text class="axis" transform="translate(14 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (TOP + H - BOTTOM) / 2.0,
        esc(&c.y.title)
    );
}

/// Each series as a line (with its points when few) and its legend entry, then the limit.
fn series(o: &mut String, c: &Chart, sx: &Scale, sy: &Scale) {
    // Legend entries in a row under the title, each as wide as its name.
    let mut lx = LEFT;
    let mut legend_at = |name: &str| {
        let at = lx;
        lx += 14.0 + text_width(name) + 16.0;
        at
    };
    for (i, s) in c.series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .filter(|(x, y)| (!c.x.log || *x > 0.0) && (!c.y.log || *y > 0.0))
            .map(|&(x, y)| (sx.at(x), sy.at(y)))
            .collect();
        let _ = write!(
            o,
            r#"<g class="s{}" data-series="{}" data-points="{}">"#,
            i % 6,
            esc(&s.name),
            pts.len()
        );
        let line: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = write!(o, r#"<polyline points="{}"/>"#, line.join(" "));
        if pts.len() <= 40 {
            for (x, y) in &pts {
                let _ = write!(o, r#"<circle cx="{x:.1}" cy="{y:.1}" r="2.5"/>"#);
            }
        }
        let lx = legend_at(&s.name);
        let _ = write!(
            o,
            r#"<rect x="{lx:.1}" y="26" width="10" height="10"/><text class="legend" x="{:.1}" y="35">{}</text></g>"#,
            lx + 14.0,
            esc(&s.name)
        );
    }
    if let Some((v, label)) = &c.limit {
        let y = sy.at(*v);
        // The dashed line, its label beside it, and its own legend entry (a dashed key).
        let lx = legend_at(label);
        let _ = write!(
            o,
            r#"<g class="limit" data-limit="{v}"><line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/><text x="{:.1}" y="{:.1}">{}</text><line class="key" x1="{lx:.1}" y1="31" x2="{:.1}" y2="31"/><text class="legend" x="{:.1}" y="35">{}</text></g>"#,
            W - RIGHT,
            LEFT + 4.0,
            // Under the line when it runs along the top of the plot (the legend is above).
            if y < TOP + 16.0 { y + 13.0 } else { y - 4.0 },
            esc(label),
            lx + 16.0,
            lx + 20.0,
            esc(label)
        );
    }
}

/// The marked points with their labels.
fn marks(o: &mut String, c: &Chart, sx: &Scale, sy: &Scale) {
    for m in &c.marks {
        let (x, y) = (sx.at(m.x), sy.at(m.y));
        // Labels of points in the right half run leftwards, so they stay inside the chart.
        let (tx, anchor) = if x > (LEFT + W - RIGHT) / 2.0 {
            (x - 8.0, "end")
        } else {
            (x + 8.0, "start")
        };
        let _ = write!(
            o,
            r#"<g class="mark" data-mark="{}"><circle cx="{x:.1}" cy="{y:.1}" r="6"/><text x="{tx:.1}" y="{:.1}" text-anchor="{anchor}">{}</text></g>"#,
            m.kind,
            y - 8.0,
            esc(&m.label)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_scale_puts_decades_evenly() {
        let s = Scale::new([3.0, 700.0].into_iter(), true, 0.0, 300.0);
        assert_eq!((s.lo, s.hi), (1.0, 1000.0));
        assert!((s.at(10.0) - 100.0).abs() < 1e-9);
        assert!((s.at(100.0) - 200.0).abs() < 1e-9);
    }

    #[test]
    fn linear_ticks_are_one_two_five_steps() {
        let s = Scale::new([0.0, 87.0].into_iter(), false, 0.0, 100.0);
        let t: Vec<String> = s.ticks().into_iter().map(|t| t.1).collect();
        assert_eq!(t, ["0", "20", "40", "60", "80", "100"]);
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(15_000.0), "15k");
        assert_eq!(number(2_500_000.0), "2.5M");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(250.0), "250");
    }

    #[test]
    fn series_count_their_drawn_points() {
        let c = Chart {
            id: "t",
            title: "a <b>".into(),
            x: Axis::default(),
            y: Axis {
                log: true,
                ..Axis::default()
            },
            series: vec![Series {
                name: "read".into(),
                points: vec![(1.0, 1.0), (2.0, 0.0), (3.0, 10.0)],
            }],
            marks: vec![],
            limit: None,
        };
        let svg = render(&c);
        // The zero cannot be drawn on a log axis.
        assert!(svg.contains(r#"data-series="read" data-points="2""#));
        assert!(svg.contains("a &lt;b&gt;"));
    }
}
