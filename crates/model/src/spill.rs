//! Spill files ([`Spill`]): unlinked temporary files where what a long run or sweep has
//! finished with (seconds' histograms, a sweep's earlier steps) waits until its result is
//! written, so that memory does not grow with the run's length.

pub mod file;
pub mod sweep;

pub use file::{Spill, SpillError};

use crate::result::RunResult;
use file::Span;
use std::io::Write;

/// A finished run kept in a spill file (a sweep's earlier steps), read back by
/// [`SpilledRun::load`]; in memory when there is no spill file.
pub struct SpilledRun(Kept);

/// Where a [`SpilledRun`] is: in memory, or in a spill file.
enum Kept {
    Memory(Box<RunResult>),
    /// The run without its seconds' histograms, at a place in `spill`; the histograms, which
    /// are places in their own spill file, stay beside it.
    Spilled {
        spill: Spill,
        span: Span,
        seconds: Vec<Option<crate::histogram::SecondHist>>,
    },
}

impl SpilledRun {
    /// Moves `r` to a spill file (the one its seconds' histograms are in, or a new one), or
    /// keeps it in memory if it cannot. Its seconds' histograms, already in a spill file,
    /// stay where they are: their text is not copied.
    pub fn new(mut r: RunResult) -> Self {
        let spill = r
            .timeseries
            .iter()
            .find_map(|p| p.hist.as_ref().and_then(|h| h.spill()))
            .or_else(Spill::new);
        let Some(spill) = spill else {
            return SpilledRun(Kept::Memory(Box::new(r)));
        };
        let seconds: Vec<_> = r.timeseries.iter_mut().map(|p| p.hist.take()).collect();
        let json = |w: &mut dyn Write| Ok(serde_json::to_writer(w, &r)?);
        match spill.put_with(json) {
            Some(span) => SpilledRun(Kept::Spilled {
                spill,
                span,
                seconds,
            }),
            None => {
                for (p, h) in r.timeseries.iter_mut().zip(seconds) {
                    p.hist = h;
                }
                SpilledRun(Kept::Memory(Box::new(r)))
            }
        }
    }

    /// The run as it was given to [`SpilledRun::new`].
    pub fn load(self) -> Result<RunResult, SpillError> {
        let (spill, span, seconds) = match self.0 {
            Kept::Memory(r) => return Ok(*r),
            Kept::Spilled {
                spill,
                span,
                seconds,
            } => (spill, span, seconds),
        };
        let mut run: RunResult = serde_json::from_slice(&spill.get(span)?)
            .map_err(|e| SpillError::Run(e.to_string()))?;
        for (p, h) in run.timeseries.iter_mut().zip(seconds) {
            p.hist = h;
        }
        Ok(run)
    }
}

impl SpilledRun {
    /// What `f` makes of the run, read back for it (the spill file is not consumed, so that
    /// the steps of a sweep can be read back one at a time, as often as needed).
    pub fn with<R>(&self, f: impl FnOnce(&RunResult) -> R) -> Result<R, SpillError> {
        let (spill, span, seconds) = match &self.0 {
            Kept::Memory(r) => return Ok(f(r)),
            Kept::Spilled {
                spill,
                span,
                seconds,
            } => (spill, *span, seconds),
        };
        let mut run: RunResult = serde_json::from_slice(&spill.get(span)?)
            .map_err(|e| SpillError::Run(e.to_string()))?;
        for (p, h) in run.timeseries.iter_mut().zip(seconds) {
            p.hist.clone_from(h);
        }
        Ok(f(&run))
    }
}

impl std::fmt::Debug for SpilledRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kept::Memory(_) => write!(f, "SpilledRun(in memory)"),
            Kept::Spilled { span, .. } => {
                write!(f, "SpilledRun({} bytes at {})", span.len, span.at)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::SecondHist;
    use crate::result::TimePoint;

    /// A spilled run loads as it was given, and its spilled seconds come back as places in
    /// the file, not as text in memory.
    #[test]
    fn a_spilled_run_loads_as_it_was() {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../../report/tests/fixtures/run.json")).unwrap();
        let p = r.timeseries[0].clone();
        let spill = Spill::new().unwrap();
        let second = |i: usize| match i {
            0 | 1 => Some(SecondHist::spilled(format!("second {i}"), &spill)),
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
        assert!(matches!(kept.0, Kept::Spilled { .. }), "{kept:?}");
        assert_eq!(kept.with(|b| b == &r), Ok(true));
        let back = kept.load().unwrap();
        assert_eq!(back, r);
        let spilled = |i: usize| back.timeseries[i].hist.as_ref().map(|h| h.is_spilled());
        assert_eq!(spilled(0), Some(true));
        assert_eq!(spilled(1), Some(true));
        assert_eq!(spilled(2), Some(false));
        assert_eq!(spilled(3), None);
    }
}
