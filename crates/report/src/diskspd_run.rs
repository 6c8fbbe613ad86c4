//! What DiskSpd's text and XML results both say of a dbio run: each thread's row, the
//! targets, whether the threads were a pool over all targets, write-through, and sizes
//! written as DiskSpd writes them.

use dbio_model::histogram::{LatencyHistogram, LatencySummary};
use dbio_model::{DirStats, RunResult, StopAfter, SyncMode, ThreadDir, ThreadStats};

/// One thread's I/O on one target (or on all, named together) as DiskSpd reports it.
pub(crate) struct TargetRow {
    pub thread: usize,
    pub path: String,
    pub file_size: u64,
    pub read: ThreadDir,
    pub write: ThreadDir,
}

impl TargetRow {
    /// Reads and writes together.
    pub fn total(&self) -> ThreadDir {
        self.read.merged(&self.write)
    }
}

/// A run as DiskSpd's layouts see it: the result and the command line as typed.
pub(crate) struct Ran<'a> {
    pub r: &'a RunResult,
    pub typed: &'a [String],
}

impl Ran<'_> {
    /// One row per worker thread; a result without them has one row of its totals.
    pub fn threads(&self) -> Vec<ThreadStats> {
        if !self.r.threads.is_empty() {
            return self.r.threads.clone();
        }
        let dir = |d: Option<&DirStats>| {
            d.map_or_else(ThreadDir::default, |d| ThreadDir {
                ios: d.ios,
                bytes: d.bytes,
                mean_ns: d.latency_ns.mean,
                stdev_ns: stdev_ns(d),
                histogram: None,
            })
        };
        vec![ThreadStats {
            read: dir(self.r.read.as_ref()),
            write: dir(self.r.write.as_ref()),
            ..ThreadStats::default()
        }]
    }

    /// The (thread, target) rows of DiskSpd's tables and XML: a row per target a thread
    /// counted apart, else one naming every target with the thread's totals.
    pub fn rows(&self) -> Vec<TargetRow> {
        let paths = self.paths();
        let size_of = |path: &str| {
            let known = self.r.targets.iter().find(|t| t.path == path);
            known.map_or(0, |t| t.size_bytes)
        };
        let mut rows = Vec::new();
        for (thread, t) in self.threads().into_iter().enumerate() {
            if t.targets.len() == paths.len() && paths.len() > 1 {
                for (path, on) in paths.iter().zip(t.targets) {
                    rows.push(TargetRow {
                        thread,
                        path: path.clone(),
                        file_size: size_of(path),
                        read: on.read,
                        write: on.write,
                    });
                }
            } else {
                rows.push(TargetRow {
                    thread,
                    path: self.path(),
                    file_size: self.file_size(),
                    read: t.read,
                    write: t.write,
                });
            }
        }
        rows
    }

    /// Whether the threads were a pool over all targets (DiskSpd's `-F`): dbio's threads
    /// spread their I/O over every target, so a run of several targets is one.
    pub fn pool(&self) -> bool {
        self.r.job.targets.len() > 1
    }

    /// Whether writes go through the drive's cache: O_DSYNC, or (a read run, where dbio
    /// opens no differently) DiskSpd's `-Sh`, `-Sw` or `-h` as typed to `dbio diskspd`.
    pub fn write_through(&self) -> bool {
        self.r.job.sync == SyncMode::Dsync || typed_write_through(self.typed)
    }

    /// The command line as typed, or what dbio ran when it is not known.
    pub fn command_line(&self) -> String {
        if self.typed.is_empty() {
            format!("dbio run (DiskSpd layout, dbio {})", self.r.dbio_version)
        } else {
            self.typed.join(" ")
        }
    }

    /// The targets' paths as the job names them; a simulated run's one is its device
    /// (`sim:NAME`).
    pub fn paths(&self) -> Vec<String> {
        match (&self.r.job.sim, self.r.job.targets.is_empty()) {
            (Some(dev), true) => vec![format!("sim:{}", dev.name)],
            _ => self.r.job.targets.clone(),
        }
    }

    /// The targets as one path (several joined by ", "), for a thread that did not count
    /// its I/O per target (a result written before dbio did).
    pub fn path(&self) -> String {
        self.paths().join(", ")
    }

    /// Bytes of all targets.
    pub fn file_size(&self) -> u64 {
        self.r.targets.iter().map(|t| t.size_bytes).sum()
    }

    /// Seconds the run was set to measure (what was measured when it stopped by count).
    pub fn duration_secs(&self) -> u64 {
        match self.r.job.stop {
            StopAfter::Seconds(s) => s.round() as u64,
            _ => self.r.measured_secs.round() as u64,
        }
    }

    /// The start of the measured window as DiskSpd writes it: `2026/01/31 12:00:00 UTC`.
    pub fn start_time(&self) -> String {
        let t = self.r.started_at.trim_end_matches('Z');
        format!("{} UTC", t.replace('T', " ").replace('-', "/"))
    }

    /// A per-thread I/O rate limit (DiskSpd's `-g…i` is per thread; dbio's `--rate` is the
    /// job's).
    pub fn iops_per_thread(&self) -> Option<u64> {
        let threads = u64::from(self.r.job.threads.max(1));
        self.r.job.rate.map(|r| r.div_ceil(threads))
    }
}

/// Whether `typed` is a `dbio diskspd` command line asking for write-through.
fn typed_write_through(typed: &[String]) -> bool {
    if typed.get(1).map(String::as_str) != Some("diskspd") {
        return false;
    }
    typed[2..].iter().any(|w| {
        w == "-h"
            || w.strip_prefix("-S")
                .is_some_and(|f| f.chars().any(|c| matches!(c, 'h' | 'w' | 'H' | 'W')))
    })
}

/// Reads and writes together: their histograms merged exactly.
pub(crate) fn merged(r: &RunResult) -> Option<DirStats> {
    let dirs: Vec<&DirStats> = [&r.read, &r.write].into_iter().flatten().collect();
    let first = (*dirs.first()?).clone();
    let mut h = first.histogram.to_hdr();
    let mut out = first;
    for d in &dirs[1..] {
        let _ = h.add(d.histogram.to_hdr());
        out.ios += d.ios;
        out.bytes += d.bytes;
        out.iops += d.iops;
        out.mib_s += d.mib_s;
        out.mb_s += d.mb_s;
    }
    out.histogram = LatencyHistogram::from_hdr(&h);
    out.latency_ns = LatencySummary::of(&h);
    Some(out)
}

/// The standard deviation of a direction's latency in ns, from its histogram.
pub(crate) fn stdev_ns(d: &DirStats) -> f64 {
    let h = d.histogram.to_hdr();
    if h.is_empty() {
        0.0
    } else {
        h.stdev()
    }
}

/// A size as DiskSpd prints it: whole KiB, MiB, GiB or TiB, two decimals when not whole,
/// bytes under 1 KiB.
pub(crate) fn size(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        let one = 1u64 << shift;
        if bytes >= one {
            return if bytes.is_multiple_of(one) {
                format!("{}{unit}", bytes >> shift)
            } else {
                format!("{:.2}{unit}", bytes as f64 / one as f64)
            };
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn sizes_are_written_as_diskspd_writes_them() {
        // DiskSpd's _DisplayFileSize: whole units bare, others with two decimals.
        assert_eq!(size(512), "512");
        assert_eq!(size(8192), "8KiB");
        assert_eq!(size(64 << 10), "64KiB");
        assert_eq!(size(1536), "1.50KiB");
        assert_eq!(size(1 << 30), "1GiB");
        assert_eq!(size(3 << 40), "3TiB");
    }

    #[test]
    fn write_through_is_read_from_diskspd_s_caching_flags_only() {
        for (line, want) in [
            ("dbio diskspd -b8K -r -Sh t.dat", true),
            ("dbio diskspd -b8K -Suw t.dat", true),
            ("dbio diskspd -b8K -h t.dat", true),
            ("dbio diskspd -b8K -Su t.dat", false),
            ("dbio diskspd -b8K t.dat", false),
            ("dbio run -Sh", false),
            ("dbio", false),
        ] {
            assert_eq!(typed_write_through(&words(line)), want, "{line}");
        }
    }
}
