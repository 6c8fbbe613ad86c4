//! The database sections of the HTML page: a database run's AWR-like table and its three
//! views of the same reads, and a database sweep's per-step views.

use super::svg::esc;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use std::fmt::Write;

/// The database run's tables (nothing for other runs).
pub fn run_tables(o: &mut String, r: &RunResult) {
    let Some(d) = &r.db else { return };
    let s = &d.spec;
    let secs = r.measured_secs.max(1e-9);
    let _ = writeln!(
        o,
        "<h3>The database's figures ({})</h3>\n<p>{} at {}: {} sessions, work unit {} keys, update {} %; schema {} of {} tables × {} rows, data set {} MiB, buffer pool {} MiB, I/O {}</p>",
        esc(&s.system),
        esc(&d.server_version),
        esc(&s.url),
        s.sessions,
        s.work_unit,
        s.update_pct,
        esc(&s.schema),
        s.tables,
        s.rows_per_table,
        d.data_set_bytes >> 20,
        d.buffer_pool_bytes >> 20,
        esc(&d.io_method)
    );
    o.push_str("<div class=\"scroll\"><table data-table=\"db-events\"><tr><th class=\"l\">Event (database)</th><th class=\"l\">(generic)</th><th>Waits</th><th>Time (s)</th><th>Avg (µs)</th><th>per s</th></tr>\n");
    for e in &d.events {
        let time = e.time_s.map_or("-".into(), |t| format!("{t:.2}"));
        let avg = match e.time_s {
            Some(t) if e.waits > 0 => format!("{:.0}", t * 1e6 / e.waits as f64),
            _ => "-".into(),
        };
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{time}</td><td>{avg}</td><td>{:.1}</td></tr>",
            esc(&e.name),
            esc(&e.generic),
            e.waits,
            e.per_s
        );
    }
    o.push_str("</table></div>\n<div class=\"scroll\"><table data-table=\"db-views\"><tr><th class=\"l\">Three views of the reads</th><th>count</th><th>per s</th><th>avg (µs)</th></tr>\n");
    let c = &d.database;
    let avg = |t: f64, n: u64| {
        if n > 0 {
            format!("{:.0}", t * 1e6 / n as f64)
        } else {
            "-".into()
        }
    };
    let row = |o: &mut String, what: &str, n: u64, avg: String| {
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td>{n}</td><td>{:.1}</td><td>{avg}</td></tr>",
            esc(what),
            n as f64 / secs
        );
    };
    let db_avg = c
        .read_time_s
        .map_or("-".into(), |t| avg(t, c.physical_reads));
    row(
        o,
        "database: physical reads it counted",
        c.physical_reads,
        db_avg,
    );
    if let Some(v) = &d.device {
        let what = format!("device {}: reads it served (/proc/diskstats)", v.name);
        row(o, &what, v.reads, avg(v.read_time_s, v.reads));
    }
    let what = format!("client: operations of {} keys (dbio, HDR)", s.work_unit);
    let op_avg = format!("{:.0}", d.client.read_op_ns.mean / 1000.0);
    row(o, &what, d.client.operations, op_avg);
    o.push_str("</table></div>\n");
    if let Some(p) = d.page_cache_pct {
        let _ = writeln!(
            o,
            "<p>page cache: {p:.1} % of the database's physical reads never reached the device</p>"
        );
    }
    for n in &d.notes {
        let _ = writeln!(o, "<p class=\"muted\">note: {}</p>", esc(n));
    }
}

/// A database sweep's per-step views (nothing when no step is a database run).
pub fn sweep_table(o: &mut String, s: &SweepResult) {
    let rows = crate::db::step_views(s);
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "<h3>The database's, the device's and the client's views per step</h3>\n<div class=\"scroll\"><table data-table=\"db-steps\"><tr><th class=\"l\">{}</th><th>db reads/s</th><th>device reads/s</th><th>client op/s</th><th>op avg µs</th><th>dbio CPU s</th><th>db CPU s</th><th class=\"l\">verdict</th></tr>",
        esc(&s.vary)
    );
    for v in rows {
        let _ = writeln!(
            o,
            "<tr><td class=\"l\">{}</td><td>{:.1}</td><td>{}</td><td>{:.1}</td><td>{:.0}</td><td>{:.2}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            esc(v.value),
            v.db_reads_s,
            v.device_reads_s.map_or("-".into(), |x| format!("{x:.1}")),
            v.ops_s,
            v.op_mean_us,
            v.dbio_cpu_s,
            v.server_cpu_s.map_or("-".into(), |x| format!("{x:.2}")),
            esc(v.limit)
        );
    }
    o.push_str("</table></div>\n");
}
