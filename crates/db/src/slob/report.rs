//! The database run's report: the AWR-like table from the database's counters over the
//! window, the device's and the client's views beside it, why they differ, and what held
//! the run.

use super::procfs::cpu_between;
use super::run::Measured;
use crate::url::System;
use dbio_model::db::{ClientView, DbCounts, DbEvent, DbReport, DbSpec, DeviceView};
use dbio_model::LatencySummary;

/// The database's counts over the window.
fn counts(m: &Measured) -> DbCounts {
    let (a, b) = (&m.before.db, &m.after.db);
    let d = |x: u64, y: u64| y.saturating_sub(x);
    let dt = |x: Option<f64>, y: Option<f64>| Some((y? - x?).max(0.0));
    DbCounts {
        physical_reads: d(a.reads, b.reads),
        read_time_s: dt(a.read_time_s, b.read_time_s),
        cache_hits: d(a.hits, b.hits),
        log_writes: d(a.log_writes, b.log_writes),
        log_bytes: d(a.log_bytes, b.log_bytes),
        log_syncs: d(a.log_syncs, b.log_syncs),
        log_time_s: dt(a.log_time_s, b.log_time_s),
        commits: d(a.commits, b.commits),
    }
}

/// The AWR-like rows: the database's own names, the generic ones, counts and times. A log
/// sync is the commit's wait: its time is its own row's, the rest of the log time the writes'.
fn events(m: &Measured, c: &DbCounts, data_writes: u64) -> Vec<DbEvent> {
    let pg = m.server.system == System::Postgres;
    let (a, b) = (&m.before.db, &m.after.db);
    let sync_s = b
        .log_sync_time_s
        .zip(a.log_sync_time_s)
        .map(|(y, x)| (y - x).max(0.0));
    let write_s = c.log_time_s.map(|t| (t - sync_s.unwrap_or(0.0)).max(0.0));
    let per_s = |n: u64| if m.secs > 0.0 { n as f64 / m.secs } else { 0.0 };
    let row = |name: &str, generic: &str, waits: u64, time_s: Option<f64>| DbEvent {
        name: name.into(),
        generic: generic.into(),
        waits,
        time_s,
        per_s: per_s(waits),
    };
    let mut v = if pg {
        vec![
            row(
                "blks_read",
                "single-block read",
                c.physical_reads,
                c.read_time_s,
            ),
            row("blks_hit", "buffer cache hit", c.cache_hits, None),
            row("WAL write", "log write", c.log_writes, write_s),
            row("WAL sync", "log sync (commit)", c.log_syncs, sync_s),
            row("xact_commit", "commit", c.commits, None),
        ]
    } else {
        vec![
            row(
                "innodb_data_file read",
                "single-block read",
                c.physical_reads,
                c.read_time_s,
            ),
            row("innodb_data_file write", "data write", data_writes, None),
            row("buffer pool hit", "buffer cache hit", c.cache_hits, None),
            row("innodb_log_file write", "log write", c.log_writes, write_s),
            row(
                "innodb_log_file sync",
                "log sync (commit)",
                c.log_syncs,
                sync_s,
            ),
            row("Com_commit", "commit", c.commits, None),
        ]
    };
    v.retain(|e| e.waits > 0 || e.generic == "single-block read");
    v
}

/// The device's view over the window.
fn device(m: &Measured) -> Option<DeviceView> {
    let (name, a, b) = (m.device.as_ref()?, m.before.disk?, m.after.disk?);
    let d = a.delta(&b);
    Some(DeviceView {
        name: name.clone(),
        found_from: format!("holds {}", m.data_file.as_deref().unwrap_or("?")),
        reads: d.reads,
        reads_merged: d.reads_merged,
        read_bytes: d.sectors_read * 512,
        read_time_s: d.read_ms as f64 / 1000.0,
        writes: d.writes,
        write_bytes: d.sectors_written * 512,
        util_pct: if m.secs > 0.0 {
            (d.io_ms as f64 / 10.0 / m.secs).min(100.0)
        } else {
            0.0
        },
    })
}

fn mib(b: u64) -> u64 {
    b >> 20
}

/// Where the views disagree, in plain words.
fn notes(m: &Measured, c: &DbCounts, dev: Option<&DeviceView>) -> (Vec<String>, Option<f64>) {
    let mut n = Vec::new();
    let pg = m.server.system == System::Postgres;
    let direct = m.server.io_method.to_ascii_uppercase().contains("O_DIRECT");
    let mut cache_pct = None;
    match dev {
        None => n.push(match &m.data_file {
            Some(f) => format!("no device view: {f} is not on a block device this host shows in /proc/diskstats (another host, or a file system without one)"),
            None => "no device view: the server does not tell its data directory to this role, or it runs on another host".into(),
        }),
        Some(d) => {
            let db = c.physical_reads;
            if db > 0 && d.reads < db {
                let pct = (db - d.reads) as f64 * 100.0 / db as f64;
                cache_pct = Some(pct);
                if pg || !direct {
                    n.push(format!(
                        "the database counted {db} physical reads but {} served {}: {pct:.1} % came from the OS page cache, not the device ({}: every block not in the database's own buffers counts as read, wherever it came from)",
                        d.name, d.reads, if pg { "PostgreSQL reads through the page cache" } else { "InnoDB without O_DIRECT reads through the page cache" }
                    ));
                }
            }
            if d.reads > db + db / 100 + 10 {
                n.push(format!(
                    "{} served {} reads, more than the database's {db}: other I/O on the device (it counts everything this host did there), or read-ahead",
                    d.name, d.reads
                ));
            }
            if let (Some(dbt), true) = (c.read_time_s, d.reads > 0 && db > 0) {
                n.push(format!(
                    "read time: the database waited {dbt:.2} s ({:.0} µs a read), the device spent {:.2} s ({:.0} µs a read); the difference is the file system's and the OS's share of the wait{}",
                    dbt * 1e6 / db as f64, d.read_time_s, d.read_time_s * 1e6 / d.reads as f64,
                    if pg { " and the page cache's" } else { "" }
                ));
            }
        }
    }
    if m.server.buffer_pool_bytes >= m.data_set_bytes {
        n.push(format!(
            "the database's buffer pool ({} MiB) is larger than dbio's data set ({} MiB): reads stay in memory once warm; set up a larger --size",
            mib(m.server.buffer_pool_bytes), mib(m.data_set_bytes)
        ));
    }
    if pg || !direct {
        n.extend(memory_note(m));
    }
    if m.opts.lock_bytes > 0 {
        n.push(format!(
            "dbio held {} MiB of memory locked (mlock) while the run measured (--lock-memory), so the page cache had that much less room: pgio's reduce-free-memory step",
            mib(m.opts.lock_bytes)
        ));
    }
    (n, cache_pct)
}

/// Whether the page cache the server may use can hold the data set: the host's memory less
/// what dbio holds locked, or the server's cgroup limit where that is smaller.
fn memory_note(m: &Measured) -> Option<String> {
    let host = super::procfs::mem_total().saturating_sub(m.opts.lock_bytes);
    let (room, whose) = match m.server_memory_limit {
        Some(limit) if limit < host => (
            limit,
            format!(
                "{} MiB, the memory limit of the server's cgroup",
                mib(limit)
            ),
        ),
        _ if m.opts.lock_bytes > 0 => (
            host,
            format!(
                "{} MiB, the host's memory less what dbio holds locked",
                mib(host)
            ),
        ),
        _ => (host, format!("{} MiB of memory", mib(host))),
    };
    if room == 0 || m.data_set_bytes >= room / 2 {
        return m.server_memory_limit.filter(|&l| l < host).map(|l| format!(
            "the server runs in a cgroup limited to {} MiB, page cache included, less than twice dbio's data set ({} MiB): reads of blocks the page cache cannot keep go to the device",
            mib(l), mib(m.data_set_bytes)
        ));
    }
    Some(format!(
        "the OS page cache can hold the whole data set ({} MiB of {whose}): the database's physical reads measure memory, not storage; use a data set larger than memory, hold memory away with --lock-memory SIZE, or use a database with direct I/O",
        mib(m.data_set_bytes)
    ))
}

/// What held the run: (code, message).
pub fn verdict(m: &Measured, r: &DbReport) -> (String, String) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let (busy, total) = (
        m.after.host.0.saturating_sub(m.before.host.0),
        m.after.host.1.saturating_sub(m.before.host.1),
    );
    let host = if total > 0 {
        busy as f64 * 100.0 / total as f64
    } else {
        0.0
    };
    let cap = cpus * m.secs;
    let server = r.server_cpu_s.unwrap_or(0.0);
    let me = r.dbio_cpu_s;
    let pct = |s: f64| if cap > 0.0 { s * 100.0 / cap } else { 0.0 };
    let dev = r.device.as_ref();
    let util = dev.map_or(0.0, |d| d.util_pct);
    let evidence = format!(
        "host {host:.0} % busy of {cpus:.0} CPUs; database server {server:.1} CPU-s ({:.0} %), dbio {me:.1} CPU-s ({:.0} %){}",
        pct(server),
        pct(me),
        dev.map_or(String::new(), |d| format!("; {} {util:.0} % busy", d.name))
    );
    // On a busy host, the one that used most of the busy CPU held the run; if neither the
    // server nor dbio used a third of it, other work on the host did.
    let busy_s = host / 100.0 * cap;
    let (code, what) = if host >= 90.0 && server >= me && server >= busy_s / 3.0 {
        ("database-cpu", "the database server's CPU")
    } else if host >= 90.0 && me > server && me >= busy_s / 3.0 {
        ("load-generator", "dbio's own CPU (the load generator)")
    } else if host >= 90.0 {
        (
            "host-cpu",
            "the host's CPU, busy with other work than the database server and dbio",
        )
    } else if util >= 90.0 {
        ("device", "the device")
    } else {
        (
            "sessions",
            "the sessions' round trips: nothing saturated, so more sessions would add reads",
        )
    };
    (code.into(), format!("limited by {what}: {evidence}"))
}

fn summary(h: &hdrhistogram::Histogram<u64>) -> Option<LatencySummary> {
    (!h.is_empty()).then(|| LatencySummary::of(h))
}

/// The report of a measured run; `url` is shown without its password.
pub fn build(m: &Measured, url: &str) -> DbReport {
    let c = counts(m);
    let dev = device(m);
    let (notes, page_cache_pct) = notes(m, &c, dev.as_ref());
    let data_writes = m
        .after
        .db
        .data_writes
        .saturating_sub(m.before.db.data_writes);
    let server_cpu = (!m.before.server_cpu.is_empty())
        .then(|| cpu_between(&m.before.server_cpu, &m.after.server_cpu));
    let o = &m.opts;
    DbReport {
        spec: DbSpec {
            system: if m.server.system == System::Postgres {
                "postgresql"
            } else {
                "mariadb"
            }
            .into(),
            url: crate::url::redact(url),
            schema: super::SCHEMA.into(),
            sessions: o.sessions,
            tables: m.layout.tables,
            rows_per_table: m.layout.rows,
            work_unit: o.work_unit,
            update_pct: o.update_pct,
            think_ns: o.think_ns.map(|(a, b)| [a, b]),
        },
        server_version: m.server.version.clone(),
        block_size: m.server.block_size,
        data_set_bytes: m.data_set_bytes,
        buffer_pool_bytes: m.server.buffer_pool_bytes,
        io_method: m.server.io_method.clone(),
        events: events(m, &c, data_writes),
        database: c,
        device: dev,
        client: ClientView {
            operations: m.read.len(),
            updates: m.update.len(),
            read_op_ns: LatencySummary::of(&m.read),
            update_ns: summary(&m.update),
            commit_ns: summary(&m.commit),
        },
        page_cache_pct,
        server_cpu_s: server_cpu,
        dbio_cpu_s: (m.after.dbio_cpu_s - m.before.dbio_cpu_s).max(0.0),
        notes,
    }
}
