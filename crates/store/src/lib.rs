//! dbio's history: every run and sweep kept whole (its JSON, byte for byte, and the summary
//! as printed) in a SQLite database, with the headline figures beside it for listing.
#![forbid(unsafe_code)]

pub mod collections;
pub mod copy;
mod entry;
mod error;
pub mod files;
pub mod lookup;
pub mod pg;
pub mod run_files;
mod sample_codec;
mod schema;
pub mod since;
mod streamed;

use error::is_busy;
use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use entry::{Entry, Filter, NewEntry};
pub use error::StoreError;
pub use schema::CURRENT_VERSION;

/// An open history: a SQLite file, or a team's PostgreSQL server.
pub struct Store {
    db: Db,
    /// The file, or the server's URL without its password.
    path: PathBuf,
}

/// Where the history lives.
enum Db {
    Lite(Connection),
    /// The server and its URL (with the password, for messages to scrub).
    Pg(Box<std::cell::RefCell<postgres::Client>>, String),
}

/// How long a writer waits for another process holding the database.
const BUSY_WAIT: Duration = Duration::from_secs(30);

impl Store {
    /// The default file: `$XDG_DATA_HOME/dbio/history.db`, else `~/.local/share/dbio/history.db`.
    pub fn default_path() -> Option<PathBuf> {
        let data = std::env::var_os("XDG_DATA_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local").join("share"))
            })?;
        Some(data.join("dbio").join("history.db"))
    }

    /// Opens (creating it and its folder if missing) the history at `path` and brings its
    /// schema up to date. A file that is not a dbio history, or is from a newer dbio, is
    /// refused and never modified.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let io = |why: String| StoreError::Io {
            path: path.to_path_buf(),
            why,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| io(format!("cannot create the folder {}: {e}", dir.display())))?;
        }
        let conn = Connection::open(path).map_err(|e| io(e.to_string()))?;
        conn.busy_timeout(BUSY_WAIT)
            .map_err(|e| io(e.to_string()))?;
        schema::migrate(&conn, path)?;
        Ok(Store {
            db: Db::Lite(conn),
            path: path.to_path_buf(),
        })
    }

    /// Opens the team store at `url` (postgres://…), creating dbio's schema there when
    /// `create` (else None when the server holds none yet: nothing stored).
    pub fn open_url(url: &str, create: bool) -> Result<Option<Store>, StoreError> {
        Ok(pg::open(url, create)?.map(|c| Store {
            db: Db::Pg(Box::new(std::cell::RefCell::new(c)), url.to_string()),
            path: pg::shown(url),
        }))
    }

    /// The SQLite connection (every caller has handled a PostgreSQL store before).
    fn lite(&self) -> &Connection {
        match &self.db {
            Db::Lite(c) => c,
            Db::Pg(..) => unreachable!("a PostgreSQL store is handled before"),
        }
    }

    /// The PostgreSQL server and its URL, when the store is one; a connection the server
    /// closed (it restarted) is opened again first.
    fn pg(&self) -> Option<(std::cell::RefMut<'_, postgres::Client>, &str)> {
        match &self.db {
            Db::Pg(c, url) => {
                let mut client = c.borrow_mut();
                if client.is_closed() {
                    if let Ok(Some(fresh)) = pg::open(url, false) {
                        *client = fresh;
                    }
                }
                Some((client, url))
            }
            Db::Lite(_) => None,
        }
    }

    /// Where this history lives.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn sql(&self, e: rusqlite::Error) -> StoreError {
        StoreError::Sql {
            path: self.path.clone(),
            why: e.to_string(),
        }
    }

    /// Stores one result and returns its id. Another process writing at the same moment
    /// makes this wait (and retry), never fail.
    pub fn add(&self, e: &NewEntry) -> Result<i64, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return pg::runs::add(&mut c, url, e);
        }
        let mut tries = 0;
        loop {
            let r = self.lite().execute(
                "INSERT INTO runs (kind, started_at, stored_at, label, profile, targets, host, iops, mb_s, p99_us, json, summary)
                 VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    e.kind, e.started_at, e.label, e.profile, e.targets, e.host, e.iops, e.mb_s,
                    e.p99_us, e.json, e.summary
                ],
            );
            match r {
                Ok(_) => return Ok(self.lite().last_insert_rowid()),
                Err(err) if is_busy(&err) && tries < 20 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50 * tries));
                }
                Err(err) => return Err(self.sql(err)),
            }
        }
    }

    /// The entries matching `f`, newest first.
    pub fn list(&self, f: &Filter) -> Result<Vec<Entry>, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return pg::runs::list(&mut c, url, f);
        }
        let mut stmt = self
            .lite()
            .prepare(
                "SELECT id, kind, started_at, label, profile, targets, CAST(host AS TEXT), iops, mb_s, p99_us FROM runs
                 WHERE (?1 IS NULL OR instr(targets, ?1) > 0)
                   AND (?2 IS NULL OR profile = ?2)
                   AND (?3 IS NULL OR started_at >= ?3)
                   AND (?4 IS NULL OR label = ?4)
                 ORDER BY id DESC LIMIT ?5",
            )
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map(
                params![
                    f.target,
                    f.profile,
                    f.since,
                    f.label,
                    f.limit.map_or(-1, i64::from)
                ],
                |r| {
                    Ok(Entry {
                        id: r.get(0)?,
                        kind: r.get(1)?,
                        started_at: r.get(2)?,
                        label: r.get(3)?,
                        profile: r.get(4)?,
                        targets: r.get(5)?,
                        host: r.get(6)?,
                        iops: r.get(7)?,
                        mb_s: r.get(8)?,
                        p99_us: r.get(9)?,
                    })
                },
            )
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    /// A text column of entry `id`; a JSON written as a stream is kept as a blob of the
    /// same bytes, and read back the same.
    fn text(&self, column: &str, id: i64) -> Result<Option<String>, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return pg::runs::text(&mut c, url, column, id);
        }
        let bytes = self
            .lite()
            .query_row(
                &format!("SELECT {column} FROM runs WHERE id = ?1"),
                [id],
                |r| match r.get_ref(0)? {
                    ValueRef::Text(t) | ValueRef::Blob(t) => Ok(t.to_vec()),
                    _ => r.get::<_, String>(0).map(String::into_bytes),
                },
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        bytes
            .map(String::from_utf8)
            .transpose()
            .map_err(|e| StoreError::Sql {
                path: self.path.clone(),
                why: format!("entry {id}: its {column} is not text: {e}"),
            })
    }

    /// The JSON of entry `id`, exactly as it was written.
    pub fn json(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.text("json", id)
    }

    /// The summary of entry `id`, exactly as it was printed.
    pub fn summary(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.text("summary", id)
    }

    /// The id of the newest entry labelled `label`.
    pub fn newest_with_label(&self, label: &str) -> Result<Option<i64>, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return pg::runs::newest_with_label(&mut c, url, label);
        }
        self.lite()
            .query_row("SELECT max(id) FROM runs WHERE label = ?1", [label], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))
    }

    /// Up to `n` existing ids closest to `id`, ascending (for "no run N; nearby: …").
    pub fn ids_near(&self, id: i64, n: u32) -> Result<Vec<i64>, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return pg::runs::ids_near(&mut c, url, id, n);
        }
        let mut stmt = self
            .lite()
            .prepare("SELECT id FROM runs ORDER BY abs(id - ?1), id LIMIT ?2")
            .map_err(|e| self.sql(e))?;
        let mut ids: Vec<i64> = stmt
            .query_map(params![id, n], |r| r.get(0))
            .map_err(|e| self.sql(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.sql(e))?;
        ids.sort_unstable();
        Ok(ids)
    }
}
