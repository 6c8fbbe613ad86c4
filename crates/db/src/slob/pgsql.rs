//! PostgreSQL side of `dbio db`: server facts, dbio's schema, the session's statements and
//! the counters of pg_stat_database and pg_stat_wal.

use super::facts::{parse_layout, Counters, Layout, Server, MARKER, SCHEMA};
use crate::error::DbError;
use crate::pg::explain;
use crate::url::System;
use postgres::{Client, Statement};
use std::time::Instant;

/// Versions whose statistics views dbio reads (pg_stat_wal with its write counters).
const KNOWN: std::ops::RangeInclusive<i32> = 140000..=179999;

fn e(url: &str) -> impl Fn(postgres::Error) -> DbError + '_ {
    move |err| explain(&err, url)
}

/// Version, block size, shared_buffers, data directory (when readable).
pub fn server(c: &mut Client, url: &str) -> Result<Server, DbError> {
    let r = c
        .query_one(
            "SELECT current_setting('server_version'), current_setting('server_version_num')::int,
                    current_setting('block_size')::bigint,
                    (SELECT setting::bigint * current_setting('block_size')::bigint
                       FROM pg_settings WHERE name = 'shared_buffers'),
                    (SELECT setting FROM pg_settings WHERE name = 'data_directory')",
            &[],
        )
        .map_err(e(url))?;
    let (version, num): (String, i32) = (r.get(0), r.get(1));
    if !KNOWN.contains(&num) {
        return Err(DbError::Server {
            url: crate::url::redact(url),
            said: format!(
                "PostgreSQL {version} is a version dbio db does not know (it reads pg_stat_database and pg_stat_wal of PostgreSQL 14 to 17)"
            ),
        });
    }
    let block = r.get::<_, i64>(2) as u64;
    Ok(Server {
        system: System::Postgres,
        version: format!("PostgreSQL {version}"),
        block_size: block,
        row_bytes: block,
        buffer_pool_bytes: r.get::<_, Option<i64>>(3).unwrap_or(0) as u64,
        data_dir: r.get(4),
        io_method: "buffered (through the OS page cache)".into(),
    })
}

/// Whether dbio's schema exists, and whether its marker does.
pub fn found(c: &mut Client, url: &str) -> Result<(bool, bool), DbError> {
    let r = c
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1),
                    to_regclass($2) IS NOT NULL",
            &[&SCHEMA, &format!("{SCHEMA}.{MARKER}")],
        )
        .map_err(e(url))?;
    Ok((r.get(0), r.get(1)))
}

/// The layout the marker records, None when dbio's schema is not there.
pub fn layout(c: &mut Client, url: &str) -> Result<Option<Layout>, DbError> {
    if !found(c, url)?.1 {
        return Ok(None);
    }
    let rows = c
        .query(
            &format!("SELECT detail FROM {SCHEMA}.{MARKER} WHERE kind = 'layout'"),
            &[],
        )
        .map_err(e(url))?;
    Ok(rows
        .first()
        .and_then(|r| parse_layout(&r.get::<_, String>(0))))
}

/// Runs `sql` (one or more statements).
pub fn exec(c: &mut Client, url: &str, sql: &str) -> Result<(), DbError> {
    c.batch_execute(sql).map_err(e(url))
}

/// Records an object dbio made (before making it, so a failed setup knows what to drop).
pub fn mark(
    c: &mut Client,
    url: &str,
    kind: &str,
    name: &str,
    detail: &str,
) -> Result<(), DbError> {
    c.execute(
        &format!("INSERT INTO {SCHEMA}.{MARKER} (kind, name, detail) VALUES ($1, $2, $3)"),
        &[&kind, &name, &detail],
    )
    .map(|_| ())
    .map_err(e(url))
}

/// Creates the schema and its marker table.
pub fn create_schema(c: &mut Client, url: &str) -> Result<(), DbError> {
    exec(
        c,
        url,
        &format!(
            "CREATE SCHEMA {SCHEMA}; CREATE TABLE {SCHEMA}.{MARKER} (kind text NOT NULL, name text NOT NULL, detail text NOT NULL, made_at timestamptz NOT NULL DEFAULT now())"
        ),
    )
}

/// Creates table `t` (rows of one block each: the pad is stored plainly, never compressed).
pub fn create_table(c: &mut Client, url: &str, t: u32) -> Result<(), DbError> {
    mark(c, url, "table", &format!("slob_{t}"), "")?;
    exec(
        c,
        url,
        &format!(
            "CREATE TABLE {SCHEMA}.slob_{t} (id bigint NOT NULL, v bigint NOT NULL, pad text NOT NULL)
               WITH (autovacuum_enabled = false);
             ALTER TABLE {SCHEMA}.slob_{t} ALTER COLUMN pad SET STORAGE PLAIN"
        ),
    )
}

/// Loads rows lo..=hi of table `t` (`rows` in all, `block` bytes per block).
pub fn load(
    c: &mut Client,
    url: &str,
    t: u32,
    lo: u64,
    hi: u64,
    rows: u64,
    block: u64,
) -> Result<(), DbError> {
    let pad = block / 2 + 64;
    exec(
        c,
        url,
        &format!(
            "INSERT INTO {SCHEMA}.slob_{t} SELECT ((g - 1) * {m}) % {rows} + 1, g,
                 rpad(md5(g::text), {pad}, md5((g * 7)::text) || md5((g * 13)::text))
             FROM generate_series({lo}::bigint, {hi}::bigint) g",
            m = super::keys::multiplier(rows)
        ),
    )
}

/// Indexes table `t` by key and refreshes its statistics.
pub fn index(c: &mut Client, url: &str, t: u32) -> Result<(), DbError> {
    mark(c, url, "index", &format!("slob_{t}_id"), "")?;
    exec(
        c,
        url,
        &format!("CREATE INDEX slob_{t}_id ON {SCHEMA}.slob_{t} (id); ANALYZE {SCHEMA}.slob_{t}"),
    )
}

/// Objects in dbio's schema that the marker does not record.
pub fn strangers(c: &mut Client, url: &str) -> Result<Vec<String>, DbError> {
    let rows = c
        .query(
            &format!(
                "SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = $1 AND c.relname <> $2
                   AND c.relname NOT IN (SELECT name FROM {SCHEMA}.{MARKER})
                 UNION ALL
                 SELECT p.proname::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                 WHERE n.nspname = $1
                 UNION ALL
                 SELECT t.typname::text FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
                 WHERE n.nspname = $1 AND t.typrelid = 0 AND t.typcategory <> 'A'"
            ),
            &[&SCHEMA, &MARKER],
        )
        .map_err(e(url))?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Every (kind, name) row of dbio's marker.
pub fn marker_rows(c: &mut Client, url: &str) -> Result<Vec<(String, String)>, DbError> {
    Ok(c.query(
        &format!("SELECT kind, name FROM {SCHEMA}.{MARKER} ORDER BY kind, name"),
        &[],
    )
    .map_err(e(url))?
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect())
}

/// Drops `tables` (names setup makes, checked by the caller, each quoted as libpq quotes an
/// identifier) in dbio's schema, the marker, then the schema (RESTRICT: never anything else).
pub fn drop_all(c: &mut Client, url: &str, tables: &[String]) -> Result<(), DbError> {
    let mut sql = String::new();
    for t in tables {
        sql.push_str(&format!(
            "DROP TABLE IF EXISTS {SCHEMA}.{};",
            postgres_protocol::escape::escape_identifier(t)
        ));
    }
    sql.push_str(&format!(
        "DROP TABLE {SCHEMA}.{MARKER}; DROP SCHEMA {SCHEMA} RESTRICT;"
    ));
    let mut tx = c.transaction().map_err(e(url))?;
    tx.batch_execute(&sql).map_err(e(url))?;
    tx.commit().map_err(e(url))
}

/// pg_stat_database and pg_stat_wal of the connected database.
pub fn counters(c: &mut Client, url: &str) -> Result<Counters, DbError> {
    let r = c
        .query_one(
            "SELECT d.blks_read, d.blk_read_time, d.blks_hit, d.xact_commit,
                    w.wal_write, w.wal_bytes::float8, w.wal_sync, w.wal_write_time + w.wal_sync_time,
                    current_setting('track_io_timing') = 'on',
                    current_setting('track_wal_io_timing') = 'on', w.wal_sync_time
             FROM pg_stat_database d, pg_stat_wal w WHERE d.datname = current_database()",
            &[],
        )
        .map_err(e(url))?;
    let (timing, wal_timing): (bool, bool) = (r.get(8), r.get(9));
    Ok(Counters {
        reads: r.get::<_, i64>(0) as u64,
        read_time_s: timing.then(|| r.get::<_, f64>(1) / 1000.0),
        hits: r.get::<_, i64>(2) as u64,
        commits: r.get::<_, i64>(3) as u64,
        log_writes: r.get::<_, i64>(4) as u64,
        log_bytes: r.get::<_, f64>(5) as u64,
        log_syncs: r.get::<_, i64>(6) as u64,
        log_time_s: wal_timing.then(|| r.get::<_, f64>(7) / 1000.0),
        log_sync_time_s: wal_timing.then(|| r.get::<_, f64>(10) / 1000.0),
        data_writes: 0,
    })
}

/// Every server process of the cluster that pg_stat_activity shows, with the postmaster.
pub fn server_pids(c: &mut Client) -> Vec<u32> {
    let Ok(rows) = c.query(
        "SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL",
        &[],
    ) else {
        return Vec::new();
    };
    let mut pids: Vec<u32> = rows.iter().map(|r| r.get::<_, i32>(0) as u32).collect();
    pids.retain(|p| super::procfs::comm(*p).is_some_and(|c| c.starts_with("postgres")));
    if let Some(parent) = pids.first().and_then(|p| super::procfs::parent(*p)) {
        if super::procfs::comm(parent).is_some_and(|c| c.starts_with("postgres")) {
            pids.push(parent);
        }
    }
    pids
}

/// The file of dbio's first table, under the data directory.
pub fn data_file(c: &mut Client, s: &Server) -> Option<String> {
    let dir = s.data_dir.as_ref()?;
    let r = c
        .query_one(
            &format!("SELECT pg_relation_filepath('{SCHEMA}.slob_1')::text"),
            &[],
        )
        .ok()?;
    Some(format!("{dir}/{}", r.get::<_, String>(0)))
}

/// Bytes of every table and index in dbio's schema.
pub fn data_set_bytes(c: &mut Client, url: &str) -> Result<u64, DbError> {
    let r = c
        .query_one(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'",
            &[&SCHEMA],
        )
        .map_err(e(url))?;
    Ok(r.get::<_, i64>(0) as u64)
}

/// A PostgreSQL session: its connection and prepared statements.
pub struct PgSession {
    c: Client,
    url: String,
    read: Statement,
    update: Statement,
}

impl PgSession {
    /// Connects and prepares the index range scan and the update of table `t`.
    pub fn open(url: &str, t: u32) -> Result<Self, DbError> {
        let mut c = crate::pg::connect(url)?;
        c.batch_execute(
            "SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off",
        )
        .map_err(e(url))?;
        let read = c
            .prepare(&format!(
                "SELECT count(v) FROM {SCHEMA}.slob_{t} WHERE id BETWEEN $1 AND $2"
            ))
            .map_err(e(url))?;
        let update = c
            .prepare(&format!(
                "UPDATE {SCHEMA}.slob_{t} SET v = v + 1 WHERE id BETWEEN $1 AND $2"
            ))
            .map_err(e(url))?;
        Ok(PgSession {
            c,
            url: url.to_string(),
            read,
            update,
        })
    }

    pub fn read(&mut self, lo: i64, hi: i64) -> Result<(), DbError> {
        self.c
            .query_one(&self.read, &[&lo, &hi])
            .map(|_| ())
            .map_err(e(&self.url))
    }

    pub fn update(&mut self, lo: i64, hi: i64) -> Result<(u64, u64), DbError> {
        let t0 = Instant::now();
        let mut tx = self.c.transaction().map_err(e(&self.url))?;
        tx.execute(&self.update, &[&lo, &hi])
            .map_err(e(&self.url))?;
        let t1 = Instant::now();
        tx.commit().map_err(e(&self.url))?;
        Ok(((t1 - t0).as_nanos() as u64, t1.elapsed().as_nanos() as u64))
    }

    /// pg_stat_force_next_flush(): the statistics are flushed before the reply.
    pub fn flush_stats(&mut self) {
        let _ = self.c.batch_execute("SELECT pg_stat_force_next_flush()");
    }
}
