//! `dbio advise --html`: the skew chart, the recommendation and the ranked table on one
//! self-contained page.

use super::svg::{esc, render, Axis, Chart, Mark, Series};
use super::{foot, head};
use dbio_model::advise::{AdviseResult, Placement};
use dbio_model::units::format_size;
use std::collections::HashMap;
use std::fmt::Write;

/// Rows of the ranked table on the page (the JSON has every object).
const ROWS: usize = 500;

/// The whole page.
pub fn page(r: &AdviseResult) -> String {
    let mut o = head(&format!("dbio advise: {}", r.source.system));
    let _ = writeln!(
        o,
        "<p class=\"what\">{} — {} objects, {}, ranked by {}.</p>",
        esc(&r.source.name),
        r.objects.len(),
        format_size(r.totals.size_bytes),
        esc(&r.ranked_by)
    );
    if let Some(k) = &r.skew {
        let _ = writeln!(o, "<h2 class=\"first\">Skew: {}</h2>", esc(&k.sentence));
        o.push_str(&render(&skew_chart(r)));
    }
    if let Some(p) = &r.placement {
        placement(&mut o, p);
    }
    ranked(&mut o, r);
    if !r.notes.is_empty() {
        o.push_str("<h3>Notes</h3><ul class=\"warnings\">");
        for n in &r.notes {
            let _ = write!(o, "<li>{}</li>", esc(n));
        }
        o.push_str("</ul>\n");
    }
    o.push_str(&foot());
    o
}

/// Cumulative I/O against cumulative capacity, with the diagonal of no skew and the point.
fn skew_chart(r: &AdviseResult) -> Chart {
    let k = r.skew.as_ref().expect("called with a skew");
    let axis = |t: &str| Axis {
        title: t.into(),
        log: false,
        ticks: (0..=5)
            .map(|i| (i as f64 * 20.0, format!("{} %", i * 20)))
            .collect(),
    };
    Chart {
        id: "skew",
        title: "Cumulative I/O against cumulative capacity (densest objects first)".into(),
        x: axis("capacity"),
        y: axis("I/O"),
        series: vec![
            Series {
                name: "objects".into(),
                points: k
                    .points
                    .iter()
                    .map(|p| (p.capacity_share * 100.0, p.io_share * 100.0))
                    .collect(),
            },
            Series {
                name: "no skew".into(),
                points: vec![(0.0, 0.0), (100.0, 100.0)],
            },
        ],
        marks: vec![Mark {
            kind: "skew",
            label: k.sentence.clone(),
            x: k.capacity_share * 100.0,
            y: k.io_share * 100.0,
        }],
        limit: None,
    }
}

fn placement(o: &mut String, p: &Placement) {
    let _ = writeln!(
        o,
        "<h2>Within {} of flash: move {} object(s), {} used</h2><p class=\"muted\">{}</p>",
        format_size(p.budget_bytes),
        p.to_move.len(),
        format_size(p.used_bytes),
        esc(&p.method)
    );
    if let Some(g) = &p.gain {
        let _ = writeln!(
            o,
            "<p>Stall saved: {:.0} ms of the moved objects' {:.0} ms (f = {:.1} % of all stall, k = {:.2}); overall speed-up at most {:.2}× ({}). {}</p>",
            g.saved_ms,
            g.moved_stall_ms,
            g.moved_stall_share * 100.0,
            g.latency_ratio,
            g.speedup_bound,
            esc(&g.io_wait_from.clone().unwrap_or_else(|| "if all the time were I/O wait".into())),
            esc(&g.latency_basis)
        );
    }
    o.push_str("<div class=\"scroll\"><table data-table=\"placement\"><tr><th class=\"l\">object</th><th>size</th><th class=\"l\">flash</th><th class=\"l\">why</th></tr>\n");
    for m in p.to_move.iter().take(ROWS) {
        let _ = writeln!(
            o,
            "<tr data-move><td class=\"l\">{}</td><td>{}</td><td class=\"l\">move</td><td class=\"l\">saves {:.0} ms of stall</td></tr>",
            esc(&m.name),
            format_size(m.size_bytes),
            m.saved_ms
        );
    }
    for l in p.to_leave.iter().take(ROWS) {
        let _ = writeln!(
            o,
            "<tr data-leave><td class=\"l\">{}</td><td>{}</td><td class=\"l\">leave</td><td class=\"l\">{}</td></tr>",
            esc(&l.name),
            l.size_bytes.map_or("?".into(), format_size),
            esc(&l.why)
        );
    }
    o.push_str("</table></div>\n");
}

/// The ranked table, with what the recommendation does with each object.
fn ranked(o: &mut String, r: &AdviseResult) {
    let decision: HashMap<&str, &str> = r.placement.as_ref().map_or_else(HashMap::new, |p| {
        p.to_move
            .iter()
            .map(|m| (m.name.as_str(), "move"))
            .chain(p.to_leave.iter().map(|l| (l.name.as_str(), "leave")))
            .collect()
    });
    o.push_str("<h2>Objects, best candidates first</h2><div class=\"scroll\"><table data-table=\"ranked\">\n<tr><th>#</th><th class=\"l\">object</th><th class=\"l\">kind</th><th>size</th><th>reads</th><th>writes</th><th>avg I/O</th><th>avg ms</th><th>stall ms</th><th>I/O %</th><th>capacity %</th><th>IOPS/GiB</th><th>stall ms/GiB</th><th>saved ms</th><th class=\"l\">flash</th></tr>\n");
    let f = |v: Option<f64>, d: usize| v.map_or("-".to_string(), |x| format!("{x:.d$}"));
    for x in r.objects.iter().take(ROWS) {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            x.rank,
            esc(&x.name),
            x.kind.name(),
            x.size_bytes.map_or("?".into(), format_size),
            x.reads,
            x.writes,
            x.avg_io_bytes.map_or("-".into(), |b| format_size(b as u64)),
            f(x.current_ms, 3),
            f(x.stall_ms, 0),
            x.io_share * 100.0,
            f(x.capacity_share.map(|c| c * 100.0), 1),
            f(x.iops_per_gib, 1),
            f(x.stall_ms_per_gib, 0),
            f(x.saved_ms, 0),
            decision.get(x.name.as_str()).copied().unwrap_or("")
        );
    }
    o.push_str("</table></div>\n");
    if r.objects.len() > ROWS {
        let _ = writeln!(
            o,
            "<p class=\"muted\">The first {ROWS} of {} objects; the JSON result has them all.</p>",
            r.objects.len()
        );
    }
}
