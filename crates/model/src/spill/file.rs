//! A spill file: an unlinked temporary file where what a run has finished with (its seconds'
//! histograms, a sweep's earlier steps) waits until its result is written, so that memory
//! does not grow with the run's length. Whoever makes one hands it to what writes into it;
//! it goes when its last handle does.

use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex};

/// Why what was put in a spill file cannot be had back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpillError {
    /// The file could not be read where the bytes were written.
    #[error("reading back from the temporary spill file: {0}")]
    Read(String),
    /// A second's histogram read back is not text.
    #[error("a second's histogram in the spill file is not text")]
    NotText,
    /// A run read back is not the JSON that was written.
    #[error("reading a spilled run back: {0}")]
    Run(String),
}

/// `len` bytes at `at` in a spill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Span {
    pub at: u64,
    pub len: u32,
}

/// A handle to a spill file; its clones share the file.
#[derive(Clone)]
pub struct Spill(Arc<Inner>);

/// The file and where its next write goes.
struct Inner {
    file: File,
    end: Mutex<u64>,
}

impl Spill {
    /// A new spill file; None when no temporary file can be made (what would go there then
    /// stays in memory).
    pub fn new() -> Option<Spill> {
        tempfile::tempfile().ok().map(|file| {
            Spill(Arc::new(Inner {
                file,
                end: Mutex::new(0),
            }))
        })
    }

    /// Appends `bytes`; None when the write fails or `bytes` is 4 GiB or more (the caller
    /// then keeps them in memory).
    pub(crate) fn put(&self, bytes: &[u8]) -> Option<Span> {
        self.append(|at| at.write_all(bytes))
    }

    /// Appends what `write` writes, through a small buffer (so that a large value is never
    /// whole in memory); None as for [`Spill::put`].
    pub(crate) fn put_with(
        &self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Option<Span> {
        self.append(|at| {
            let mut w = BufWriter::with_capacity(64 << 10, at);
            write(&mut w)?;
            w.flush()
        })
    }

    /// Appends what `write` writes at the end of the file, which it holds meanwhile; the end
    /// moves only when the whole of it was written and is under 4 GiB.
    fn append(&self, write: impl FnOnce(&mut At) -> io::Result<()>) -> Option<Span> {
        let s = &*self.0;
        let mut end = s.end.lock().unwrap_or_else(|e| e.into_inner());
        let mut at = At {
            file: &s.file,
            pos: *end,
        };
        write(&mut at).ok()?;
        let len = u32::try_from(at.pos - *end).ok()?;
        let span = Span { at: *end, len };
        *end = at.pos;
        Some(span)
    }

    /// The same file as `other`'s.
    pub(crate) fn is(&self, other: &Spill) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The bytes `put` kept at `span`.
    pub(crate) fn get(&self, span: Span) -> Result<Vec<u8>, SpillError> {
        let mut buf = vec![0; span.len as usize];
        self.0
            .file
            .read_exact_at(&mut buf, span.at)
            .map_err(|e| SpillError::Read(e.to_string()))?;
        Ok(buf)
    }
}

impl std::fmt::Debug for Spill {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Spill({} bytes)",
            *self.0.end.lock().unwrap_or_else(|e| e.into_inner())
        )
    }
}

/// A writer at a position of a spill file.
struct At<'a> {
    file: &'a File,
    pos: u64,
}

impl Write for At<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write_all_at(buf, self.pos)?;
        self.pos += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
