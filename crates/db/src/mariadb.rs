//! MariaDB and MySQL: connecting (shared with `dbio db`), and a snapshot of
//! `performance_schema.file_summary_by_instance` (counts, bytes and picosecond timers per
//! file) with InnoDB's file-per-table files mapped back to schema.table, and the redo log,
//! undo, system and temporary tablespaces as their own objects. Read-only.

use crate::error::DbError;
use crate::snapshot::Snapshot;
use crate::url::{redact, scrub};
use dbio_model::advise::{ObjectIo, ObjectKind};
use mysql::prelude::Queryable;
use mysql::{Conn, Opts, OptsBuilder};
use std::collections::HashMap;
use std::time::Duration;

/// Connects to `url` (mysql:// or mariadb://USER:PASSWORD@HOST:PORT/DB, `?socket=PATH`),
/// within 10 s; the session is read-only. The error is one line without the password.
pub fn connect(url: &str) -> Result<Conn, DbError> {
    let shown = redact(url);
    let fixed = match url.split_once("://") {
        Some((s, rest)) if s.eq_ignore_ascii_case("mariadb") => format!("mysql://{rest}"),
        _ => url.to_string(),
    };
    let opts = Opts::from_url(&fixed).map_err(|e| DbError::BadUrl {
        url: shown,
        system: "MySQL",
        why: scrub(&e.to_string(), url),
    })?;
    let kept = match opts.get_pass() {
        None => crate::password::my_password(),
        Some(_) => None,
    };
    let mut opts = OptsBuilder::from_opts(opts);
    if kept.is_some() {
        opts = opts.pass(kept);
    }
    let opts = opts
        .tcp_connect_timeout(Some(Duration::from_secs(10)))
        .read_timeout(Some(Duration::from_secs(60)));
    let mut c = Conn::new(opts).map_err(|e| explain(&e, url))?;
    c.query_drop("SET SESSION TRANSACTION READ ONLY")
        .map_err(|e| explain(&e, url))?;
    Ok(c)
}

/// One line saying what went wrong and what to do.
pub fn explain(e: &mysql::Error, url: &str) -> DbError {
    let shown = redact(url);
    match e {
        mysql::Error::MySqlError(m) => {
            let msg = scrub(&m.message, url);
            match m.code {
                1045 | 1698 => DbError::Server {
                    url: shown.clone(),
                    said: format!(
                        "the server refused the login ({msg}); check the user name and the password (in the URL, MYSQL_PWD or password= under [client] in ~/.my.cnf)"
                    ),
                },
                1044 | 1049 => DbError::Server {
                    url: shown.clone(),
                    said: format!(
                        "{msg}; name a database the user may use, or none"
                    ),
                },
                1227 => DbError::Server {
                    url: shown.clone(),
                    said: format!(
                        "the user lacks a privilege this needs ({msg}); grant the one named, e.g. GRANT PROCESS ON *.* TO the user"
                    ),
                },
                1142 | 1143 => DbError::Server {
                    url: shown.clone(),
                    said: format!(
                        "the user may not read the statistics ({msg}); grant it with GRANT SELECT ON performance_schema.* TO the user"
                    ),
                },
                _ => DbError::Server {
                    url: shown.clone(),
                    said: format!(
                        "{msg} (error {})",
                        m.code
                    ),
                },
            }
        }
        other => DbError::Connect {
            url: shown,
            cause: scrub(&other.to_string(), url),
        },
    }
}

/// A row of file_summary_by_instance: file, event, reads, read ps, bytes read, writes,
/// write ps, bytes written.
type FileRow = (String, String, u64, u64, u64, u64, u64, u64);

/// A snapshot of the server's per-file I/O, objects summed over their files.
pub fn snapshot(c: &mut Conn, url: &str) -> Result<Snapshot, DbError> {
    let err = |e: mysql::Error| explain(&e, url);
    let shown = redact(url);
    let ps: Option<i64> = c.query_first("SELECT @@performance_schema").map_err(err)?;
    if ps != Some(1) {
        return Err(DbError::Server {
            url: shown.clone(),
            said: "performance_schema is OFF, and dbio reads per-file I/O from performance_schema.file_summary_by_instance; turn it on: performance_schema = ON under [mysqld] in the server's my.cnf, then restart the server (it cannot be switched on while it runs)".into(),
        });
    }
    let mut s = Snapshot::new("mariadb", &shown);
    s.taken_at_ms = Some(crate::clock::now_ms());
    let uptime: Option<(String, u64)> = c
        .query_first("SHOW GLOBAL STATUS LIKE 'Uptime'")
        .map_err(err)?;
    s.counting_ms = uptime.map(|u| u.1.saturating_mul(1000));
    let rows: Vec<FileRow> = c
        .query(
            "SELECT FILE_NAME, EVENT_NAME, COUNT_READ, SUM_TIMER_READ, SUM_NUMBER_OF_BYTES_READ,
                    COUNT_WRITE, SUM_TIMER_WRITE, SUM_NUMBER_OF_BYTES_WRITE
             FROM performance_schema.file_summary_by_instance",
        )
        .map_err(err)?;
    let (sizes, refused) = sizes(c).map_err(err)?;
    let mut by_name: Vec<ObjectIo> = Vec::new();
    for (file, event, r, rps, rb, w, wps, wb) in rows {
        let (name, kind, key) = object_of(&file, &event);
        let i = match by_name.iter().position(|o| o.name == name) {
            Some(i) => i,
            None => {
                let mut o = ObjectIo::new(&name, kind);
                o.size_bytes = key.and_then(|k| sizes.get(&k).copied());
                o.read_ms = Some(0.0);
                o.write_ms = Some(0.0);
                by_name.push(o);
                by_name.len() - 1
            }
        };
        let o = &mut by_name[i];
        o.reads += r;
        o.writes += w;
        o.bytes_read += rb;
        o.bytes_written += wb;
        *o.read_ms.as_mut().expect("set") += rps as f64 / 1e9;
        *o.write_ms.as_mut().expect("set") += wps as f64 / 1e9;
    }
    if !by_name
        .iter()
        .any(|o| o.kind == ObjectKind::Log && o.name.starts_with("InnoDB redo"))
    {
        by_name.push(redo_from_status(c, sizes.get("#redo").copied()).map_err(err)?);
    }
    s.objects = by_name;
    s.notes.extend(refused);
    notes(c, &mut s).map_err(err)?;
    Ok(s)
}

/// A row of information_schema.TABLES: schema, table, data, index and free bytes.
type TableRow = (String, String, Option<u64>, Option<u64>, Option<u64>);

/// Sizes by key: "schema/table" for tables (information_schema, or InnoDB's own
/// tablespace list when the user may read it), and the redo log's.
fn sizes(c: &mut Conn) -> Result<(HashMap<String, u64>, Option<String>), mysql::Error> {
    let mut m = HashMap::new();
    let rows: Vec<TableRow> = c.query(
        "SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH, INDEX_LENGTH, DATA_FREE
         FROM information_schema.TABLES WHERE DATA_LENGTH IS NOT NULL",
    )?;
    for (schema, table, d, i, f) in rows {
        let size = d.unwrap_or(0) + i.unwrap_or(0) + f.unwrap_or(0);
        m.insert(format!("{schema}/{table}"), size);
        m.insert(format!("{schema}/{table}#index"), i.unwrap_or(0));
    }
    let refused = match tablespace_sizes(c, &mut m) {
        Ok(()) => None,
        Err(e) => Some(no_process_note(&e).ok_or(e)?),
    };
    if let Ok(Some(Some(v))) = c.query_first::<Option<u64>, _>("SELECT @@innodb_log_file_size") {
        let files = c
            .query_first::<Option<u64>, _>("SELECT @@innodb_log_files_in_group")
            .ok()
            .flatten()
            .flatten()
            .unwrap_or(1);
        m.insert("#redo".into(), v * files);
    }
    Ok((m, refused))
}

/// The exact file sizes from InnoDB's tablespace list (MariaDB's or MySQL's name for it),
/// which needs the PROCESS privilege: ERROR 1227 is returned, for the caller to name.
fn tablespace_sizes(c: &mut Conn, m: &mut HashMap<String, u64>) -> Result<(), mysql::Error> {
    for q in [
        "SELECT NAME, FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES",
        "SELECT NAME, FILE_SIZE FROM information_schema.INNODB_TABLESPACES",
    ] {
        match c.query::<(String, Option<u64>), _>(q) {
            Ok(rows) => {
                for (name, size) in rows {
                    if let Some(sz) = size.filter(|&v| v > 0) {
                        m.insert(decode(&name), sz);
                    }
                }
                return Ok(());
            }
            Err(mysql::Error::MySqlError(e)) if e.code == 1227 => {
                return Err(mysql::Error::MySqlError(e))
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// The note for sizes the user may not read (ERROR 1227 from InnoDB's tablespace list).
fn no_process_note(e: &mysql::Error) -> Option<String> {
    match e {
        mysql::Error::MySqlError(m) if m.code == 1227 => Some(format!(
            "sizes shown as ? : the user lacks the PROCESS privilege, so InnoDB's tablespace list was refused (ERROR 1227: {}), and information_schema.TABLES shows sizes only of tables the user has rights on; GRANT PROCESS ON *.* TO the user",
            m.message
        )),
        _ => None,
    }
}

/// The redo log from the server's status counters, where performance_schema does not
/// instrument its file (MariaDB 10.5 on): writes and bytes, no times.
fn redo_from_status(c: &mut Conn, size: Option<u64>) -> Result<ObjectIo, mysql::Error> {
    let rows: Vec<(String, String)> = c.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_log_writes', 'Innodb_os_log_written')",
    )?;
    let get = |n: &str| {
        rows.iter()
            .find(|r| r.0.eq_ignore_ascii_case(n))
            .and_then(|r| r.1.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let mut o = ObjectIo::new("InnoDB redo log", ObjectKind::Log);
    o.size_bytes = size;
    o.writes = get("Innodb_log_writes");
    o.bytes_written = get("Innodb_os_log_written");
    Ok(o)
}

fn notes(c: &mut Conn, s: &mut Snapshot) -> Result<(), mysql::Error> {
    let untimed: Option<u64> = c.query_first(
        "SELECT COUNT(*) FROM performance_schema.setup_instruments
         WHERE NAME LIKE 'wait/io/file/%' AND (ENABLED = 'NO' OR TIMED = 'NO')",
    )?;
    if untimed.unwrap_or(0) > 0 {
        s.notes.push(format!(
            "{} file I/O instruments are not enabled and timed, so their files count less or no time; enable them: UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES' WHERE NAME LIKE 'wait/io/file/%'",
            untimed.unwrap_or(0)
        ));
    }
    s.notes.push("InnoDB keeps a table's indexes in its .ibd file: each table counts with its indexes, and partitions with their table; counts come from performance_schema since the server started or the summary was truncated".into());
    Ok(())
}

/// The object a file belongs to: its name, kind and the key of its size.
pub fn object_of(file: &str, event: &str) -> (String, ObjectKind, Option<String>) {
    let parts: Vec<&str> = file.rsplit(['/', '\\']).collect();
    let base = parts.first().copied().unwrap_or(file);
    let dir = parts.get(1).copied().unwrap_or("");
    let (stem, ext) = base.rsplit_once('.').unwrap_or((base, ""));
    let ext = ext.to_ascii_lowercase();
    let named =
        |n: &str, k: ObjectKind, key: Option<&str>| (n.to_string(), k, key.map(str::to_string));
    if event.ends_with("innodb_log_file")
        || base.starts_with("ib_logfile")
        || base.starts_with("#ib_redo")
    {
        return named("InnoDB redo log", ObjectKind::Log, Some("#redo"));
    }
    if event.contains("binlog") {
        return named("binary log", ObjectKind::Log, None);
    }
    if event.contains("relaylog") {
        return named("relay log", ObjectKind::Log, None);
    }
    if base.starts_with("aria_log") {
        return named("Aria log", ObjectKind::Log, None);
    }
    if base.starts_with("ibtmp") || dir == "#innodb_temp" || event.ends_with("innodb_temp_file") {
        return named(
            "InnoDB temporary tablespace",
            ObjectKind::Temp,
            Some("innodb_temporary"),
        );
    }
    if base.starts_with("undo") {
        return named("InnoDB undo tablespaces", ObjectKind::Other, None);
    }
    if base.starts_with("ibdata") {
        return named(
            "InnoDB system tablespace",
            ObjectKind::Other,
            Some("innodb_system"),
        );
    }
    let table = stem
        .split("#P#")
        .next()
        .unwrap_or(stem)
        .split("#p#")
        .next()
        .unwrap_or(stem);
    if table.starts_with("#sql") {
        return named("temporary tables", ObjectKind::Temp, None);
    }
    let key = format!("{}/{}", decode(dir), decode(table));
    let name = format!("{}.{}", decode(dir), decode(table));
    match ext.as_str() {
        "ibd" | "myd" | "mad" => (name, ObjectKind::Data, Some(key)),
        "myi" | "mai" => (
            format!("{name} (index)"),
            ObjectKind::Index,
            Some(format!("{key}#index")),
        ),
        _ => named(
            "other files (.frm, .opt, status files)",
            ObjectKind::Other,
            None,
        ),
    }
}

/// Decodes MySQL's file-name encoding (@002d for '-').
fn decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('@') {
        out.push_str(&rest[..i]);
        let code = rest
            .get(i + 1..i + 5)
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        match code.and_then(char::from_u32) {
            Some(c) => {
                out.push(c);
                rest = &rest[i + 5..];
            }
            None => {
                out.push('@');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_map_to_objects() {
        let f = |p: &str, e: &str| object_of(p, e);
        assert_eq!(
            f("/d/shop/hot.ibd", "wait/io/file/innodb/innodb_data_file").0,
            "shop.hot"
        );
        assert_eq!(f("/d/shop/big#P#p1.ibd", "x").0, "shop.big");
        assert_eq!(f("/d/my@002ddb/t.ibd", "x").0, "my-db.t");
        assert_eq!(
            f("/d/ib_logfile0", "wait/io/file/innodb/innodb_log_file").1,
            ObjectKind::Log
        );
        assert_eq!(f("/d/undo001", "x").0, "InnoDB undo tablespaces");
        assert_eq!(f("/d/ibtmp1", "x").1, ObjectKind::Temp);
        assert_eq!(f("/d/shop/t.MYI", "x").1, ObjectKind::Index);
        assert_eq!(
            f("/d/shop/t.frm", "wait/io/file/sql/FRM").1,
            ObjectKind::Other
        );
    }
}
