//! PostgreSQL: connecting (shared with `dbio db`), and a snapshot of the I/O statistics of
//! the connected database: tables, TOAST and indexes from `pg_statio_user_*` (blocks read),
//! sizes from `pg_relation_size`, the WAL from `pg_stat_wal` and `pg_ls_waldir()`, and the
//! database's read time (with `track_io_timing`) shared out by blocks read. Read-only.

use crate::error::DbError;
use crate::snapshot::{IoWait, Pool, Snapshot};
use crate::url::{redact, scrub};
use dbio_model::advise::{ObjectIo, ObjectKind};
use postgres::error::SqlState;
use postgres::{Client, NoTls, Transaction};
use std::time::Duration;

/// Connects to `url` (postgres://USER:PASSWORD@HOST:PORT/DB, `?host=/socket/dir` for a
/// socket), within 10 s. The error is one line without the password.
pub fn connect(url: &str) -> Result<Client, DbError> {
    let shown = redact(url);
    let mut cfg: postgres::Config = url.parse().map_err(|e: postgres::Error| DbError::BadUrl {
        url: shown,
        system: "PostgreSQL",
        why: scrub(&e.to_string(), url),
    })?;
    cfg.connect_timeout(Duration::from_secs(10));
    cfg.application_name("dbio");
    if cfg.get_password().is_none() {
        if let Some(pw) = kept_password(&cfg) {
            cfg.password(pw);
        }
    }
    cfg.connect(NoTls).map_err(|e| explain(&e, url))
}

/// The password kept outside the URL for `cfg`'s login: PGPASSWORD or ~/.pgpass, matched as
/// libpq matches them (a socket is "localhost", the database defaults to the user); a
/// password file others may read is skipped, as libpq skips it.
fn kept_password(cfg: &postgres::Config) -> Option<String> {
    let host = match cfg.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        _ => "localhost".to_string(),
    };
    let env_user = std::env::var("USER").unwrap_or_default();
    let user = cfg.get_user().unwrap_or(&env_user);
    crate::password::pg_password(&crate::password::PgLogin {
        host: &host,
        port: cfg.get_ports().first().copied().unwrap_or(5432),
        database: cfg.get_dbname().unwrap_or(user),
        user,
    })
}

/// One line saying what went wrong and what to do.
pub fn explain(e: &postgres::Error, url: &str) -> DbError {
    let shown = redact(url);
    let msg = scrub(
        &e.as_db_error()
            .map_or_else(|| e.to_string(), |d| d.message().to_string()),
        url,
    );
    match e.code() {
        Some(c)
            if *c == SqlState::INVALID_PASSWORD
                || *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION =>
        {
            DbError::Server {
                url: shown.clone(),
                said: format!(
                    "the server refused the login ({msg}); check the user name and password"
                ),
            }
        }
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => DbError::Server {
            url: shown.clone(),
            said: format!("{msg}; name a database that exists in the URL"),
        },
        Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => DbError::Server {
            url: shown.clone(),
            said: format!(
"the role may not read the statistics ({msg}); grant it with GRANT pg_monitor TO the role"
),
        },
        Some(_) => DbError::Server {
            url: shown.clone(),
            said: msg,
        },
        None => {
            let cause =
                std::error::Error::source(e).map_or(msg.clone(), |s| scrub(&s.to_string(), url));
            if cause == "password missing" {
                return match crate::password::ignored_pgpass() {
                    Some(f) => DbError::Server {
                        url: shown.clone(),
                        said: format!(
                            "the server asks for a password and none was given; {f} was ignored: others can read it; chmod 600 {f} (or set PGPASSWORD, or put the password in the URL)",
                            f = f.display()
                        ),
                    },
                    None => DbError::Server {
                        url: shown.clone(),
                        said: "the server asks for a password and none was given: set PGPASSWORD, add a line host:port:database:user:password to ~/.pgpass (chmod 600), or put it in the URL".into(),
                    },
                };
            }
            DbError::Connect { url: shown, cause }
        }
    }
}

/// A snapshot of the connected database's I/O statistics, in one read-only transaction.
pub fn snapshot(client: &mut Client, url: &str) -> Result<Snapshot, DbError> {
    let err = |e: postgres::Error| explain(&e, url);
    let mut tx = client
        .build_transaction()
        .read_only(true)
        .start()
        .map_err(err)?;
    let mut s = Snapshot::new("postgresql", &redact(url));
    s.taken_at_ms = Some(crate::clock::now_ms());
    let info = tx
        .query_one(
            "SELECT current_setting('track_io_timing') = 'on', current_setting('block_size')::bigint,
                    pg_postmaster_start_time()::text, current_database()::text,
                    current_setting('server_version_num')::int,
                    current_setting('track_wal_io_timing') = 'on'",
            &[],
        )
        .map_err(err)?;
    let (timing, block, db, version): (bool, i64, String, i32) =
        (info.get(0), info.get(1), info.get(3), info.get(4));
    let wal_timing: bool = info.get(5);
    s.server_started = Some(info.get(2));
    tables(&mut tx, &mut s, block as u64).map_err(err)?;
    indexes(&mut tx, &mut s, block as u64).map_err(err)?;
    database(&mut tx, &mut s, timing, version).map_err(err)?;
    if version >= 140000 {
        wal(&mut tx, &mut s, wal_timing).map_err(err)?;
    }
    tx.commit().map_err(err)?;
    notes(&mut s, timing, &db);
    Ok(s)
}

fn tables(tx: &mut Transaction, s: &mut Snapshot, block: u64) -> Result<(), postgres::Error> {
    let rows = tx.query(
        "SELECT t.schemaname::text, t.relname::text, coalesce(t.heap_blks_read, 0),
                coalesce(t.toast_blks_read, 0) + coalesce(t.tidx_blks_read, 0),
                pg_relation_size(t.relid),
                CASE WHEN c.reltoastrelid <> 0 THEN pg_total_relation_size(c.reltoastrelid) END
         FROM pg_statio_user_tables t JOIN pg_class c ON c.oid = t.relid
         ORDER BY 1, 2",
        &[],
    )?;
    for r in rows {
        let name = format!("{}.{}", r.get::<_, String>(0), r.get::<_, String>(1));
        let mut o = ObjectIo::new(&name, ObjectKind::Data);
        o.reads = r.get::<_, i64>(2) as u64;
        o.bytes_read = o.reads * block;
        o.size_bytes = Some(r.get::<_, i64>(4) as u64);
        s.objects.push(o);
        if let Some(size) = r.get::<_, Option<i64>>(5) {
            let mut t = ObjectIo::new(format!("{name} (TOAST)"), ObjectKind::Data);
            t.reads = r.get::<_, i64>(3) as u64;
            t.bytes_read = t.reads * block;
            t.size_bytes = Some(size as u64);
            s.objects.push(t);
        }
    }
    Ok(())
}

fn indexes(tx: &mut Transaction, s: &mut Snapshot, block: u64) -> Result<(), postgres::Error> {
    let rows = tx.query(
        "SELECT schemaname::text, indexrelname::text, relname::text, coalesce(idx_blks_read, 0),
                pg_relation_size(indexrelid)
         FROM pg_statio_user_indexes ORDER BY 1, 2",
        &[],
    )?;
    for r in rows {
        let name = format!(
            "{}.{} (index on {})",
            r.get::<_, String>(0),
            r.get::<_, String>(1),
            r.get::<_, String>(2)
        );
        let mut o = ObjectIo::new(name, ObjectKind::Index);
        o.reads = r.get::<_, i64>(3) as u64;
        o.bytes_read = o.reads * block;
        o.size_bytes = Some(r.get::<_, i64>(4) as u64);
        s.objects.push(o);
    }
    Ok(())
}

/// The database's blocks read and read time (the pool shared out by blocks read), and its
/// I/O time against its active time for the share of time waiting on I/O.
fn database(
    tx: &mut Transaction,
    s: &mut Snapshot,
    timing: bool,
    version: i32,
) -> Result<(), postgres::Error> {
    let active = if version >= 140000 {
        "active_time"
    } else {
        "NULL::float8"
    };
    let r = tx.query_one(
        &format!(
            "SELECT blks_read, blk_read_time, blk_write_time, {active}, stats_reset::text
             FROM pg_stat_database WHERE datname = current_database()"
        ),
        &[],
    )?;
    s.counters_since = r.get(4);
    if timing {
        s.read_time_pool = Some(Pool {
            blocks: r.get::<_, i64>(0) as u64,
            ms: r.get(1),
        });
        if let Some(busy) = r.get::<_, Option<f64>>(3) {
            s.io_wait = Some(IoWait {
                io_ms: r.get::<_, f64>(1) + r.get::<_, f64>(2),
                busy_ms: busy,
            });
        }
    }
    Ok(())
}

/// The WAL as one object: writes, bytes and (with track_wal_io_timing) write and sync time.
fn wal(tx: &mut Transaction, s: &mut Snapshot, timing: bool) -> Result<(), postgres::Error> {
    let r = tx.query_one(
        "SELECT wal_bytes::float8, wal_write, wal_write_time + wal_sync_time,
                (SELECT coalesce(sum(size), 0)::bigint FROM pg_ls_waldir())
         FROM pg_stat_wal",
        &[],
    )?;
    let mut o = ObjectIo::new("WAL (pg_wal)", ObjectKind::Log);
    o.bytes_written = r.get::<_, f64>(0) as u64;
    o.writes = r.get::<_, i64>(1) as u64;
    o.write_ms = timing.then(|| r.get::<_, f64>(2));
    o.size_bytes = Some(r.get::<_, i64>(3) as u64);
    s.objects.push(o);
    Ok(())
}

fn notes(s: &mut Snapshot, timing: bool, db: &str) {
    if timing {
        s.notes.push("PostgreSQL times reads per database, not per object: each object's read time is the database's read time shared out by blocks read".into());
    } else {
        s.notes.push("track_io_timing is off, so PostgreSQL recorded no read times: objects are ranked by reads per GiB. Turn it on (as a superuser): ALTER SYSTEM SET track_io_timing = on; SELECT pg_reload_conf();".into());
    }
    s.notes.push(format!(
        "only database {db} (the statistics views cover the database connected to); blocks read come from the OS, its page cache included; PostgreSQL counts no writes per table or index (they go through the WAL and checkpoints)"
    ));
}
