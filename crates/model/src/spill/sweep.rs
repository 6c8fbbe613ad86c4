//! A finished sweep whose steps wait in spill files ([`SpilledSweep`]): what its conclusions
//! and history entry need stays in memory, and its JSON is written with one step read back
//! at a time, so that the end of a long sweep does not hold it whole.

use super::{SpillError, SpilledRun};
use crate::result::{DirStats, RunResult};
use crate::sweep::{SweepPoint, SweepResult};
use serde::ser::{Error as _, SerializeSeq};
use serde::{Serialize, Serializer};

/// A finished sweep: its outline in memory, its steps in spill files.
pub struct SpilledSweep {
    /// The sweep (analysed from its whole steps) with each step's outline (see
    /// [`spill_step`]): what the conclusions and `--verify`'s count read.
    pub outline: SweepResult,
    /// The whole steps, in the order of `outline.steps`.
    pub steps: Vec<SpilledRun>,
}

impl SpilledSweep {
    /// The whole sweep, every step read back (for what needs it all at once: the HTML page,
    /// a database sweep's views).
    pub fn whole(&self) -> Result<SweepResult, SpillError> {
        let steps = self
            .steps
            .iter()
            .map(|r| r.with(RunResult::clone))
            .collect::<Result<_, _>>()?;
        let o = &self.outline;
        Ok(SweepResult {
            schema: o.schema.clone(),
            dbio_version: o.dbio_version.clone(),
            vary: o.vary.clone(),
            values: o.values.clone(),
            slo: o.slo.clone(),
            knee: o.knee.clone(),
            saturation: o.saturation.clone(),
            bandwidth_90: o.bandwidth_90.clone(),
            partial: o.partial,
            steps,
        })
    }
}

/// A finished step kept: its outline for memory (the run without its per-second series
/// and its latency histograms' buckets, a few KiB), and the whole run for a spill file.
pub fn spill_step(mut r: RunResult) -> (RunResult, SpilledRun) {
    let series = std::mem::take(&mut r.timeseries);
    let mut outline = r.clone();
    r.timeseries = series;
    let dirs = |read: &mut Option<DirStats>, write: &mut Option<DirStats>, flush: &mut _| {
        for d in [read, write, flush].into_iter().flatten() {
            d.histogram.buckets = Vec::new();
        }
    };
    dirs(&mut outline.read, &mut outline.write, &mut outline.flush);
    for s in &mut outline.streams {
        dirs(&mut s.read, &mut s.write, &mut s.flush);
    }
    (outline, SpilledRun::new(r))
}

/// The fields of [`SweepResult`] in its order, its steps given by `S`: the JSON of a
/// spilled sweep is the JSON of the whole one.
#[derive(Serialize)]
struct Shape<'a, S> {
    schema: &'a str,
    dbio_version: &'a str,
    vary: &'a str,
    values: &'a [String],
    slo: &'a Option<String>,
    knee: &'a Option<SweepPoint>,
    saturation: &'a Option<SweepPoint>,
    bandwidth_90: &'a Option<SweepPoint>,
    partial: bool,
    steps: S,
}

/// The steps, each read back from its spill file while it is serialized.
struct Steps<'a>(&'a [SpilledRun]);

impl Serialize for Steps<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for r in self.0 {
            r.with(|run| seq.serialize_element(run))
                .map_err(S::Error::custom)??;
        }
        seq.end()
    }
}

impl Serialize for SpilledSweep {
    /// As the whole [`SweepResult`] serializes, one step in memory at a time.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = &self.outline;
        Shape {
            schema: &o.schema,
            dbio_version: &o.dbio_version,
            vary: &o.vary,
            values: &o.values,
            slo: &o.slo,
            knee: &o.knee,
            saturation: &o.saturation,
            bandwidth_90: &o.bandwidth_90,
            partial: o.partial,
            steps: Steps(&self.steps),
        }
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::SecondHist;
    use crate::spill::Spill;

    /// A sweep of the committed fixture, its steps' seconds in a spill file.
    fn sweep() -> SweepResult {
        let text = include_str!("../../../report/tests/fixtures/sweep-bs.json");
        let mut s: SweepResult = serde_json::from_str(text).unwrap();
        let spill = Spill::new().unwrap();
        for (i, p) in s
            .steps
            .iter_mut()
            .flat_map(|r| &mut r.timeseries)
            .enumerate()
        {
            p.hist = Some(SecondHist::spilled(format!("second {i}"), &spill));
        }
        s
    }

    /// A spilled sweep serializes, compact or pretty, as the whole sweep does, and reads
    /// back whole as it was.
    #[test]
    fn a_spilled_sweep_is_the_whole_sweep() {
        let s = sweep();
        assert!(s.steps.len() > 1 && !s.steps[0].timeseries.is_empty());
        let (outlines, steps) = s.steps.iter().cloned().map(spill_step).unzip();
        let spilled = SpilledSweep {
            outline: SweepResult {
                steps: outlines,
                ..s.clone()
            },
            steps,
        };
        let o = &spilled.outline.steps[0];
        assert!(o.timeseries.is_empty());
        let buckets = |d: &Option<DirStats>| d.as_ref().map_or(0, |d| d.histogram.buckets.len());
        assert_eq!(buckets(&o.read) + buckets(&o.write), 0);
        assert!(buckets(&s.steps[0].read) > 0);
        assert_eq!(
            serde_json::to_string_pretty(&spilled).unwrap(),
            serde_json::to_string_pretty(&s).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&spilled).unwrap(),
            serde_json::to_string(&s).unwrap()
        );
        assert_eq!(spilled.whole().unwrap(), s);
    }
}
