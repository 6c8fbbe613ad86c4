//! Spill files ([`Spill`]): unlinked temporary files where what a long run or sweep has
//! finished with (seconds' histograms, a sweep's earlier steps) waits until its result is
//! written, so that memory does not grow with the run's length.

pub mod file;
pub mod sweep;

pub use file::{Spill, SpillError};

use crate::histogram::SecondHist;
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
    /// are places in a spill file already, stay where they are (see [`Seconds`]).
    Spilled {
        spill: Spill,
        span: Span,
        seconds: Seconds,
    },
}

/// Where a spilled run's seconds' histograms are found again.
enum Seconds {
    /// Their places, all in the run's spill file, written there too ([`places`]): a sweep's
    /// finished steps then hold no memory per second.
    Listed(Span),
    /// As they were (some not in the run's spill file), one per second.
    Held(Vec<Option<SecondHist>>),
}

/// Bytes a second takes in a [`Seconds::Listed`] list: a tag (0: no histogram, 1: one), the
/// place of its text and its length, little-endian.
const PLACE_LEN: usize = 1 + 8 + 4;

/// The list of the places of `seconds`, all in `spill`; None when one is elsewhere.
fn places(seconds: &[Option<SecondHist>], spill: &Spill) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(seconds.len() * PLACE_LEN);
    for h in seconds {
        match h.as_ref().map(SecondHist::place) {
            None => out.extend_from_slice(&[0; PLACE_LEN]),
            Some(Some((at, span))) if at.is(spill) => {
                out.push(1);
                out.extend_from_slice(&span.at.to_le_bytes());
                out.extend_from_slice(&span.len.to_le_bytes());
            }
            Some(_) => return None,
        }
    }
    Some(out)
}

/// The seconds a list of places made by [`places`] names, in `spill`.
fn from_places(list: &[u8], spill: &Spill) -> Result<Vec<Option<SecondHist>>, SpillError> {
    let bad = || SpillError::Run("a list of seconds read back is damaged".into());
    list.chunks(PLACE_LEN)
        .map(|c| match (c.len(), c[0]) {
            (PLACE_LEN, 0) => Ok(None),
            (PLACE_LEN, 1) => {
                let at = u64::from_le_bytes(c[1..9].try_into().map_err(|_| bad())?);
                let len = u32::from_le_bytes(c[9..].try_into().map_err(|_| bad())?);
                Ok(Some(SecondHist::at(spill, Span { at, len })))
            }
            _ => Err(bad()),
        })
        .collect()
}

impl Seconds {
    /// The seconds of a run spilled to `spill`: listed there when they all are in it.
    fn keep(seconds: Vec<Option<SecondHist>>, spill: &Spill) -> Self {
        match places(&seconds, spill).and_then(|list| spill.put(&list)) {
            Some(span) => Seconds::Listed(span),
            None => Seconds::Held(seconds),
        }
    }

    /// The seconds again, one per point of the run.
    fn get(&self, spill: &Spill) -> Result<Vec<Option<SecondHist>>, SpillError> {
        match self {
            Seconds::Listed(span) => from_places(&spill.get(*span)?, spill),
            Seconds::Held(v) => Ok(v.clone()),
        }
    }
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
            Some(span) => {
                let seconds = Seconds::keep(seconds, &spill);
                SpilledRun(Kept::Spilled {
                    spill,
                    span,
                    seconds,
                })
            }
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
        match self.0 {
            Kept::Memory(r) => Ok(*r),
            Kept::Spilled {
                spill,
                span,
                seconds,
            } => read_back(&spill, span, &seconds),
        }
    }

    /// What `f` makes of the run, read back for it (the spill file is not consumed, so that
    /// the steps of a sweep can be read back one at a time, as often as needed).
    pub fn with<R>(&self, f: impl FnOnce(&RunResult) -> R) -> Result<R, SpillError> {
        match &self.0 {
            Kept::Memory(r) => Ok(f(r)),
            Kept::Spilled {
                spill,
                span,
                seconds,
            } => Ok(f(&read_back(spill, *span, seconds)?)),
        }
    }
}

/// The run kept at `span` of `spill`, its seconds' histograms put back.
fn read_back(spill: &Spill, span: Span, seconds: &Seconds) -> Result<RunResult, SpillError> {
    let mut run: RunResult =
        serde_json::from_slice(&spill.get(span)?).map_err(|e| SpillError::Run(e.to_string()))?;
    for (p, h) in run.timeseries.iter_mut().zip(seconds.get(spill)?) {
        p.hist = h;
    }
    Ok(run)
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
    use crate::result::TimePoint;

    /// The fixture run with `n` seconds, second i's histogram `second(i)`.
    fn run(n: usize, second: impl Fn(usize) -> Option<SecondHist>) -> RunResult {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../../report/tests/fixtures/run.json")).unwrap();
        let p = r.timeseries[0].clone();
        r.timeseries = (0..n)
            .map(|i| TimePoint {
                t: i as f64 + 1.0,
                hist: second(i),
                ..p.clone()
            })
            .collect();
        r
    }

    /// A spilled run loads as it was given, and its spilled seconds come back as places in
    /// the file, not as text in memory.
    #[test]
    fn a_spilled_run_loads_as_it_was() {
        let spill = Spill::new().unwrap();
        let r = run(4, |i| match i {
            0 | 1 => Some(SecondHist::spilled(format!("second {i}"), &spill)),
            2 => Some(SecondHist::new(format!("second {i} in memory"))),
            _ => None,
        });
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

    /// Seconds all in the run's spill file are kept as a list of their places written there
    /// too (a sweep's finished steps hold nothing per second in memory); a second elsewhere
    /// keeps them as they were. Both read back as given.
    #[test]
    fn seconds_all_in_the_run_s_spill_file_are_listed_there() {
        let (spill, other) = (Spill::new().unwrap(), Spill::new().unwrap());
        let all = run(5, |i| {
            (i != 2).then(|| SecondHist::spilled(format!("second {i}"), &spill))
        });
        let kept = SpilledRun::new(all.clone());
        let listed = |k: &SpilledRun| match &k.0 {
            Kept::Spilled { seconds, .. } => Some(matches!(seconds, Seconds::Listed(_))),
            Kept::Memory(_) => None,
        };
        assert_eq!(listed(&kept), Some(true));
        assert_eq!(kept.with(|b| b == &all), Ok(true));
        let back = kept.load().unwrap();
        assert_eq!(back, all);
        assert!(back.timeseries[4].hist.as_ref().unwrap().is_spilled());
        let at = |i: usize| if i == 0 { &spill } else { &other };
        let mixed = run(2, |i| {
            Some(SecondHist::spilled(format!("second {i}"), at(i)))
        });
        let kept = SpilledRun::new(mixed.clone());
        assert_eq!(listed(&kept), Some(false));
        assert_eq!(kept.load().unwrap(), mixed);
    }
}
