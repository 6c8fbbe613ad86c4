//! fio's latency, bandwidth and IOPS logs (`write_lat_log`, `write_bw_log`,
//! `write_iops_log` averaged over `log_avg_msec`), written from dbio's per-second series in
//! fio 3.33's layout, `time_ms, value, ddir, bs, prio` a line (bs and prio 0, as fio writes
//! averaged samples), so that `fio2gnuplot`, `fio_generate_plots` and `fiologparser` read
//! them. dbio keeps one point a second, so the window is a whole number of seconds.
//!
//! Values: IOPS as I/Os per second and bandwidth in KiB/s, each the window's mean; latency
//! the window's mean in ns from the seconds' histograms (two significant digits), written
//! as both `_lat` and `_clat` (dbio's latency is fio's total, see [`crate::fio_json`]); no
//! `_slat` log. A run of several streams has one series: its logs are of all streams.

use dbio_model::histogram::decode_compact;
use dbio_model::{DirStats, RunResult, TimePoint};
use std::fmt::Write as _;

/// One of a second's figures.
type Series = fn(&TimePoint) -> f64;

/// A direction a run did: fio's ddir number, its totals, and its IOPS in a second.
type Dir<'a> = (u8, &'a DirStats, Series);

/// A log that could not be made or written: its file and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot write fio's log {path}: {source}")]
pub struct LogError {
    pub path: String,
    pub source: std::io::Error,
}

/// Which logs to write and their window: `lat=NAME,bw=NAME,iops=NAME,avg=MSEC`, each
/// NAME a prefix of fio's (`NAME_bw.1.log`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FioLogs {
    pub lat: Option<String>,
    pub bw: Option<String>,
    pub iops: Option<String>,
    /// fio's log_avg_msec: a multiple of 1000.
    pub avg_ms: u64,
}

impl FioLogs {
    /// Reads `lat=NAME,bw=NAME,iops=NAME[,avg=MSEC]` (at least one log; avg 1000 unless
    /// given); Err says what is wrong and what to give.
    pub fn parse(s: &str) -> Result<FioLogs, String> {
        let mut logs = FioLogs {
            avg_ms: 1000,
            ..FioLogs::default()
        };
        for part in s.split(',') {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            let name = Some(v.to_string()).filter(|v| !v.is_empty());
            match (k, name) {
                ("lat", n @ Some(_)) => logs.lat = n,
                ("bw", n @ Some(_)) => logs.bw = n,
                ("iops", n @ Some(_)) => logs.iops = n,
                ("avg", Some(ms)) => logs.avg_ms = window(&ms)?,
                _ => return Err(format!("'{part}' is not one of lat=NAME, bw=NAME, iops=NAME or avg=MSEC (e.g. bw=db,iops=db,avg=1000)")),
            }
        }
        if logs.lat.is_none() && logs.bw.is_none() && logs.iops.is_none() {
            return Err("name a log to write: lat=NAME, bw=NAME or iops=NAME".into());
        }
        Ok(logs)
    }

    /// The files to write for `r`: each path and its text. Err for a latency log of a run
    /// that both reads and writes (its seconds' latency is of both together).
    pub fn files(&self, r: &RunResult) -> Result<Vec<(String, String)>, String> {
        let dirs: Vec<Dir> = [
            (0, r.read.as_ref(), (|t: &TimePoint| t.read_iops) as Series),
            (1, r.write.as_ref(), |t: &TimePoint| t.write_iops),
        ]
        .into_iter()
        .filter_map(|(d, s, f)| Some((d, s.filter(|s| s.ios > 0)?, f)))
        .collect();
        let windows: Vec<&[TimePoint]> = r.timeseries.chunks(self.seconds()).collect();
        let mut out = Vec::new();
        let line = |rows: &mut String, w: &[TimePoint], value: f64, ddir: u8| {
            let end = w.last().map_or(0.0, |p| p.t);
            let _ = writeln!(
                rows,
                "{}, {}, {ddir}, 0, 0",
                (end * 1000.0).round() as u64,
                value.round() as u64
            );
        };
        if let Some(name) = &self.iops {
            let mut rows = String::new();
            for w in &windows {
                for (d, _, iops) in &dirs {
                    line(&mut rows, w, mean(w, *iops), *d);
                }
            }
            out.push((format!("{name}_iops.1.log"), rows));
        }
        if let Some(name) = &self.bw {
            let mut rows = String::new();
            for w in &windows {
                for (d, s, iops) in &dirs {
                    let per_io = s.bytes as f64 / s.ios as f64;
                    line(&mut rows, w, mean(w, *iops) * per_io / 1024.0, *d);
                }
            }
            out.push((format!("{name}_bw.1.log"), rows));
        }
        if let Some(name) = &self.lat {
            let [(d, _, _)] = dirs[..] else {
                return Err("fio's latency log has a line per direction, and dbio keeps each second's latency of reads and writes together: write_lat_log is for a job that only reads or only writes (bw and iops logs are per direction)".into());
            };
            let mut rows = String::new();
            for w in &windows {
                line(&mut rows, w, mean_ns(w)?, d);
            }
            out.push((format!("{name}_lat.1.log"), rows.clone()));
            out.push((format!("{name}_clat.1.log"), rows));
        }
        Ok(out)
    }

    /// Writes the logs of `r` (see [`FioLogs::files`]); Err names the file and the reason.
    pub fn write(&self, r: &RunResult) -> Result<(), LogError> {
        let log_error = |path: &str, m: String| LogError {
            path: path.to_string(),
            source: std::io::Error::other(m),
        };
        let first = self.lat.iter().chain(&self.bw).chain(&self.iops).next();
        let files = self
            .files(r)
            .map_err(|m| log_error(first.map_or("", String::as_str), m))?;
        for (path, text) in files {
            std::fs::write(&path, text).map_err(|e| log_error(&path, e.to_string()))?;
        }
        Ok(())
    }

    /// Seconds per window.
    fn seconds(&self) -> usize {
        (self.avg_ms / 1000).max(1) as usize
    }
}

/// fio's log_avg_msec as dbio can give it: a whole number of seconds.
fn window(ms: &str) -> Result<u64, String> {
    match ms.parse::<u64>() {
        Ok(n) if n > 0 && n % 1000 == 0 => Ok(n),
        _ => Err(format!("avg={ms}: dbio keeps one point a second, so fio's log_avg_msec must be a multiple of 1000 (1000, 2000, …)")),
    }
}

/// The mean of `of` over the window's seconds.
fn mean(w: &[TimePoint], of: Series) -> f64 {
    w.iter().map(of).sum::<f64>() / w.len().max(1) as f64
}

/// The mean latency in ns of the I/Os completed in the window's seconds.
fn mean_ns(w: &[TimePoint]) -> Result<f64, String> {
    let mut all = dbio_model::histogram::new_histogram();
    for p in w {
        let Some(h) = &p.hist else { continue };
        let text = h
            .text()
            .map_err(|e| format!("a second's histogram cannot be read: {e}"))?;
        let h = decode_compact(&text)
            .map_err(|e| format!("a second's histogram cannot be read: {e}"))?;
        all.add(&h)
            .map_err(|e| format!("a second's histogram cannot be added: {e:?}"))?;
    }
    Ok(if all.is_empty() { 0.0 } else { all.mean() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_and_windows_are_read_and_bad_ones_named() {
        let l = FioLogs::parse("bw=db,iops=db2,avg=2000").unwrap();
        assert_eq!(
            (l.bw.as_deref(), l.iops.as_deref(), l.lat, l.avg_ms),
            (Some("db"), Some("db2"), None, 2000)
        );
        assert_eq!(FioLogs::parse("lat=x").unwrap().avg_ms, 1000);
        let e = FioLogs::parse("bw=a,avg=500").unwrap_err();
        assert!(
            e.starts_with("avg=500: dbio keeps one point a second"),
            "{e}"
        );
        assert!(FioLogs::parse("avg=1000").is_err());
        assert!(FioLogs::parse("slat=x")
            .unwrap_err()
            .starts_with("'slat=x' is not one of"));
    }

    #[test]
    fn windows_average_the_seconds_in_fio_s_columns() {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../tests/fixtures/run.json")).unwrap();
        let p = |t: f64, read_iops: f64, write_iops: f64| TimePoint {
            t,
            read_iops,
            write_iops,
            mb_s: 0.0,
            p99_us: 0.0,
            hist: None,
        };
        r.timeseries = vec![p(1.0, 100.0, 10.0), p(2.0, 300.0, 30.0), p(3.0, 50.0, 0.0)];
        let (rd, wr) = (r.read.clone().unwrap(), r.write.clone().unwrap());
        let logs = FioLogs::parse("iops=x,bw=y,avg=2000").unwrap();
        let files = logs.files(&r).unwrap();
        assert_eq!(
            files[0],
            (
                "x_iops.1.log".to_string(),
                "2000, 200, 0, 0, 0\n2000, 20, 1, 0, 0\n3000, 50, 0, 0, 0\n3000, 0, 1, 0, 0\n"
                    .to_string()
            )
        );
        let kib = |iops: f64, d: &DirStats| {
            (iops * d.bytes as f64 / d.ios as f64 / 1024.0).round() as u64
        };
        let first = files[1].1.lines().next().unwrap();
        assert_eq!(files[1].0, "y_bw.1.log");
        assert_eq!(first, format!("2000, {}, 0, 0, 0", kib(200.0, &rd)));
        assert!(files[1]
            .1
            .contains(&format!("2000, {}, 1, 0, 0", kib(20.0, &wr))));
        // The fixture reads and writes: its seconds' latency is of both, so no lat log.
        assert!(FioLogs::parse("lat=z")
            .unwrap()
            .files(&r)
            .unwrap_err()
            .contains("only reads or only writes"));
    }
}
