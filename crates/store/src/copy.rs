//! Moving a history between stores (`dbio history --export-to DB`, `--import-from DB`): a
//! SQLite file and a team's PostgreSQL store, either way. Every result the target does not
//! hold yet is copied as stored (its JSON and summary byte for byte; stored anew, with the
//! copy's time), and every collection it does not hold yet, sample by sample: copying twice
//! copies nothing the second time.

use crate::{Entry, Filter, NewEntry, Store, StoreError};

/// What a copy did.
#[derive(Debug, Default, PartialEq)]
pub struct Copied {
    pub results: usize,
    /// Results the target held already (the same start, host, targets and JSON).
    pub held: usize,
    pub collections: usize,
    /// Collections the target held already, by name, left as they were.
    pub skipped: Vec<String>,
}

impl Store {
    /// Copies every result and collection of this history into `to`, oldest first.
    pub fn copy_into(&self, to: &Store) -> Result<Copied, StoreError> {
        let mut done = Copied::default();
        let mut entries = self.list(&Filter::default())?;
        entries.reverse();
        let there = to.list(&Filter::default())?;
        for e in entries {
            let (Some(json), Some(summary)) = (self.json(e.id)?, self.summary(e.id)?) else {
                continue;
            };
            if holds(to, &there, &e, &json)? {
                done.held += 1;
                continue;
            }
            to.add(&NewEntry {
                kind: e.kind,
                started_at: e.started_at,
                label: e.label,
                profile: e.profile,
                targets: e.targets,
                host: e.host,
                iops: e.iops,
                mb_s: e.mb_s,
                p99_us: e.p99_us,
                json,
                summary,
            })?;
            done.results += 1;
        }
        let mut names = self.collection_names()?;
        names.reverse();
        for name in names {
            if to.collection(&name)?.is_some() {
                done.skipped.push(name);
                continue;
            }
            let c = self.collection(&name)?.expect("listed");
            let mut w = to.create_collection(&c.info)?;
            let mut failed = None;
            self.each_sample(c.id, |s| {
                if failed.is_none() {
                    failed = to.add_sample(&mut w, &s, None).err();
                }
            })?;
            if let Some(e) = failed {
                return Err(e);
            }
            if let Some(b) = &c.base {
                to.set_base(w.id(), b)?;
            }
            to.set_state(w.id(), &c.state)?;
            done.collections += 1;
        }
        Ok(done)
    }
}

/// Whether `to`, whose results are `there`, holds `e` already: one of the same kind, start,
/// host and targets whose JSON is `json`.
fn holds(to: &Store, there: &[Entry], e: &Entry, json: &str) -> Result<bool, StoreError> {
    let same = |t: &&Entry| {
        (&t.kind, &t.started_at, &t.host, &t.targets)
            == (&e.kind, &e.started_at, &e.host, &e.targets)
    };
    for t in there.iter().filter(same) {
        if to.json(t.id)?.as_deref() == Some(json) {
            return Ok(true);
        }
    }
    Ok(false)
}
