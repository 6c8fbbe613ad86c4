//! The database storage assessment (`dbio suite`): the parts it ran, the thresholds it held
//! them against and the scorecard (schema `schema/suite-result.v1.json`).

use crate::result::RunResult;
use crate::sweep::SweepResult;
use crate::units::UnitError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Identifier and version of the suite-result JSON format.
pub const SUITE_SCHEMA: &str = "dbio.suite/1";

/// One assessment: every part that ran, and the scorecard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SuiteResult {
    /// Always [`SUITE_SCHEMA`].
    pub schema: String,
    pub dbio_version: String,
    /// `--quick`: short steps, sized to finish within 2 minutes.
    pub quick: bool,
    /// The target of each role ("data", "log", "tempdb"); empty for a simulated device.
    pub targets: Vec<RoleTarget>,
    pub thresholds: Thresholds,
    /// `oltp-read` concurrency ramp (queue depth), with its knee under the data-read objective.
    pub oltp_read: Option<SweepResult>,
    /// `oltp` (70 % reads) at the knee's queue depth.
    pub oltp_at_knee: Option<RunResult>,
    /// `log` commit latency with 1, 2, 4 and 8 writers.
    pub log: Option<SweepResult>,
    pub tempdb: Option<RunResult>,
    /// `dss` bandwidth against I/O size.
    pub dss: Option<SweepResult>,
    /// A captured workload (`--profile`, from `dbio capture --profile`) at 1x, 2x and 4x its
    /// rate: the real mix pushed harder than production.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<SweepResult>,
    pub scorecard: Vec<Score>,
    /// True when a part was interrupted or failed.
    pub partial: bool,
}

/// The path a role's I/O went to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoleTarget {
    pub role: String,
    pub path: String,
}

/// What the scorecard holds the parts against (`--thresholds FILE` overrides each).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Thresholds {
    /// Data-file read p99, µs: the knee's objective, and the OLTP run's read limit.
    pub data_read_p99_us: f64,
    /// Data-file write p99 in the OLTP run, µs.
    pub data_write_p99_us: f64,
    /// Log write (commit) p99 with one writer, µs.
    pub log_write_p99_us: f64,
    /// TempDB p99 over reads and writes, µs.
    pub tempdb_p99_us: f64,
    /// Least IOPS the knee must reach.
    pub knee_iops: f64,
    /// Least bandwidth the DSS sweep must reach at its best, MB/s.
    pub dss_mb_s: f64,
}

impl Default for Thresholds {
    /// Defaults for flash storage under a database (documented in `dbio suite --help`).
    fn default() -> Self {
        Thresholds {
            data_read_p99_us: 1000.0,
            data_write_p99_us: 2000.0,
            log_write_p99_us: 1000.0,
            tempdb_p99_us: 2000.0,
            knee_iops: 20_000.0,
            dss_mb_s: 500.0,
        }
    }
}

/// One line of the scorecard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Score {
    /// What is checked, e.g. "log write p99, 1 writer".
    pub check: String,
    /// The measured figure; None when the part did not run (or nothing met the objective).
    pub value: Option<f64>,
    pub unit: String,
    /// The threshold; `at_most` says which side passes.
    pub limit: f64,
    pub at_most: bool,
    /// None when not measured.
    pub pass: Option<bool>,
    /// Plain words: where the figure comes from.
    pub detail: String,
}

/// A thresholds file as written: every key optional, latencies as durations ("1ms").
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThresholdsFile {
    data_read_p99: Option<String>,
    data_write_p99: Option<String>,
    log_write_p99: Option<String>,
    tempdb_p99: Option<String>,
    knee_iops: Option<f64>,
    dss_mb_s: Option<f64>,
}

/// Why a thresholds file could not be read: the file, the line or key, and what to write.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ThresholdsError {
    /// Not TOML, or an unknown key.
    #[error("thresholds {origin}{}: {message}", line.map_or(String::new(), |n| format!(", line {n}")))]
    Toml {
        /// The file as given.
        origin: String,
        /// The line of the mistake, when TOML names one.
        line: Option<usize>,
        /// What TOML says is wrong.
        message: String,
    },
    /// A latency key whose value is not a latency.
    #[error("thresholds {origin}: {key}: {why}")]
    Latency {
        /// The file as given.
        origin: String,
        /// The key.
        key: &'static str,
        /// Why the value is not a latency.
        why: UnitError,
    },
    /// A latency of zero, which can never be met.
    #[error("thresholds {origin}: {key} = \"{value}\": give a latency above zero")]
    ZeroLatency {
        /// The file as given.
        origin: String,
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A figure that is not a finite number above 0.
    #[error("thresholds {origin}: {key} = {value}: give a finite number above 0")]
    NotPositive {
        /// The file as given.
        origin: String,
        /// The key.
        key: &'static str,
        /// The value given.
        value: f64,
    },
}

impl Thresholds {
    /// The defaults overridden by the TOML `text` of file `origin`; an error names the file,
    /// the line and the key.
    pub fn from_toml(text: &str, origin: &str) -> Result<Thresholds, ThresholdsError> {
        let f: ThresholdsFile = toml::from_str(text).map_err(|e| ThresholdsError::Toml {
            origin: origin.to_string(),
            line: e.span().map(|s| text[..s.start].matches('\n').count() + 1),
            message: e.message().trim().to_string(),
        })?;
        let mut t = Thresholds::default();
        let us = |key: &'static str, v: &Option<String>, into: &mut f64| {
            if let Some(v) = v {
                let d = crate::units::parse_latency(v).map_err(|why| ThresholdsError::Latency {
                    origin: origin.to_string(),
                    key,
                    why,
                })?;
                // Zero can never be met.
                if d.is_zero() {
                    return Err(ThresholdsError::ZeroLatency {
                        origin: origin.to_string(),
                        key,
                        value: v.clone(),
                    });
                }
                *into = d.as_secs_f64() * 1e6;
            }
            Ok(())
        };
        us("data_read_p99", &f.data_read_p99, &mut t.data_read_p99_us)?;
        us(
            "data_write_p99",
            &f.data_write_p99,
            &mut t.data_write_p99_us,
        )?;
        us("log_write_p99", &f.log_write_p99, &mut t.log_write_p99_us)?;
        us("tempdb_p99", &f.tempdb_p99, &mut t.tempdb_p99_us)?;
        for (key, v, into) in [
            ("knee_iops", f.knee_iops, &mut t.knee_iops),
            ("dss_mb_s", f.dss_mb_s, &mut t.dss_mb_s),
        ] {
            match v {
                Some(x) if !x.is_finite() || x <= 0.0 => {
                    return Err(ThresholdsError::NotPositive {
                        origin: origin.to_string(),
                        key,
                        value: x,
                    })
                }
                Some(x) => *into = x,
                None => {}
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_file_overrides_defaults_and_names_mistakes() {
        let t = Thresholds::from_toml("log_write_p99 = \"500us\"\nknee_iops = 50000\n", "t.toml")
            .unwrap();
        for (bad, says) in [
            ("data_write_p99 = \"0ms\"", "above zero"),
            ("log_write_p99 = \"1\"", "give a unit"),
            ("tempdb_p99 = \"0us\"", "above zero"),
            ("dss_mb_s = inf", "finite"),
        ] {
            let e = Thresholds::from_toml(bad, "t.toml")
                .unwrap_err()
                .to_string();
            assert!(e.contains("t.toml") && e.contains(says), "{bad}: {e}");
        }
        assert_eq!((t.log_write_p99_us, t.knee_iops), (500.0, 50_000.0));
        assert_eq!(t.data_read_p99_us, Thresholds::default().data_read_p99_us);
        let e = Thresholds::from_toml("knee_iops = 1\nlog_p99 = \"1ms\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("thresholds t.toml, line 2: ") && e.contains("log_p99"),
            "{e}"
        );
        let e = Thresholds::from_toml("tempdb_p99 = \"fast\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("tempdb_p99"), "{e}");
    }
}
