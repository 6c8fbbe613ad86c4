//! Latency objectives such as `p99<1ms`, `avg<200us` or `read:p99.9<2ms`, and their value in a run.

use crate::error::AnalyzeError;
use dbio_model::histogram::new_histogram;
use dbio_model::units::parse_latency;
use dbio_model::RunResult;
use hdrhistogram::Histogram;

/// Which latency figure an objective bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stat {
    Mean,
    /// A percentile, e.g. 99.0.
    Pct(f64),
}

/// Which I/Os an objective looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Reads and writes together (their merged histogram).
    All,
    Read,
    Write,
}

/// A latency objective: `stat` of `dir` must stay below `limit_ns`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slo {
    pub dir: Dir,
    pub stat: Stat,
    pub limit_ns: u64,
}

impl Slo {
    /// Parses `[read:|write:](avg|pNN[.N])<DURATION`, e.g. `p99<1ms`, `write:avg<200us`; an
    /// error names the value and why it is not an objective.
    pub fn parse(v: &str) -> Result<Slo, AnalyzeError> {
        let bad = |why: &str| AnalyzeError::Slo {
            value: v.to_string(),
            why: why.to_string(),
        };
        let (dir, rest) = match v.split_once(':') {
            Some(("read", r)) => (Dir::Read, r),
            Some(("write", r)) => (Dir::Write, r),
            Some((d, _)) => return Err(bad(&format!("unknown direction '{d}'"))),
            None => (Dir::All, v),
        };
        let (stat, limit) = rest.split_once('<').ok_or_else(|| bad("no '<'"))?;
        let stat = match stat.trim() {
            "avg" | "mean" => Stat::Mean,
            p if p.starts_with('p') => match p[1..].parse::<f64>() {
                Ok(x) if x > 0.0 && x < 100.0 => Stat::Pct(x),
                _ => return Err(bad("the percentile must be between 0 and 100")),
            },
            _ => return Err(bad("the statistic must be avg or pNN")),
        };
        let d = parse_latency(limit).map_err(|e| bad(&e.why))?;
        if d.is_zero() {
            return Err(bad("the limit must be above zero"));
        }
        Ok(Slo {
            dir,
            stat,
            limit_ns: d.as_nanos() as u64,
        })
    }

    /// The bounded figure in `r`, in ns (None when the run did no I/O of that direction).
    pub fn value(&self, r: &RunResult) -> Option<f64> {
        let h = latency(r, self.dir);
        if h.is_empty() {
            return None;
        }
        Some(match self.stat {
            Stat::Mean => h.mean(),
            Stat::Pct(p) => h.value_at_quantile(p / 100.0) as f64,
        })
    }

    /// True when `r` meets the objective.
    pub fn met_by(&self, r: &RunResult) -> bool {
        self.value(r).is_some_and(|v| v <= self.limit_ns as f64)
    }
}

/// The exact latency histogram of `dir` in `r` (reads and writes merged for `Dir::All`).
pub fn latency(r: &RunResult, dir: Dir) -> Histogram<u64> {
    let dirs = match dir {
        Dir::All => [&r.read, &r.write],
        Dir::Read => [&r.read, &None],
        Dir::Write => [&None, &r.write],
    };
    let mut h = new_histogram();
    for d in dirs.into_iter().flatten() {
        h.add(d.histogram.to_hdr())
            .expect("histograms of equal bounds merge");
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_objectives() {
        assert_eq!(
            Slo::parse("p99<1ms"),
            Ok(Slo {
                dir: Dir::All,
                stat: Stat::Pct(99.0),
                limit_ns: 1_000_000
            })
        );
        assert_eq!(
            Slo::parse("write:avg<200us"),
            Ok(Slo {
                dir: Dir::Write,
                stat: Stat::Mean,
                limit_ns: 200_000
            })
        );
        assert_eq!(Slo::parse("read:p99.9<2ms").unwrap().stat, Stat::Pct(99.9));
        for bad in [
            "p99",
            "p100<1ms",
            "q50<1ms",
            "p99<fast",
            "both:p99<1ms",
            "p99<0ms",
        ] {
            assert!(
                Slo::parse(bad)
                    .unwrap_err()
                    .to_string()
                    .starts_with(&format!("--slo {bad}: ")),
                "{bad}"
            );
        }
    }
}
