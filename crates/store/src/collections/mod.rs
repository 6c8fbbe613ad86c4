//! Collections in the history (`dbio collect`): each sample is stored in its own
//! transaction as it is taken, with the database's last snapshot beside it, so that a
//! collection killed at any moment keeps every sample before and can be resumed. What is
//! stored is the same in a SQLite file and a PostgreSQL store; only the SQL differs
//! ([`Sql`], in `lite.rs` and `pg/collections.rs`).

mod lite;
pub(crate) mod sql;

use sql::{Sql, Stored};

use crate::sample_codec::{decode, encode};
use crate::{Store, StoreError};
use dbio_model::advise::{ObjectIo, ObjectKind};
use dbio_model::collect::{CollectionInfo, Sample};
use std::collections::HashMap;

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
    /// The statements of this store's kind.
    fn statements(&self) -> Box<dyn Sql + '_> {
        match self.pg() {
            Some((c, url)) => Box::new(crate::pg::collections::Pg { c, url }),
            None => Box::new(lite::Lite(self)),
        }
    }

    /// Starts a new collection; an error when one of that name exists.
    pub fn create_collection(&self, info: &CollectionInfo) -> Result<Writer, StoreError> {
        if self.collection(&info.name)?.is_some() {
            return Err(self.io(format!(
                "a collection named {} exists; give another --name, or --resume {} to go on with it",
                info.name, info.name
            )));
        }
        let json = serde_json::to_string(info).expect("an info always serialises");
        Ok(Writer {
            id: self.statements().insert(&info.name, &json)?,
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
        let rolled = self.statements().row(&c.info.name)?.map_or(0, |r| r.6);
        Ok(Writer {
            id: c.id,
            numbers,
            rolled_until: rolled as u64,
        })
    }

    /// The collection named `name`.
    pub fn collection(&self, name: &str) -> Result<Option<Collection>, StoreError> {
        let Some((id, info, state, base, n, last, _)) = self.statements().row(name)? else {
            return Ok(None);
        };
        Ok(Some(Collection {
            id,
            info: serde_json::from_str(&info)
                .map_err(|e| self.io(format!("collection {name}: {e}")))?,
            state,
            base,
            samples: n as u64,
            last_ms: last.map(|t| t as u64),
        }))
    }

    /// Every collection's name, newest first.
    pub fn collection_names(&self) -> Result<Vec<String>, StoreError> {
        self.statements().names()
    }

    /// Stores one sample and the snapshot to resume from, in one transaction; then rolls
    /// samples older than [`KEEP_FULL_MS`] into sums.
    pub fn add_sample(
        &self,
        w: &mut Writer,
        s: &Sample,
        base: Option<&str>,
    ) -> Result<(), StoreError> {
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
        let stored = Stored {
            t_ms: s.t_ms as i64,
            secs: s.secs,
            data,
            fresh: &fresh,
        };
        self.statements().store(w.id, &stored, base)?;
        w.numbers
            .extend(fresh.into_iter().map(|(n, name, _)| (name, n)));
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
        let (after, to) = (w.rolled_until as i64, until as i64);
        self.statements()
            .samples(w.id, after, to, &mut |_, bytes| {
                let s = decode(&bytes, |n| objects.get(&n).cloned())
                    .map_err(|why| self.io(format!("a sample is damaged: {why}")))?;
                let bucket = s.t_ms.saturating_sub(1) / ROLLUP_MS;
                match buckets.last_mut() {
                    Some((b, v)) if *b == bucket => v.push(s),
                    _ => buckets.push((bucket, vec![s])),
                }
                Ok(())
            })?;
        let sums: Vec<(i64, Stored)> = buckets
            .iter()
            .filter(|(_, g)| g.len() > 1)
            .map(|(_, group)| {
                let m = dbio_model::collect::merged(group).expect("a bucket has samples");
                let stored = Stored {
                    t_ms: m.t_ms as i64,
                    secs: m.secs,
                    data: encode(&m, |o| w.numbers[&o.name]),
                    fresh: &[],
                };
                (group[0].t_ms as i64, stored)
            })
            .collect();
        self.statements().replace(w.id, &sums, to)?;
        w.rolled_until = until;
        Ok(())
    }

    /// Keeps the snapshot to resume collection `id` from (with no sample to store beside it).
    pub fn set_base(&self, id: i64, base: &str) -> Result<(), StoreError> {
        self.statements().set(id, "base", base)
    }

    /// Marks how collection `id` stands: collecting, complete, interrupted, or why it stopped.
    pub fn set_state(&self, id: i64, state: &str) -> Result<(), StoreError> {
        self.statements().set(id, "state", state)
    }

    /// Calls `each` with every sample of collection `id` in time order, one at a time.
    pub fn each_sample(&self, id: i64, mut each: impl FnMut(Sample)) -> Result<(), StoreError> {
        let objects: HashMap<u32, ObjectIo> = self.objects(id)?.into_iter().collect();
        self.statements()
            .samples(id, i64::MIN, i64::MAX, &mut |t, bytes| {
                let s = decode(&bytes, |n| objects.get(&n).cloned())
                    .map_err(|why| self.io(format!("the sample at {t} ms is damaged: {why}")))?;
                each(s);
                Ok(())
            })
    }

    /// The objects of collection `id` by number, with their kinds.
    fn objects(&self, id: i64) -> Result<Vec<(u32, ObjectIo)>, StoreError> {
        Ok(self
            .statements()
            .objects(id)?
            .into_iter()
            .map(|(n, name, kind)| (n, ObjectIo::new(name, kind_of(&kind))))
            .collect())
    }

    pub(crate) fn io(&self, why: String) -> StoreError {
        StoreError::Io {
            path: self.path.clone(),
            why,
        }
    }
}

/// The state of a collection this process is writing: it names the process, so that a
/// report can tell one whose dbio was killed (see [`shown_state`]).
pub fn collecting() -> String {
    format!("collecting (pid {} on {})", std::process::id(), hostname())
}

/// How a collection stands as a report says it: one marked as being collected by a dbio
/// of this host that is gone (killed, or the host rebooted) has stopped, and says how to go
/// on; other states as they are.
pub fn shown_state(state: &str, name: &str) -> String {
    let gone = state
        .strip_prefix("collecting (pid ")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(" on "))
        .filter(|(_, host)| *host == hostname())
        .and_then(|(pid, _)| pid.parse::<u32>().ok())
        .filter(|pid| {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            comm.trim() != "dbio"
        });
    match gone {
        Some(pid) => format!(
            "stopped: its dbio (pid {pid}) is gone, killed or rebooted; every sample before is kept: dbio collect --resume {name} goes on"
        ),
        None => state.to_string(),
    }
}

/// This host's name.
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
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
mod tests;
