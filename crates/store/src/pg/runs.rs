//! Results in a PostgreSQL store: stored, listed and read back as the SQLite file's are.

use super::sql_error;
use crate::entry::{Entry, Filter, NewEntry};
use crate::error::StoreError;
use postgres::Client;
use std::io::Write;

/// The time now as the SQLite store writes `stored_at`.
const NOW: &str = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

/// Stores `e`, its id.
pub fn add(c: &mut Client, url: &str, e: &NewEntry) -> Result<i64, StoreError> {
    let row = c
        .query_one(
            &format!(
                "INSERT INTO dbio.runs (kind, started_at, stored_at, label, profile, targets, host, iops, mb_s, p99_us, json, summary)
                 VALUES ($1, $2, {NOW}, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id"
            ),
            &[
                &e.kind, &e.started_at, &e.label, &e.profile, &e.targets, &e.host, &e.iops,
                &e.mb_s, &e.p99_us, &e.json, &e.summary,
            ],
        )
        .map_err(sql_error(url))?;
    Ok(row.get(0))
}

/// Stores `e` with the JSON `write` writes, streamed to the server (COPY), never whole in
/// memory; its id.
pub fn add_streamed(
    c: &mut Client,
    url: &str,
    e: &NewEntry,
    write: &dyn Fn(&mut dyn Write) -> std::io::Result<()>,
) -> Result<i64, StoreError> {
    let mut tx = c.transaction().map_err(sql_error(url))?;
    let id: i64 = tx
        .query_one("SELECT nextval('dbio.runs_id_seq')", &[])
        .map_err(sql_error(url))?
        .get(0);
    let stored_at: String = tx
        .query_one(&format!("SELECT {NOW}"), &[])
        .map_err(sql_error(url))?
        .get(0);
    let copy = tx
        .copy_in("COPY dbio.runs (id, kind, started_at, stored_at, label, profile, targets, host, iops, mb_s, p99_us, summary, json) FROM STDIN")
        .map_err(sql_error(url))?;
    let io = |err: std::io::Error| StoreError::Io {
        path: super::shown(url),
        why: format!("cannot write the result's JSON: {err}"),
    };
    let mut w = std::io::BufWriter::with_capacity(64 << 10, copy);
    let fields = [
        Some(id.to_string()),
        Some(e.kind.clone()),
        Some(e.started_at.clone()),
        Some(stored_at),
        e.label.clone(),
        Some(e.profile.clone()),
        Some(e.targets.clone()),
        Some(e.host.clone()),
        Some(e.iops.to_string()),
        Some(e.mb_s.to_string()),
        Some(e.p99_us.to_string()),
        Some(e.summary.clone()),
    ];
    for f in &fields {
        match f {
            Some(v) => super::copy::Escaped(&mut w).write_all(v.as_bytes()),
            None => w.write_all(b"\\N"),
        }
        .and_then(|_| w.write_all(b"\t"))
        .map_err(io)?;
    }
    write(&mut super::copy::Escaped(&mut w)).map_err(io)?;
    w.write_all(b"\n").map_err(io)?;
    let copy = w.into_inner().map_err(|e| io(e.into_error()))?;
    copy.finish().map_err(sql_error(url))?;
    tx.commit().map_err(sql_error(url))?;
    Ok(id)
}

/// The entries matching `f`, newest first.
pub fn list(c: &mut Client, url: &str, f: &Filter) -> Result<Vec<Entry>, StoreError> {
    let limit = f.limit.map_or(i64::MAX, i64::from);
    let rows = c
        .query(
            "SELECT id, kind, started_at, label, profile, targets, host, iops, mb_s, p99_us FROM dbio.runs
             WHERE ($1::text IS NULL OR strpos(targets, $1) > 0)
               AND ($2::text IS NULL OR profile = $2)
               AND ($3::text IS NULL OR started_at >= $3)
               AND ($4::text IS NULL OR label = $4)
             ORDER BY id DESC LIMIT $5",
            &[&f.target, &f.profile, &f.since, &f.label, &limit],
        )
        .map_err(sql_error(url))?;
    Ok(rows
        .iter()
        .map(|r| Entry {
            id: r.get(0),
            kind: r.get(1),
            started_at: r.get(2),
            label: r.get(3),
            profile: r.get(4),
            targets: r.get(5),
            host: r.get(6),
            iops: r.get(7),
            mb_s: r.get(8),
            p99_us: r.get(9),
        })
        .collect())
}

/// The JSON or summary (`column`) of entry `id`.
pub fn text(
    c: &mut Client,
    url: &str,
    column: &str,
    id: i64,
) -> Result<Option<String>, StoreError> {
    let row = c
        .query_opt(
            &format!("SELECT {column} FROM dbio.runs WHERE id = $1"),
            &[&id],
        )
        .map_err(sql_error(url))?;
    Ok(row.map(|r| r.get(0)))
}

/// The id of the newest entry labelled `label`.
pub fn newest_with_label(
    c: &mut Client,
    url: &str,
    label: &str,
) -> Result<Option<i64>, StoreError> {
    let row = c
        .query_one("SELECT max(id) FROM dbio.runs WHERE label = $1", &[&label])
        .map_err(sql_error(url))?;
    Ok(row.get(0))
}

/// Up to `n` existing ids closest to `id`, ascending.
pub fn ids_near(c: &mut Client, url: &str, id: i64, n: u32) -> Result<Vec<i64>, StoreError> {
    let rows = c
        .query(
            "SELECT id FROM dbio.runs ORDER BY abs(id - $1), id LIMIT $2",
            &[&id, &i64::from(n)],
        )
        .map_err(sql_error(url))?;
    let mut ids: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
    ids.sort_unstable();
    Ok(ids)
}
