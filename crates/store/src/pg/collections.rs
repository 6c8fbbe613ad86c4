//! Collections' statements in a PostgreSQL store.

use super::sql_error;
use crate::collections::sql::{Row, Sql, Stored};
use crate::StoreError;
use postgres::fallible_iterator::FallibleIterator;
use postgres::Client;
use std::cell::RefMut;

/// The time now as the SQLite store writes it.
const NOW: &str = "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')";

/// The PostgreSQL store.
pub struct Pg<'a> {
    pub c: RefMut<'a, Client>,
    pub url: &'a str,
}

impl Sql for Pg<'_> {
    fn insert(&mut self, name: &str, info: &str) -> Result<i64, StoreError> {
        let r = self
            .c
            .query_one(
                &format!("INSERT INTO dbio.collections (name, info, state, updated_at) VALUES ($1, $2, 'collecting', {NOW}) RETURNING id"),
                &[&name, &info],
            )
            .map_err(sql_error(self.url))?;
        Ok(r.get(0))
    }

    fn row(&mut self, name: &str) -> Result<Option<Row>, StoreError> {
        let r = self
            .c
            .query_opt(
                "SELECT c.id, c.info, c.state, c.base,
                        (SELECT count(*) FROM dbio.collection_samples s WHERE s.collection = c.id),
                        (SELECT max(t_ms) FROM dbio.collection_samples s WHERE s.collection = c.id),
                        c.rolled_until
                 FROM dbio.collections c WHERE c.name = $1",
                &[&name],
            )
            .map_err(sql_error(self.url))?;
        Ok(r.map(|r| {
            (
                r.get(0),
                r.get(1),
                r.get(2),
                r.get(3),
                r.get(4),
                r.get(5),
                r.get(6),
            )
        }))
    }

    fn names(&mut self) -> Result<Vec<String>, StoreError> {
        let rows = self
            .c
            .query("SELECT name FROM dbio.collections ORDER BY id DESC", &[])
            .map_err(sql_error(self.url))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn store(&mut self, id: i64, s: &Stored, base: Option<&str>) -> Result<(), StoreError> {
        let url = self.url;
        let mut tx = self.c.transaction().map_err(sql_error(url))?;
        for (n, name, kind) in s.fresh {
            tx.execute(
                "INSERT INTO dbio.collection_objects (collection, idx, name, kind) VALUES ($1, $2, $3, $4)",
                &[&id, &(*n as i32), name, &kind.name()],
            )
            .map_err(sql_error(url))?;
        }
        tx.execute(
            "INSERT INTO dbio.collection_samples (collection, t_ms, secs, data) VALUES ($1, $2, $3, $4)
             ON CONFLICT (collection, t_ms) DO UPDATE SET secs = EXCLUDED.secs, data = EXCLUDED.data",
            &[&id, &s.t_ms, &s.secs, &s.data],
        )
        .map_err(sql_error(url))?;
        tx.execute(
            &format!("UPDATE dbio.collections SET base = coalesce($2, base), updated_at = {NOW} WHERE id = $1"),
            &[&id, &base],
        )
        .map_err(sql_error(url))?;
        tx.commit().map_err(sql_error(url))
    }

    fn set(&mut self, id: i64, column: &str, value: &str) -> Result<(), StoreError> {
        self.c
            .execute(
                &format!(
                    "UPDATE dbio.collections SET {column} = $2, updated_at = {NOW} WHERE id = $1"
                ),
                &[&id, &value],
            )
            .map(|_| ())
            .map_err(sql_error(self.url))
    }

    fn objects(&mut self, id: i64) -> Result<Vec<(u32, String, String)>, StoreError> {
        let rows = self
            .c
            .query(
                "SELECT idx, name, kind FROM dbio.collection_objects WHERE collection = $1",
                &[&id],
            )
            .map_err(sql_error(self.url))?;
        Ok(rows
            .iter()
            .map(|r| (r.get::<_, i32>(0) as u32, r.get(1), r.get(2)))
            .collect())
    }

    fn samples(
        &mut self,
        id: i64,
        after: i64,
        until: i64,
        each: &mut dyn FnMut(i64, Vec<u8>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let url = self.url;
        // Rows as they arrive, never the whole collection in memory.
        let params: [&(dyn postgres::types::ToSql + Sync); 3] = [&id, &after, &until];
        let mut rows = self
            .c
            .query_raw(
                "SELECT t_ms, data FROM dbio.collection_samples WHERE collection = $1 AND t_ms > $2 AND t_ms <= $3 ORDER BY t_ms",
                params,
            )
            .map_err(sql_error(url))?;
        while let Some(r) = rows.next().map_err(sql_error(url))? {
            each(r.get(0), r.get(1))?;
        }
        Ok(())
    }

    fn replace(&mut self, id: i64, sums: &[(i64, Stored)], until: i64) -> Result<(), StoreError> {
        let url = self.url;
        let mut tx = self.c.transaction().map_err(sql_error(url))?;
        for (first, s) in sums {
            tx.execute(
                "DELETE FROM dbio.collection_samples WHERE collection = $1 AND t_ms >= $2 AND t_ms <= $3",
                &[&id, first, &s.t_ms],
            )
            .map_err(sql_error(url))?;
            tx.execute(
                "INSERT INTO dbio.collection_samples (collection, t_ms, secs, data) VALUES ($1, $2, $3, $4)",
                &[&id, &s.t_ms, &s.secs, &s.data],
            )
            .map_err(sql_error(url))?;
        }
        tx.execute(
            "UPDATE dbio.collections SET rolled_until = $2 WHERE id = $1",
            &[&id, &until],
        )
        .map_err(sql_error(url))?;
        tx.commit().map_err(sql_error(url))
    }
}
