//! Collections in the history (`dbio collect`): each sample is stored in its own
//! transaction as it is taken, with the database's last snapshot beside it, so that a
//! collection killed at any moment keeps every sample before and can be resumed.

use crate::error::is_busy;
use crate::sample_codec::{decode, encode};
use crate::{Store, StoreError};
use dbio_model::advise::{ObjectIo, ObjectKind};
use dbio_model::collect::{CollectionInfo, Sample};
use rusqlite::{params, OptionalExtension};
use std::collections::HashMap;
use std::time::Duration;

/// A stored collection.
#[derive(Debug, Clone)]
pub struct Collection {
    pub id: i64,
    pub info: CollectionInfo,
    /// collecting, complete, interrupted, or why it stopped.
    pub state: String,
    /// The database's last snapshot read and its time (the sampler's JSON), to resume from.
    pub base: Option<String>,
    /// Samples stored.
    pub samples: u64,
    /// The end of the last sample, unix ms.
    pub last_ms: Option<u64>,
}

/// A collection being written: its id and its objects' numbers.
pub struct Writer {
    id: i64,
    numbers: HashMap<String, u32>,
}

impl Writer {
    /// The collection's id.
    pub fn id(&self) -> i64 {
        self.id
    }
}

impl Store {
    /// Starts a new collection; an error when one of that name exists.
    pub fn create_collection(&self, info: &CollectionInfo) -> Result<Writer, StoreError> {
        if self.collection(&info.name)?.is_some() {
            return Err(self.io(format!(
                "a collection named {} exists; give another --name, or --resume {} to go on with it",
                info.name, info.name
            )));
        }
        let json = serde_json::to_string(info).expect("an info always serialises");
        self.retry(|| {
            self.conn.execute(
                "INSERT INTO collections (name, info, state, updated_at)
                 VALUES (?1, ?2, 'collecting', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                params![info.name, json],
            )
        })?;
        Ok(Writer {
            id: self.conn.last_insert_rowid(),
            numbers: HashMap::new(),
        })
    }

    /// Goes on writing collection `c` (`--resume`).
    pub fn resume_collection(&self, c: &Collection) -> Result<Writer, StoreError> {
        let numbers = self
            .objects(c.id)?
            .into_iter()
            .map(|(n, o)| (o.name, n))
            .collect();
        self.set_state(c.id, "collecting")?;
        Ok(Writer { id: c.id, numbers })
    }

    /// The collection named `name`.
    pub fn collection(&self, name: &str) -> Result<Option<Collection>, StoreError> {
        self.conn
            .query_row(
                "SELECT c.id, c.info, c.state, CAST(c.base AS TEXT),
                        (SELECT count(*) FROM collection_samples s WHERE s.collection = c.id),
                        (SELECT max(t_ms) FROM collection_samples s WHERE s.collection = c.id)
                 FROM collections c WHERE c.name = ?1",
                [name],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, Option<i64>>(5)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.sql(e))?
            .map(|(id, info, state, base, n, last)| {
                Ok(Collection {
                    id,
                    info: serde_json::from_str(&info)
                        .map_err(|e| self.io(format!("collection {name}: {e}")))?,
                    state,
                    base,
                    samples: n as u64,
                    last_ms: last.map(|t| t as u64),
                })
            })
            .transpose()
    }

    /// Every collection's name, newest first.
    pub fn collection_names(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT name FROM collections ORDER BY id DESC")
            .map_err(|e| self.sql(e))?;
        let names = stmt
            .query_map([], |r| r.get(0))
            .map_err(|e| self.sql(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.sql(e));
        names
    }

    /// Stores one sample and the snapshot to resume from, in one transaction.
    pub fn add_sample(
        &self,
        w: &mut Writer,
        s: &Sample,
        base: Option<&str>,
    ) -> Result<(), StoreError> {
        self.retry(|| {
            let tx = self.conn.unchecked_transaction()?;
            let mut fresh = Vec::new();
            let next = w.numbers.len() as u32;
            let data = encode(s, |o| match w.numbers.get(&o.name) {
                Some(n) => *n,
                None => {
                    let n = next + fresh.len() as u32;
                    fresh.push((n, o.name.clone(), o.kind));
                    n
                }
            });
            for (n, name, kind) in &fresh {
                tx.execute(
                    "INSERT INTO collection_objects (collection, idx, name, kind) VALUES (?1, ?2, ?3, ?4)",
                    params![w.id, n, name, kind.name()],
                )?;
            }
            tx.execute(
                "INSERT OR REPLACE INTO collection_samples (collection, t_ms, secs, data) VALUES (?1, ?2, ?3, ?4)",
                params![w.id, s.t_ms as i64, s.secs, data],
            )?;
            tx.execute(
                "UPDATE collections SET base = coalesce(?2, base), updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
                params![w.id, base],
            )?;
            tx.commit()?;
            w.numbers.extend(fresh.into_iter().map(|(n, name, _)| (name, n)));
            Ok(())
        })
    }

    /// Marks how collection `id` stands: collecting, complete, interrupted, or why it stopped.
    pub fn set_state(&self, id: i64, state: &str) -> Result<(), StoreError> {
        self.retry(|| {
            self.conn.execute(
                "UPDATE collections SET state = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
                params![id, state],
            )
        })
        .map(|_| ())
    }

    /// Calls `each` with every sample of collection `id` in time order, one at a time.
    pub fn each_sample(&self, id: i64, mut each: impl FnMut(Sample)) -> Result<(), StoreError> {
        let objects: HashMap<u32, ObjectIo> = self.objects(id)?.into_iter().collect();
        let mut stmt = self
            .conn
            .prepare(
                "SELECT t_ms, data FROM collection_samples WHERE collection = ?1 ORDER BY t_ms",
            )
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([id]).map_err(|e| self.sql(e))?;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let t: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let bytes: Vec<u8> = r.get(1).map_err(|e| self.sql(e))?;
            let s = decode(&bytes, |n| objects.get(&n).cloned())
                .map_err(|why| self.io(format!("the sample at {t} ms is damaged: {why}")))?;
            each(s);
        }
        Ok(())
    }

    /// The objects of collection `id` by number, with their kinds.
    fn objects(&self, id: i64) -> Result<Vec<(u32, ObjectIo)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT idx, name, kind FROM collection_objects WHERE collection = ?1")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([id], |r| {
                let kind: String = r.get(2)?;
                Ok((
                    r.get(0)?,
                    ObjectIo::new(r.get::<_, String>(1)?, kind_of(&kind)),
                ))
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

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
                Err(e) => return Err(self.sql(e)),
            }
        }
    }

    fn io(&self, why: String) -> StoreError {
        StoreError::Io {
            path: self.path.clone(),
            why,
        }
    }
}

/// The kind stored by its name.
fn kind_of(name: &str) -> ObjectKind {
    match name {
        "data" => ObjectKind::Data,
        "index" => ObjectKind::Index,
        "log" => ObjectKind::Log,
        "temp" => ObjectKind::Temp,
        _ => ObjectKind::Other,
    }
}
