//! MariaDB/MySQL side of `dbio db`: server facts, dbio's database, the session's statements,
//! and the counters of performance_schema (InnoDB data and log files) and global status.

use super::facts::{parse_layout, Counters, Layout, Server, MARKER, SCHEMA};
use crate::error::DbError;
use crate::mariadb::explain;
use crate::url::System;
use mysql::prelude::Queryable;
use mysql::{Conn, Statement};
use std::time::Instant;

fn e(url: &str) -> impl Fn(mysql::Error) -> DbError + '_ {
    move |err| explain(&err, url)
}

/// A connection that may write (the advise reader's is read-only).
pub fn connect_rw(url: &str) -> Result<Conn, DbError> {
    let mut c = crate::mariadb::connect(url)?;
    c.query_drop("SET SESSION TRANSACTION READ WRITE")
        .map_err(e(url))?;
    Ok(c)
}

/// Whether `version` (e.g. "10.11.6-MariaDB-0+deb12u1", "8.0.36") is one dbio knows.
fn known(version: &str) -> bool {
    let mut it = version
        .split(['.', '-'])
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
    if version.contains("MariaDB") {
        (major, minor) >= (10, 3) && major <= 11
    } else {
        major == 8 || major == 9
    }
}

type Facts = (String, u64, u64, String, String, i64);

/// Version, page size, buffer pool, datadir, flush method.
pub fn server(c: &mut Conn, url: &str) -> Result<Server, DbError> {
    let r: Option<Facts> = c
        .query_first(
            "SELECT VERSION(), @@innodb_page_size, @@innodb_buffer_pool_size, @@datadir,
                    COALESCE(@@innodb_flush_method, ''), @@performance_schema",
        )
        .map_err(e(url))?;
    let (version, page, pool, datadir, flush, ps) = r.ok_or(DbError::NoFacts)?;
    let shown = crate::url::redact(url);
    if !known(&version) {
        return Err(DbError::Server {
            url: shown.clone(),
            said: format!(
"server version {version} is one dbio db does not know (MariaDB 10.3 to 11, MySQL 8 and 9)"
),
        });
    }
    if ps != 1 {
        return Err(DbError::Server {
            url: shown.clone(),
            said: "performance_schema is OFF, and dbio db reads InnoDB's file I/O from it; set performance_schema = ON under [mysqld] and restart the server".into(),
        });
    }
    Ok(Server {
        system: System::MySql,
        version: format!(
            "{} {version}",
            if version.contains("MariaDB") {
                "MariaDB"
            } else {
                "MySQL"
            }
        ),
        block_size: page,
        row_bytes: page,
        buffer_pool_bytes: pool,
        data_dir: Some(datadir),
        io_method: if flush.is_empty() {
            "fsync".into()
        } else {
            flush
        },
    })
}

/// Whether dbio's database exists, and whether its marker does.
pub fn found(c: &mut Conn, url: &str) -> Result<(bool, bool), DbError> {
    let schema: Option<String> = c
        .exec_first(
            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
            (SCHEMA,),
        )
        .map_err(e(url))?;
    let marker: Option<String> = c
        .exec_first(
            "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
            (SCHEMA, MARKER),
        )
        .map_err(e(url))?;
    Ok((schema.is_some(), marker.is_some()))
}

/// The layout the marker records, None when dbio's database is not there.
pub fn layout(c: &mut Conn, url: &str) -> Result<Option<Layout>, DbError> {
    if !found(c, url)?.1 {
        return Ok(None);
    }
    let d: Option<String> = c
        .query_first(format!(
            "SELECT detail FROM {SCHEMA}.{MARKER} WHERE kind = 'layout'"
        ))
        .map_err(e(url))?;
    Ok(d.and_then(|d| parse_layout(&d)))
}

pub fn exec(c: &mut Conn, url: &str, sql: &str) -> Result<(), DbError> {
    c.query_drop(sql).map_err(e(url))
}

pub fn mark(c: &mut Conn, url: &str, kind: &str, name: &str, detail: &str) -> Result<(), DbError> {
    c.exec_drop(
        format!("INSERT INTO {SCHEMA}.{MARKER} (kind, name, detail) VALUES (?, ?, ?)"),
        (kind, name, detail),
    )
    .map_err(e(url))
}

pub fn create_schema(c: &mut Conn, url: &str) -> Result<(), DbError> {
    exec(c, url, &format!("CREATE DATABASE {SCHEMA}"))?;
    exec(
        c,
        url,
        &format!(
            "CREATE TABLE {SCHEMA}.{MARKER} (kind VARCHAR(16) NOT NULL, name VARCHAR(64) NOT NULL, detail VARCHAR(255) NOT NULL, made_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB"
        ),
    )
}

/// Characters of a row's pad: stored off the clustered page (too long to stay in it) in an
/// overflow page of its own, so that each row is one database page, as one block in SLOB.
fn pad_len(page: u64) -> u64 {
    page - 400
}

/// Table `t`: clustered on `pk` (load order), read through the index on the scattered `id`;
/// each row's pad fills an overflow page of its own.
pub fn create_table(c: &mut Conn, url: &str, t: u32, page: u64) -> Result<(), DbError> {
    mark(c, url, "table", &format!("slob_{t}"), "")?;
    exec(
        c,
        url,
        &format!(
            "CREATE TABLE {SCHEMA}.slob_{t} (pk BIGINT NOT NULL PRIMARY KEY, id BIGINT NOT NULL, v BIGINT NOT NULL,
               pad VARCHAR({}) NOT NULL, KEY slob_{t}_id (id)) ENGINE=InnoDB DEFAULT CHARSET=latin1 ROW_FORMAT=DYNAMIC",
            pad_len(page)
        ),
    )
}

/// Loads rows lo..=hi of table `t` (at most 900 a call: MySQL's recursion limit is 1000).
pub fn load(
    c: &mut Conn,
    url: &str,
    t: u32,
    lo: u64,
    hi: u64,
    rows: u64,
    page: u64,
) -> Result<(), DbError> {
    let pad = pad_len(page);
    exec(
        c,
        url,
        &format!(
            "INSERT INTO {SCHEMA}.slob_{t} (pk, id, v, pad)
             WITH RECURSIVE s (g) AS (SELECT {lo} UNION ALL SELECT g + 1 FROM s WHERE g < {hi})
             SELECT g, ((g - 1) * {m}) % {rows} + 1, g,
                    RPAD(MD5(g), {pad}, CONCAT(MD5(g * 7), MD5(g * 13), SHA1(g)))
             FROM s",
            m = super::keys::multiplier(rows)
        ),
    )
}

pub fn index(c: &mut Conn, url: &str, t: u32) -> Result<(), DbError> {
    mark(c, url, "index", &format!("slob_{t}_id"), "")?;
    c.query_drop(format!("ANALYZE TABLE {SCHEMA}.slob_{t}"))
        .map_err(e(url))
}

/// Objects in dbio's database the marker does not record (tables, views, routines).
pub fn strangers(c: &mut Conn, url: &str) -> Result<Vec<String>, DbError> {
    let mut out: Vec<String> = c
        .exec(
            format!(
                "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME <> ?
                   AND TABLE_NAME NOT IN (SELECT name FROM {SCHEMA}.{MARKER})"
            ),
            (SCHEMA, MARKER),
        )
        .map_err(e(url))?;
    let routines: Vec<String> = c
        .exec(
            "SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?",
            (SCHEMA,),
        )
        .map_err(e(url))?;
    out.extend(routines);
    Ok(out)
}

/// Every (kind, name) row of dbio's marker.
pub fn marker_rows(c: &mut Conn, url: &str) -> Result<Vec<(String, String)>, DbError> {
    c.query(format!(
        "SELECT kind, name FROM {SCHEMA}.{MARKER} ORDER BY kind, name"
    ))
    .map_err(e(url))
}

/// `name` as a MySQL identifier: in backquotes, a backquote in it doubled (the server's rule;
/// the driver has no quoting of its own).
pub fn quote_identifier(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// Drops `tables` (names setup makes, checked by the caller, each quoted) in dbio's
/// database, the marker, then the (then empty) database.
pub fn drop_all(c: &mut Conn, url: &str, tables: &[String]) -> Result<(), DbError> {
    for t in tables {
        exec(
            c,
            url,
            &format!("DROP TABLE IF EXISTS {SCHEMA}.{}", quote_identifier(t)),
        )?;
    }
    exec(c, url, &format!("DROP TABLE {SCHEMA}.{MARKER}"))?;
    exec(c, url, &format!("DROP DATABASE {SCHEMA}"))
}

type FileSum = (String, u64, u64, u64, u64, u64, u64, u64);

/// InnoDB's data and log files from performance_schema, commits from global status.
pub fn counters(c: &mut Conn, url: &str) -> Result<Counters, DbError> {
    let rows: Vec<FileSum> = c
        .query(
            "SELECT EVENT_NAME, COUNT_READ, SUM_TIMER_READ, COUNT_WRITE, SUM_TIMER_WRITE,
                    SUM_NUMBER_OF_BYTES_WRITE, COUNT_MISC, SUM_TIMER_MISC
             FROM performance_schema.file_summary_by_event_name
             WHERE EVENT_NAME IN ('wait/io/file/innodb/innodb_data_file', 'wait/io/file/innodb/innodb_log_file')",
        )
        .map_err(e(url))?;
    let mut k = Counters {
        read_time_s: Some(0.0),
        log_time_s: Some(0.0),
        log_sync_time_s: Some(0.0),
        ..Counters::default()
    };
    for (ev, r, rt, w, wt, wb, m, mt) in rows {
        if ev.ends_with("data_file") {
            k.reads = r;
            k.read_time_s = Some(rt as f64 / 1e12);
            k.data_writes = w;
        } else {
            k.log_writes = w;
            k.log_bytes = wb;
            k.log_syncs = m;
            k.log_time_s = Some((wt + mt) as f64 / 1e12);
            k.log_sync_time_s = Some(mt as f64 / 1e12);
        }
    }
    let status: Vec<(String, u64)> = c
        .query(
            "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads', 'Com_commit', 'Handler_commit', 'Innodb_log_writes', 'Innodb_os_log_written', 'Innodb_os_log_fsyncs')",
        )
        .map_err(e(url))?;
    let get = |n: &str| {
        status
            .iter()
            .find(|s| s.0.eq_ignore_ascii_case(n))
            .map_or(0, |s| s.1)
    };
    k.hits =
        get("Innodb_buffer_pool_read_requests").saturating_sub(get("Innodb_buffer_pool_reads"));
    k.commits = get("Com_commit");
    // MariaDB 10.8 on writes its redo log outside performance_schema's file instruments.
    if k.log_writes == 0 && k.log_syncs == 0 {
        k.log_writes = get("Innodb_log_writes");
        k.log_bytes = get("Innodb_os_log_written");
        k.log_syncs = get("Innodb_os_log_fsyncs");
        k.log_time_s = None;
        k.log_sync_time_s = None;
    }
    Ok(k)
}

/// The server process, from its pid file, when it runs on this host.
pub fn server_pids(c: &mut Conn) -> Vec<u32> {
    let file: Option<String> = c.query_first("SELECT @@pid_file").ok().flatten();
    let pid = file
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|p| p.trim().parse::<u32>().ok());
    pid.filter(|p| {
        super::procfs::comm(*p)
            .is_some_and(|c| c.starts_with("mariadbd") || c.starts_with("mysqld"))
    })
    .into_iter()
    .collect()
}

pub fn data_set_bytes(c: &mut Conn, url: &str) -> Result<u64, DbError> {
    let b: Option<Option<u64>> = c
        .exec_first(
            "SELECT CAST(SUM(DATA_LENGTH + INDEX_LENGTH) AS UNSIGNED) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?",
            (SCHEMA,),
        )
        .map_err(e(url))?;
    Ok(b.flatten().unwrap_or(0))
}

/// A MariaDB session: its connection and prepared statements.
pub struct MySession {
    c: Conn,
    url: String,
    read: Statement,
    update: Statement,
}

impl MySession {
    pub fn open(url: &str, t: u32) -> Result<Self, DbError> {
        let mut c = connect_rw(url)?;
        let read = c
            .prep(format!(
                "SELECT COUNT(v) FROM {SCHEMA}.slob_{t} FORCE INDEX (slob_{t}_id) WHERE id BETWEEN ? AND ? AND pad <> ''"
            ))
            .map_err(e(url))?;
        let update = c
            .prep(format!(
                "UPDATE {SCHEMA}.slob_{t} FORCE INDEX (slob_{t}_id) SET v = v + 1 WHERE id BETWEEN ? AND ?"
            ))
            .map_err(e(url))?;
        Ok(MySession {
            c,
            url: url.to_string(),
            read,
            update,
        })
    }

    pub fn read(&mut self, lo: i64, hi: i64) -> Result<(), DbError> {
        let _: Option<i64> = self
            .c
            .exec_first(&self.read, (lo, hi))
            .map_err(e(&self.url))?;
        Ok(())
    }

    pub fn update(&mut self, lo: i64, hi: i64) -> Result<(u64, u64), DbError> {
        let t0 = Instant::now();
        self.c.query_drop("BEGIN").map_err(e(&self.url))?;
        self.c
            .exec_drop(&self.update, (lo, hi))
            .map_err(e(&self.url))?;
        let t1 = Instant::now();
        self.c.query_drop("COMMIT").map_err(e(&self.url))?;
        Ok(((t1 - t0).as_nanos() as u64, t1.elapsed().as_nanos() as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert!(known("10.11.6-MariaDB-0+deb12u1"));
        assert!(known("8.0.36"));
        assert!(!known("5.7.44"));
        assert!(!known("10.1.48-MariaDB"));
    }
}
