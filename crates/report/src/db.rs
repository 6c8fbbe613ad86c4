//! The report of a database run (`dbio db run`): the AWR-like table of the database's own
//! figures, then three views of the same reads (database, device, client) and why they differ.

use dbio_model::db::DbReport;
use dbio_model::RunResult;
use std::fmt::Write;

fn us(ns: f64) -> String {
    format!("{:.0}", ns / 1000.0)
}

/// The database section of a run's summary (None for other runs).
pub fn report(r: &RunResult) -> Option<String> {
    let d = r.db.as_ref()?;
    let s = &d.spec;
    let secs = r.measured_secs.max(1e-9);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "dbio db run: {} at {}, {} sessions, work unit {} keys, update {} %, {:.1} s measured",
        d.server_version, s.url, s.sessions, s.work_unit, s.update_pct, r.measured_secs
    );
    let _ = writeln!(
        out,
        "schema {}: {} tables of {} rows; data set {} MiB, buffer pool {} MiB, block {} B, I/O {}",
        s.schema,
        s.tables,
        s.rows_per_table,
        d.data_set_bytes >> 20,
        d.buffer_pool_bytes >> 20,
        d.block_size,
        d.io_method
    );
    events(&mut out, d);
    three_views(&mut out, d, secs);
    if let Some(p) = d.page_cache_pct {
        let _ = writeln!(
            out,
            "\npage cache: {p:.1} % of the database's physical reads never reached the device"
        );
    }
    for n in &d.notes {
        let _ = writeln!(out, "note: {n}");
    }
    let _ = writeln!(
        out,
        "\nCPU: database server {}, dbio {:.1} s",
        d.server_cpu_s
            .map_or("not known (not on this host)".into(), |s| format!(
                "{s:.1} s"
            )),
        d.dbio_cpu_s
    );
    if let Some(v) = &r.verdict {
        let _ = writeln!(out, "verdict: {}", v.message);
    }
    Some(out)
}

/// The database's own wait events: count, time, average and rate.
fn events(out: &mut String, d: &DbReport) {
    let _ = writeln!(
        out,
        "\n{:<26} {:<20} {:>11} {:>9} {:>9} {:>11}",
        "Event (database)", "(generic)", "Waits", "Time(s)", "Avg(µs)", "per s"
    );
    for e in &d.events {
        let (t, avg) = match e.time_s {
            Some(t) if e.waits > 0 => (format!("{t:.2}"), us(t * 1e9 / e.waits as f64)),
            Some(t) => (format!("{t:.2}"), "-".into()),
            None => ("-".into(), "-".into()),
        };
        let _ = writeln!(
            out,
            "{:<26} {:<20} {:>11} {:>9} {:>9} {:>11.1}",
            e.name,
            format!("({})", e.generic),
            e.waits,
            t,
            avg,
            e.per_s
        );
    }
}

/// The same reads as the database, the device and the client saw them.
fn three_views(out: &mut String, d: &DbReport, secs: f64) {
    let _ = writeln!(
        out,
        "\n{:<44} {:>11} {:>11} {:>9}",
        "Three views of the reads", "count", "per s", "Avg(µs)"
    );
    let db = &d.database;
    let db_avg = db
        .read_time_s
        .filter(|_| db.physical_reads > 0)
        .map_or("-".into(), |t| us(t * 1e9 / db.physical_reads as f64));
    let _ = writeln!(
        out,
        "{:<44} {:>11} {:>11.1} {:>9}",
        "database: physical reads it counted",
        db.physical_reads,
        db.physical_reads as f64 / secs,
        db_avg
    );
    match &d.device {
        Some(v) => {
            let avg = if v.reads > 0 {
                us(v.read_time_s * 1e9 / v.reads as f64)
            } else {
                "-".into()
            };
            let _ = writeln!(
                out,
                "{:<44} {:>11} {:>11.1} {:>9}",
                format!("device {}: reads it served (/proc/diskstats)", v.name),
                v.reads,
                v.reads as f64 / secs,
                avg
            );
        }
        None => {
            let _ = writeln!(out, "{:<44} {:>11}", "device: not known (see below)", "-");
        }
    }
    let c = &d.client;
    let _ = writeln!(
        out,
        "{:<44} {:>11} {:>11.1} {:>9}  p99 {} µs",
        format!(
            "client: operations of {} keys (dbio, HDR)",
            d.spec.work_unit
        ),
        c.operations,
        c.operations as f64 / secs,
        us(c.read_op_ns.mean),
        us(c.read_op_ns.p99 as f64)
    );
    if let (Some(u), Some(k)) = (&c.update_ns, &c.commit_ns) {
        let _ = writeln!(
            out,
            "{:<44} {:>11} {:>11.1} {:>9}  commit avg {} µs, p99 {} µs",
            "client: updates, each committed",
            c.updates,
            c.updates as f64 / secs,
            us(u.mean),
            us(k.mean),
            us(k.p99 as f64)
        );
    }
}

/// Per step of a database sweep: the database's reads, the device's, the client's operations,
/// dbio's and the server's CPU, and the verdict (None when no step is a database run).
pub fn sweep_views(s: &dbio_model::sweep::SweepResult) -> Option<String> {
    let rows = step_views(s);
    if rows.is_empty() {
        return None;
    }
    let mut out = format!(
        "\n{:>9} {:>12} {:>12} {:>12} {:>10} {:>9} {:>9}  verdict\n",
        "sessions", "db reads/s", "device r/s", "client op/s", "op avg µs", "dbio CPU", "db CPU"
    );
    for v in rows {
        let _ = writeln!(
            out,
            "{:>9} {:>12.1} {:>12} {:>12.1} {:>10.0} {:>9} {:>9}  {}",
            v.value,
            v.db_reads_s,
            v.device_reads_s.map_or("-".into(), |x| format!("{x:.1}")),
            v.ops_s,
            v.op_mean_us,
            format!("{:.2} s", v.dbio_cpu_s),
            v.server_cpu_s.map_or("-".into(), |x| format!("{x:.2} s")),
            v.limit
        );
    }
    Some(out)
}

/// One step of a database sweep, as the text and HTML tables show it.
pub struct StepView<'a> {
    pub value: &'a str,
    pub db_reads_s: f64,
    pub device_reads_s: Option<f64>,
    pub ops_s: f64,
    pub op_mean_us: f64,
    pub dbio_cpu_s: f64,
    pub server_cpu_s: Option<f64>,
    pub limit: &'a str,
}

/// The steps of `s` that are database runs.
pub fn step_views(s: &dbio_model::sweep::SweepResult) -> Vec<StepView<'_>> {
    s.values
        .iter()
        .zip(&s.steps)
        .filter_map(|(v, r)| {
            let d = r.db.as_ref()?;
            let secs = r.measured_secs.max(1e-9);
            Some(StepView {
                value: v,
                db_reads_s: d.database.physical_reads as f64 / secs,
                device_reads_s: d.device.as_ref().map(|x| x.reads as f64 / secs),
                ops_s: d.client.operations as f64 / secs,
                op_mean_us: d.client.read_op_ns.mean / 1000.0,
                dbio_cpu_s: d.dbio_cpu_s,
                server_cpu_s: d.server_cpu_s,
                limit: r.verdict.as_ref().map_or("", |v| v.limit.as_str()),
            })
        })
        .collect()
}
