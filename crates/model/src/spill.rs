//! The process's spill file: an unlinked temporary file where what a long run or sweep has
//! finished with (seconds' histograms, a sweep's earlier steps) waits until its result is
//! written, so that memory does not grow with the run's length.

use crate::histogram::second::Repr;
use crate::histogram::SecondHist;
use crate::result::RunResult;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::sync::{Mutex, OnceLock};

/// `len` bytes at `at` in the spill file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Span {
    pub at: u64,
    pub len: u32,
}

/// The file and where its next write goes; it goes when the process does.
struct Spill {
    file: File,
    end: Mutex<u64>,
}

/// The process's spill file, made on first use; None when no temporary file can be made.
fn spill() -> Option<&'static Spill> {
    static SPILL: OnceLock<Option<Spill>> = OnceLock::new();
    SPILL
        .get_or_init(|| {
            tempfile::tempfile().ok().map(|file| Spill {
                file,
                end: Mutex::new(0),
            })
        })
        .as_ref()
}

/// Appends `bytes` to the spill file; None when there is none, the write fails or `bytes`
/// is 4 GiB or more (the caller then keeps them in memory).
pub(crate) fn put(bytes: &[u8]) -> Option<Span> {
    append(|at| at.write_all(bytes))
}

/// Appends what `write` writes to the spill file, through a small buffer (so that a large
/// value is never whole in memory); None as for [`put`].
pub(crate) fn put_with(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Option<Span> {
    append(|at| {
        let mut w = BufWriter::with_capacity(64 << 10, at);
        write(&mut w)?;
        w.flush()
    })
}

/// Appends what `write` writes at the end of the spill file, which it holds meanwhile; the
/// end moves only when the whole of it was written and is under 4 GiB.
fn append(write: impl FnOnce(&mut At) -> io::Result<()>) -> Option<Span> {
    let s = spill()?;
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

/// A writer at a position of the spill file.
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

/// The bytes `put` kept at `span`.
pub(crate) fn get(span: Span) -> Result<Vec<u8>, String> {
    let s = spill().ok_or("no spill file")?;
    let mut buf = vec![0; span.len as usize];
    s.file
        .read_exact_at(&mut buf, span.at)
        .map_err(|e| format!("reading back from the temporary spill file: {e}"))?;
    Ok(buf)
}

/// A finished run kept in the spill file (a sweep's earlier steps), read back by
/// [`SpilledRun::load`]; in memory when there is no spill file.
pub struct SpilledRun(Kept);

enum Kept {
    Memory(Box<RunResult>),
    Spilled(Span),
}

impl SpilledRun {
    /// Moves `r` to the spill file (or keeps it in memory if it cannot). Its seconds'
    /// histograms, already in the spill file, go as references: their text is not copied.
    pub fn new(mut r: RunResult) -> Self {
        let seconds: Vec<Option<Repr>> = r
            .timeseries
            .iter_mut()
            .map(|p| p.hist.take().map(|h| h.0))
            .collect();
        let json = |w: &mut dyn Write| Ok(serde_json::to_writer(w, &(&r, &seconds))?);
        match put_with(json) {
            Some(span) => SpilledRun(Kept::Spilled(span)),
            None => {
                for (p, h) in r.timeseries.iter_mut().zip(seconds) {
                    p.hist = h.map(SecondHist);
                }
                SpilledRun(Kept::Memory(Box::new(r)))
            }
        }
    }

    /// The run as it was given to [`SpilledRun::new`].
    pub fn load(self) -> Result<RunResult, String> {
        let span = match self.0 {
            Kept::Memory(r) => return Ok(*r),
            Kept::Spilled(span) => span,
        };
        let (mut run, seconds): (RunResult, Vec<Option<Repr>>) =
            serde_json::from_slice(&get(span)?)
                .map_err(|e| format!("reading a spilled run back: {e}"))?;
        for (p, h) in run.timeseries.iter_mut().zip(seconds) {
            p.hist = h.map(SecondHist);
        }
        Ok(run)
    }
}

impl std::fmt::Debug for SpilledRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kept::Memory(_) => write!(f, "SpilledRun(in memory)"),
            Kept::Spilled(s) => write!(f, "SpilledRun({} bytes at {})", s.len, s.at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::TimePoint;

    /// A spilled run loads as it was given, and its spilled seconds come back as places in
    /// the file, not as text in memory.
    #[test]
    fn a_spilled_run_loads_as_it_was() {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../../report/tests/fixtures/run.json")).unwrap();
        let p = r.timeseries[0].clone();
        let second = |i: usize| match i {
            0 | 1 => Some(SecondHist::spilled(format!("second {i}"))),
            2 => Some(SecondHist::new(format!("second {i} in memory"))),
            _ => None,
        };
        r.timeseries = (0..4)
            .map(|i| TimePoint {
                t: i as f64 + 1.0,
                hist: second(i),
                ..p.clone()
            })
            .collect();
        let kept = SpilledRun::new(r.clone());
        assert!(matches!(kept.0, Kept::Spilled(_)), "{kept:?}");
        let back = kept.load().unwrap();
        assert_eq!(back, r);
        let repr = |i: usize| back.timeseries[i].hist.as_ref().map(|h| &h.0);
        assert!(matches!(repr(0), Some(Repr::Spilled(_))));
        assert!(matches!(repr(1), Some(Repr::Spilled(_))));
        assert!(matches!(repr(2), Some(Repr::Text(_))));
        assert!(repr(3).is_none());
    }
}
