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

/// Samples this long before a collection's newest are kept at full resolution; older ones
/// as sums of [`ROLLUP_MS`] (a week at 60 s of 1,000 busy objects stays under 100 MB).
pub const KEEP_FULL_MS: u64 = 24 * 3_600_000;

/// The length of the sums older samples are kept as: 10 minutes (whole hours stay whole).
pub const ROLLUP_MS: u64 = 600_000;

/// A collection being written: its id, its objects' numbers, and up to when its samples
/// are rolled up.
pub struct Writer {
    id: i64,
    numbers: HashMap<String, u32>,
    rolled_until: u64,
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
            rolled_until: 0,
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
        let rolled_until = self
            .conn
            .query_row(
                "SELECT rolled_until FROM collections WHERE id = ?1",
                [c.id],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.sql(e))? as u64;
        Ok(Writer {
            id: c.id,
            numbers,
            rolled_until,
        })
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
        })?;
        let until = s.t_ms.saturating_sub(KEEP_FULL_MS) / ROLLUP_MS * ROLLUP_MS;
        if until > w.rolled_until {
            self.roll_up(w, until)?;
        }
        Ok(())
    }

    /// Rolls the samples of `w` that end after its last roll-up and at or before `until`
    /// into one sample per [`ROLLUP_MS`], in one transaction.
    fn roll_up(&self, w: &mut Writer, until: u64) -> Result<(), StoreError> {
        let objects: HashMap<u32, ObjectIo> = self.objects(w.id)?.into_iter().collect();
        let mut buckets: Vec<(u64, Vec<Sample>)> = Vec::new();
        {
            let mut stmt = self
                .conn
                .prepare("SELECT data FROM collection_samples WHERE collection = ?1 AND t_ms > ?2 AND t_ms <= ?3 ORDER BY t_ms")
                .map_err(|e| self.sql(e))?;
            let mut rows = stmt
                .query(params![w.id, w.rolled_until as i64, until as i64])
                .map_err(|e| self.sql(e))?;
            while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
                let bytes: Vec<u8> = r.get(0).map_err(|e| self.sql(e))?;
                let s = decode(&bytes, |n| objects.get(&n).cloned())
                    .map_err(|why| self.io(format!("a sample is damaged: {why}")))?;
                let bucket = s.t_ms.saturating_sub(1) / ROLLUP_MS;
                match buckets.last_mut() {
                    Some((b, v)) if *b == bucket => v.push(s),
                    _ => buckets.push((bucket, vec![s])),
                }
            }
        }
        let numbers = &w.numbers;
        self.retry(|| {
            let tx = self.conn.unchecked_transaction()?;
            for (_, group) in buckets.iter().filter(|(_, g)| g.len() > 1) {
                let m = dbio_model::collect::merged(group).expect("a bucket has samples");
                let data = encode(&m, |o| numbers[&o.name]);
                let first = group[0].t_ms as i64;
                tx.execute(
                    "DELETE FROM collection_samples WHERE collection = ?1 AND t_ms >= ?2 AND t_ms <= ?3",
                    params![w.id, first, m.t_ms as i64],
                )?;
                tx.execute(
                    "INSERT INTO collection_samples (collection, t_ms, secs, data) VALUES (?1, ?2, ?3, ?4)",
                    params![w.id, m.t_ms as i64, m.secs, data],
                )?;
            }
            tx.execute(
                "UPDATE collections SET rolled_until = ?2 WHERE id = ?1",
                params![w.id, until as i64],
            )?;
            tx.commit()
        })?;
        w.rolled_until = until;
        Ok(())
    }

    /// Keeps the snapshot to resume collection `id` from (with no sample to store beside it).
    pub fn set_base(&self, id: i64, base: &str) -> Result<(), StoreError> {
        self.retry(|| {
            self.conn.execute(
                "UPDATE collections SET base = ?2 WHERE id = ?1",
                params![id, base],
            )
        })
        .map(|_| ())
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

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::collect::{DbIo, DeviceIo};

    fn info() -> CollectionInfo {
        CollectionInfo {
            name: "c".into(),
            system: "postgresql".into(),
            source: "postgres://u@h/db".into(),
            host: "h".into(),
            interval_s: 60.0,
            duration_s: None,
            devices: vec!["sda".into()],
            started_at: "2026-12-01T00:00:00Z".into(),
            from_exports: false,
        }
    }

    /// Sample `i` of a 60 s collection: object a reads i, b reads 1 every other interval.
    fn sample(i: u64) -> Sample {
        let mut a = ObjectIo::new("a", ObjectKind::Data);
        (a.reads, a.size_bytes) = (i, Some(1000 + i));
        let mut objects = vec![a];
        if i.is_multiple_of(2) {
            let mut b = ObjectIo::new("b", ObjectKind::Index);
            b.reads = 1;
            objects.push(b);
        }
        Sample {
            t_ms: 1_796_083_200_000 + i * 60_000,
            secs: 60.0,
            devices: vec![DeviceIo {
                name: "sda".into(),
                reads: i,
                busy_ms: 1000,
                ..Default::default()
            }],
            host_cpu: Some(if i.is_multiple_of(2) { 0.2 } else { 0.4 }),
            server_cpu: None,
            db: Some(DbIo {
                secs: 60.0,
                objects,
                io_wait: None,
                query_ms: 1.0,
            }),
            events: if i == 7 {
                vec!["reset".into()]
            } else {
                Vec::new()
            },
        }
    }

    /// Samples older than a day before the newest become 10-minute sums, with every count,
    /// the time covered and the events kept; the last day stays whole.
    #[test]
    fn older_samples_are_rolled_into_ten_minute_sums() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("h.db")).unwrap();
        let mut w = s.create_collection(&info()).unwrap();
        let n = 26 * 60;
        for i in 1..=n {
            s.add_sample(&mut w, &sample(i), None).unwrap();
        }
        let mut kept = Vec::new();
        s.each_sample(w.id(), |x| kept.push(x)).unwrap();
        // The first 2 hours are 12 sums of 10 samples; the 24 hours after stay whole.
        let rolled = kept.iter().filter(|x| x.secs > 60.0).count();
        assert_eq!(rolled, 12);
        assert_eq!(kept.len() as u64, 12 + (n - 120));
        assert!(kept[..12].iter().all(|x| x.secs == 600.0));
        let reads = |name: &str| -> u64 {
            kept.iter()
                .flat_map(|x| &x.db.as_ref().unwrap().objects)
                .filter(|o| o.name == name)
                .map(|o| o.reads)
                .sum()
        };
        assert_eq!(reads("a"), n * (n + 1) / 2);
        assert_eq!(reads("b"), n / 2);
        let dev: u64 = kept.iter().map(|x| x.devices[0].reads).sum();
        assert_eq!(dev, n * (n + 1) / 2);
        assert!((kept[0].host_cpu.unwrap() - 0.3).abs() < 1e-12);
        assert_eq!(kept[0].events, ["reset"]);
        assert_eq!(
            kept[0].db.as_ref().unwrap().objects[0].size_bytes,
            Some(1010)
        );
        let secs: f64 = kept.iter().map(|x| x.secs).sum();
        assert_eq!(secs, n as f64 * 60.0);
    }
}
