//! Storing a result whose JSON is written as a stream: counted first, then written through
//! SQLite's incremental blob I/O into a blob of that length, so that the history never needs
//! the whole text in memory (a long sweep's JSON is over 100 MiB). Its summary and host are
//! blobs too (see `try_add_streamed`); the history reads all three back as text.

use crate::error::is_busy;
use crate::{NewEntry, Store, StoreError};
use rusqlite::params;
use std::io::{self, BufWriter, Seek, Write};
use std::time::Duration;

/// Why one attempt at storing a streamed entry stopped.
enum Failed {
    Sql(rusqlite::Error),
    /// Writing the JSON failed (reading a spilled step back, or the blob).
    Write(io::Error),
}

impl From<rusqlite::Error> for Failed {
    fn from(e: rusqlite::Error) -> Self {
        Failed::Sql(e)
    }
}

impl Store {
    /// Stores one result whose JSON `write` writes (called twice: once to count its bytes,
    /// once into the history; it must write the same both times), and returns its id; the
    /// entry's own `json` is not used. [`Store::json`] reads it back as the same text.
    /// Another process writing at the same moment makes this wait (and retry), never fail.
    pub fn add_streamed(
        &self,
        e: &NewEntry,
        write: impl Fn(&mut dyn Write) -> io::Result<()>,
    ) -> Result<i64, StoreError> {
        if let Some((mut c, url)) = self.pg() {
            return crate::pg::runs::add_streamed(&mut c, url, e, &write);
        }
        let mut count = Count(0);
        write(&mut count).map_err(|err| self.unwritten(&err))?;
        let mut tries = 0;
        loop {
            match self.try_add_streamed(e, count.0, &write) {
                Ok(id) => return Ok(id),
                Err(Failed::Sql(err)) if is_busy(&err) && tries < 20 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(50 * tries));
                }
                Err(Failed::Sql(err)) => return Err(self.sql(err)),
                Err(Failed::Write(err)) => return Err(self.unwritten(&err)),
            }
        }
    }

    /// One attempt: the row with a zeroed blob of `len` bytes, the JSON written into it, in
    /// one transaction (rolled back on any failure).
    fn try_add_streamed(
        &self,
        e: &NewEntry,
        len: u64,
        write: &dyn Fn(&mut dyn Write) -> io::Result<()>,
    ) -> Result<i64, Failed> {
        let tx = self.lite().unchecked_transaction()?;
        // The columns after `json` in a row (summary, host) are zeroed blobs too: SQLite makes
        // a zeroed blob in memory unless every column after it is one.
        let size = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        tx.execute(
            "INSERT INTO runs (kind, started_at, stored_at, label, profile, targets, iops, mb_s, p99_us, json, summary, host)
             VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?3, ?4, ?5, ?6, ?7, ?8, zeroblob(?9), zeroblob(?10), zeroblob(?11))",
            params![
                e.kind, e.started_at, e.label, e.profile, e.targets, e.iops, e.mb_s, e.p99_us,
                i64::try_from(len).unwrap_or(i64::MAX), size(e.summary.len()), size(e.host.len())
            ],
        )?;
        let id = tx.last_insert_rowid();
        for (column, text) in [("summary", &e.summary), ("host", &e.host)] {
            tx.blob_open("main", "runs", column, id, false)?
                .write_all(text.as_bytes())
                .map_err(Failed::Write)?;
        }
        let blob = tx.blob_open("main", "runs", "json", id, false)?;
        let mut w = BufWriter::with_capacity(64 << 10, blob);
        write(&mut w).map_err(Failed::Write)?;
        let mut blob = w.into_inner().map_err(|e| Failed::Write(e.into_error()))?;
        let written = blob.stream_position().map_err(Failed::Write)?;
        if written != len {
            return Err(Failed::Write(io::Error::other(format!(
                "the JSON was {written} bytes, counted {len}"
            ))));
        }
        drop(blob);
        tx.commit()?;
        Ok(id)
    }

    /// The error of a JSON that could not be written into the history.
    fn unwritten(&self, e: &io::Error) -> StoreError {
        StoreError::Io {
            path: self.path.clone(),
            why: format!("cannot write the result's JSON: {e}"),
        }
    }
}

/// A writer that only counts the bytes.
struct Count(u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> NewEntry {
        NewEntry {
            kind: "sweep".into(),
            started_at: "2026-11-27T05:00:00Z".into(),
            profile: "oltp".into(),
            summary: "said\n".into(),
            host: "db1".into(),
            ..Default::default()
        }
    }

    /// A streamed entry reads back as the text written, as an entry given whole does.
    #[test]
    fn a_streamed_entry_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("h.db")).unwrap();
        let text = "{\n  \"é\": [1, 2]\n}\n".repeat(10_000);
        let id = s
            .add_streamed(&entry(), |w| w.write_all(text.as_bytes()))
            .unwrap();
        assert_eq!(s.json(id).unwrap().as_deref(), Some(text.as_str()));
        assert_eq!(s.summary(id).unwrap().as_deref(), Some("said\n"));
        let whole = s
            .add(&NewEntry {
                json: text.clone(),
                ..entry()
            })
            .unwrap();
        assert_eq!(s.json(whole).unwrap(), s.json(id).unwrap());
        let listed = s.list(&Default::default()).unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0].host, listed[1].host);
        assert_eq!(listed[1].host, "db1");
    }

    /// A JSON that fails half way, or writes other bytes than it counted, stores nothing.
    #[test]
    fn a_failed_stream_stores_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(&dir.path().join("h.db")).unwrap();
        let calls = std::cell::Cell::new(0);
        let e = s
            .add_streamed(&entry(), |w| {
                calls.set(calls.get() + 1);
                w.write_all(b"{}")?;
                if calls.get() > 1 {
                    return Err(io::Error::other("a spilled step is gone"));
                }
                Ok(())
            })
            .unwrap_err();
        assert!(e.to_string().contains("a spilled step is gone"), "{e}");
        let calls = std::cell::Cell::new(0);
        let e = s
            .add_streamed(&entry(), |w| {
                calls.set(calls.get() + 1);
                w.write_all(&b"{}"[..3 - calls.get()])
            })
            .unwrap_err();
        assert!(e.to_string().contains("was 1 bytes, counted 2"), "{e}");
        assert!(s.list(&Default::default()).unwrap().is_empty());
    }
}
