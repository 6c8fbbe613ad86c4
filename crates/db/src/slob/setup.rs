//! `dbio db setup` and `dbio db drop`: dbio's schema made, loaded in parallel and recorded
//! object by object in its marker table; dropped exactly as recorded, never anything else.

use super::facts::{layout_line, Layout, Server, MARKER, SCHEMA};
use super::{maria, pgsql, Conn};
use crate::error::DbError;
use crate::url::redact;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What to set up: one table per session, each of `table_bytes`.
#[derive(Debug, Clone, Copy)]
pub struct SetupOpts {
    pub sessions: u32,
    pub table_bytes: u64,
    /// Tables loaded at once.
    pub parallel: u32,
}

/// Whether dbio's schema is there, and its marker.
fn found(c: &mut Conn, url: &str) -> Result<(bool, bool), DbError> {
    match c {
        Conn::Pg(p) => pgsql::found(p, url),
        Conn::My(m) => maria::found(m, url),
    }
}

/// Refuses a schema of that name that dbio did not make, or one already set up.
fn check_free_name(c: &mut Conn, url: &str) -> Result<(), DbError> {
    let shown = redact(url);
    match found(c, url)? {
        (false, _) => Ok(()),
        (true, false) => Err(DbError::Server {
            url: shown.clone(),
            said: format!(
                "a schema named {SCHEMA} exists and dbio did not make it (it has no {SCHEMA}.{MARKER}); dbio writes nowhere else and will not touch it: rename or drop it yourself"
            ),
        }),
        (true, true) => Err(DbError::Server {
            url: shown.clone(),
            said: format!(
                "dbio's schema {SCHEMA} is already set up ({}); run `dbio db drop --url {shown}` first to set it up anew",
                c.layout(url)?.map_or("layout unknown".into(), layout_line)
            ),
        }),
    }
}

/// Checks that the tables fit the free space under the data directory (when it can be read),
/// leaving what a run keeps free ([`super::procfs::reserve`]).
fn check_space(s: &Server, need: u64, url: &str) -> Result<Option<String>, DbError> {
    let Some((free, size)) = s.data_dir.as_deref().and_then(super::procfs::space) else {
        return Ok(Some(
            "free space not checked: the data directory is not readable from here".into(),
        ));
    };
    let keep = super::procfs::reserve(size);
    if need + keep > free {
        return Err(DbError::Server {
            url: redact(url),
            said: format!(
                "the tables need about {} MiB and {} has {} MiB free, of which a run keeps {} MiB free; give a smaller --size or fewer --sessions",
                need >> 20,
                s.data_dir.as_deref().unwrap_or("?"),
                free >> 20,
                keep >> 20
            ),
        });
    }
    Ok(None)
}

/// Sets up dbio's schema; `progress(done, total)` in bytes as tables load. Returns the layout
/// and notes. A failure after the schema was made says how to drop it.
pub fn setup(
    url: &str,
    o: SetupOpts,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Layout, Vec<String>), DbError> {
    let mut c = Conn::open(url)?;
    let s = c.server(url)?;
    check_free_name(&mut c, url)?;
    let rows = (o.table_bytes / s.row_bytes).max(1024);
    let layout = Layout {
        tables: o.sessions,
        rows,
    };
    let total = o.sessions as u64 * rows * s.row_bytes;
    let notes: Vec<String> = check_space(&s, total + total / 5, url)?
        .into_iter()
        .collect();
    let made = |e: DbError| DbError::Unfinished {
        source: Box::new(e),
        record: format!("{SCHEMA}.{MARKER}"),
        url: redact(url),
    };
    match &mut c {
        Conn::Pg(p) => pgsql::create_schema(p, url),
        Conn::My(m) => maria::create_schema(m, url),
    }?;
    let mark = |c: &mut Conn, kind: &str, name: &str, detail: &str| match c {
        Conn::Pg(p) => pgsql::mark(p, url, kind, name, detail),
        Conn::My(m) => maria::mark(m, url, kind, name, detail),
    };
    mark(&mut c, "schema", SCHEMA, &s.version).map_err(made)?;
    mark(&mut c, "layout", "layout", &layout_line(layout)).map_err(made)?;
    for t in 1..=o.sessions {
        match &mut c {
            Conn::Pg(p) => pgsql::create_table(p, url, t),
            Conn::My(m) => maria::create_table(m, url, t, s.block_size),
        }
        .map_err(made)?;
    }
    load_all(url, &s, layout, o.parallel, stop, progress, total).map_err(made)?;
    Ok((layout, notes))
}

/// Loads every table, `parallel` at a time, each then indexed.
fn load_all(
    url: &str,
    s: &Server,
    l: Layout,
    parallel: u32,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
    total: u64,
) -> Result<(), DbError> {
    let next = AtomicU64::new(1);
    let done = AtomicU64::new(0);
    let failed: Mutex<Option<DbError>> = Mutex::new(None);
    let quit = AtomicBool::new(false);
    let chunk: u64 = if s.system == crate::url::System::Postgres {
        4000
    } else {
        900
    };
    let workers = parallel.clamp(1, l.tables) as u64;
    let exited = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let r = load_worker(url, s, l, chunk, &next, &done, &quit, stop);
                if let Err(e) = r {
                    quit.store(true, Ordering::Relaxed);
                    failed.lock().expect("not poisoned").get_or_insert(e);
                }
                exited.fetch_add(1, Ordering::Relaxed);
            });
        }
        while exited.load(Ordering::Relaxed) < workers {
            std::thread::sleep(Duration::from_millis(200));
            progress(done.load(Ordering::Relaxed) * s.row_bytes, total);
        }
    });
    if let Some(e) = failed.into_inner().expect("not poisoned") {
        return Err(e);
    }
    if stop.load(Ordering::Relaxed) {
        return Err(DbError::Interrupted);
    }
    progress(total, total);
    Ok(())
}

/// One loader: takes tables until none is left, loads and indexes each.
#[allow(clippy::too_many_arguments)]
fn load_worker(
    url: &str,
    s: &Server,
    l: Layout,
    chunk: u64,
    next: &AtomicU64,
    done: &AtomicU64,
    quit: &AtomicBool,
    stop: &AtomicBool,
) -> Result<(), DbError> {
    let mut c = Conn::open(url)?;
    {
        loop {
            let t = next.fetch_add(1, Ordering::Relaxed);
            if t > l.tables as u64 {
                return Ok(());
            }
            let t = t as u32;
            let mut lo = 1;
            while lo <= l.rows {
                if stop.load(Ordering::Relaxed) || quit.load(Ordering::Relaxed) {
                    return Err(DbError::Interrupted);
                }
                let hi = (lo + chunk - 1).min(l.rows);
                match &mut c {
                    Conn::Pg(p) => pgsql::load(p, url, t, lo, hi, l.rows, s.block_size),
                    Conn::My(m) => maria::load(m, url, t, lo, hi, l.rows, s.block_size),
                }?;
                done.fetch_add(hi - lo + 1, Ordering::Relaxed);
                lo = hi + 1;
            }
            match &mut c {
                Conn::Pg(p) => pgsql::index(p, url, t),
                Conn::My(m) => maria::index(m, url, t),
            }?;
        }
    }
}

/// Drops dbio's schema: the recorded tables, the marker, the schema. Refuses a schema dbio
/// did not make, or one holding anything dbio did not record. Ok(None): nothing to drop.
pub fn drop(url: &str) -> Result<Option<Vec<String>>, DbError> {
    let mut c = Conn::open(url)?;
    let shown = redact(url);
    match found(&mut c, url)? {
        (false, _) => return Ok(None),
        (true, false) => {
            return Err(DbError::Server {
                url: shown.clone(),
                said: format!(
                    "the schema {SCHEMA} has no {SCHEMA}.{MARKER}, so dbio did not make it; dbio drops only what it made: drop it yourself if it is yours"
                ),
            })
        }
        _ => {}
    }
    let rows = match &mut c {
        Conn::Pg(p) => pgsql::marker_rows(p, url),
        Conn::My(m) => maria::marker_rows(m, url),
    }?;
    let tables = made_tables(&rows).map_err(|odd| {
        DbError::Server {
            url: shown.clone(),
            said: format!(
                "{SCHEMA}.{MARKER} records names dbio never makes ({}); it was altered, so dbio drops nothing: delete those rows or drop {SCHEMA} yourself",
                odd.join(", ")
            ),
        }
    })?;
    let strangers = match &mut c {
        Conn::Pg(p) => pgsql::strangers(p, url),
        Conn::My(m) => maria::strangers(m, url),
    }?;
    if !strangers.is_empty() {
        return Err(DbError::Server {
            url: shown.clone(),
            said: format!(
                "{SCHEMA} holds objects dbio did not make ({}); dbio will not drop them: move or drop them yourself, then run dbio db drop again",
                strangers.join(", ")
            ),
        });
    }
    match &mut c {
        Conn::Pg(p) => pgsql::drop_all(p, url, &tables),
        Conn::My(m) => maria::drop_all(m, url, &tables),
    }?;
    Ok(Some(tables))
}

/// Whether `kind`/`name` is a row setup writes: the schema, the layout, a table `slob_N` or
/// its index `slob_N_id`.
fn made_by_setup(kind: &str, name: &str) -> bool {
    let numbered = |s: &str| {
        s.strip_prefix("slob_").is_some_and(|n| {
            !n.is_empty()
                && !n.starts_with('0')
                && n.len() <= 4
                && n.bytes().all(|b| b.is_ascii_digit())
        })
    };
    match kind {
        "schema" => name == SCHEMA,
        "layout" => name == "layout",
        "table" => numbered(name),
        "index" => name.strip_suffix("_id").is_some_and(numbered),
        _ => false,
    }
}

/// The tables the marker records, when every row is one setup writes; else the rows that
/// are not, shown quoted.
fn made_tables(rows: &[(String, String)]) -> Result<Vec<String>, Vec<String>> {
    let odd: Vec<String> = rows
        .iter()
        .filter(|(k, n)| !made_by_setup(k, n))
        .map(|(k, n)| format!("{k} {n:?}"))
        .collect();
    if !odd.is_empty() {
        return Err(odd);
    }
    let mut tables: Vec<String> = rows
        .iter()
        .filter(|(k, _)| k == "table")
        .map(|(_, n)| n.clone())
        .collect();
    tables.sort_by_key(|n| n[5..].parse::<u32>().unwrap_or(0));
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trip() {
        let l = Layout {
            tables: 4,
            rows: 12800,
        };
        assert_eq!(crate::slob::facts::parse_layout(&layout_line(l)), Some(l));
        assert_eq!(crate::slob::facts::parse_layout("tables=x"), None);
    }

    #[test]
    fn only_names_setup_makes_are_dropped() {
        let row = |k: &str, n: &str| (k.to_string(), n.to_string());
        let good = vec![
            row("schema", "dbio_slob"),
            row("layout", "layout"),
            row("table", "slob_2"),
            row("table", "slob_10"),
            row("index", "slob_2_id"),
        ];
        assert_eq!(
            made_tables(&good),
            Ok(vec!["slob_2".into(), "slob_10".into()])
        );
        for (k, n) in [
            ("table", "x\"; drop table public.victim2; --"),
            ("table", "slob_1\", public.\"victim1"),
            ("table", "victim1"),
            ("table", "slob_"),
            ("index", "slob_1"),
            ("view", "slob_1"),
        ] {
            let mut rows = good.clone();
            rows.push(row(k, n));
            assert!(made_tables(&rows).is_err(), "{k} {n}");
        }
    }
}
