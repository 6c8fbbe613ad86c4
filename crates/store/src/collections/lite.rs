//! Collections' statements in the SQLite file; a statement another process's lock refused is
//! tried again.

use super::sql::{Row, Sql, Stored};
use crate::error::is_busy;
use crate::{Store, StoreError};
use rusqlite::{params, OptionalExtension};
use std::time::Duration;

/// The SQLite store.
pub struct Lite<'a>(pub &'a Store);

impl Lite<'_> {
    /// `f` done, waiting (and trying again) while another process holds the database.
    fn retry<T>(&self, mut f: impl FnMut() -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let mut tries = 0;
        loop {
            match f() {
                Ok(v) => return Ok(v),
                Err(e) if is_busy(&e) && tries < 20 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50 * tries));
                }
                Err(e) => return Err(self.0.sql(e)),
            }
        }
    }
}

impl Sql for Lite<'_> {
    fn insert(&mut self, name: &str, info: &str) -> Result<i64, StoreError> {
        let c = self.0.lite();
        self.retry(|| {
            c.execute(
                "INSERT INTO collections (name, info, state, updated_at)
                 VALUES (?1, ?2, 'collecting', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                params![name, info],
            )
        })?;
        Ok(c.last_insert_rowid())
    }

    fn row(&mut self, name: &str) -> Result<Option<Row>, StoreError> {
        self.0
            .lite()
            .query_row(
                "SELECT c.id, c.info, c.state, CAST(c.base AS TEXT),
                        (SELECT count(*) FROM collection_samples s WHERE s.collection = c.id),
                        (SELECT max(t_ms) FROM collection_samples s WHERE s.collection = c.id),
                        c.rolled_until
                 FROM collections c WHERE c.name = ?1",
                [name],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.0.sql(e))
    }

    fn names(&mut self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .0
            .lite()
            .prepare("SELECT name FROM collections ORDER BY id DESC")
            .map_err(|e| self.0.sql(e))?;
        let names = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.0.sql(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.0.sql(e));
        names
    }

    fn store(&mut self, id: i64, s: &Stored, base: Option<&str>) -> Result<(), StoreError> {
        let c = self.0.lite();
        self.retry(|| {
            let tx = c.unchecked_transaction()?;
            for (n, name, kind) in s.fresh {
                tx.execute(
                    "INSERT INTO collection_objects (collection, idx, name, kind) VALUES (?1, ?2, ?3, ?4)",
                    params![id, n, name, kind.name()],
                )?;
            }
            tx.execute(
                "INSERT OR REPLACE INTO collection_samples (collection, t_ms, secs, data) VALUES (?1, ?2, ?3, ?4)",
                params![id, s.t_ms, s.secs, s.data],
            )?;
            tx.execute(
                "UPDATE collections SET base = coalesce(?2, base), updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
                params![id, base],
            )?;
            tx.commit()
        })
    }

    fn set(&mut self, id: i64, column: &str, value: &str) -> Result<(), StoreError> {
        let c = self.0.lite();
        let sql = format!(
            "UPDATE collections SET {column} = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1"
        );
        self.retry(|| c.execute(&sql, params![id, value]))
            .map(|_| ())
    }

    fn objects(&mut self, id: i64) -> Result<Vec<(u32, String, String)>, StoreError> {
        let mut stmt = self
            .0
            .lite()
            .prepare("SELECT idx, name, kind FROM collection_objects WHERE collection = ?1")
            .map_err(|e| self.0.sql(e))?;
        let rows = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(|e| self.0.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.0.sql(e))
    }

    fn samples(
        &mut self,
        id: i64,
        after: i64,
        until: i64,
        each: &mut dyn FnMut(i64, Vec<u8>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let sql = |e| self.0.sql(e);
        let mut stmt = self
            .0
            .lite()
            .prepare("SELECT t_ms, data FROM collection_samples WHERE collection = ?1 AND t_ms > ?2 AND t_ms <= ?3 ORDER BY t_ms")
            .map_err(sql)?;
        let mut rows = stmt.query(params![id, after, until]).map_err(sql)?;
        while let Some(r) = rows.next().map_err(sql)? {
            each(r.get(0).map_err(sql)?, r.get(1).map_err(sql)?)?;
        }
        Ok(())
    }

    fn replace(&mut self, id: i64, sums: &[(i64, Stored)], until: i64) -> Result<(), StoreError> {
        let c = self.0.lite();
        self.retry(|| {
            let tx = c.unchecked_transaction()?;
            for (first, s) in sums {
                tx.execute(
                    "DELETE FROM collection_samples WHERE collection = ?1 AND t_ms >= ?2 AND t_ms <= ?3",
                    params![id, first, s.t_ms],
                )?;
                tx.execute(
                    "INSERT INTO collection_samples (collection, t_ms, secs, data) VALUES (?1, ?2, ?3, ?4)",
                    params![id, s.t_ms, s.secs, s.data],
                )?;
            }
            tx.execute(
                "UPDATE collections SET rolled_until = ?2 WHERE id = ?1",
                params![id, until],
            )?;
            tx.commit()
        })
    }
}
