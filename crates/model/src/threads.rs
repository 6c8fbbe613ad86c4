//! Each worker thread's own figures: the per-thread rows of DiskSpd's tables and the
//! `Thread` elements of its XML results are made from them, and fio's `jobs[]` entry per
//! clone of a job of `numjobs=N` from their histograms.

use crate::histogram::decode_compact;
use hdrhistogram::Histogram;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What one worker thread measured, reads and writes apart.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ThreadStats {
    pub read: ThreadDir,
    pub write: ThreadDir,
    /// Its fsync/fdatasync calls (`--sync`), when it made any.
    #[serde(default, skip_serializing_if = "ThreadDir::is_empty")]
    pub flush: ThreadDir,
    /// Its reads and writes on each target, in the job's order of targets, when it spread
    /// its I/O over several (DiskSpd's `Target` per target in each `Thread`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<ThreadTarget>,
}

/// One thread's reads and writes on one target: counts and latency moments, no histogram.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ThreadTarget {
    pub read: ThreadDir,
    pub write: ThreadDir,
}

/// Counts, bytes and the sums a latency's mean and spread come from, added I/O by I/O
/// (exact latencies, not a histogram's).
#[derive(Debug, Clone, Copy, Default)]
pub struct Moments {
    ios: u64,
    bytes: u64,
    sum: f64,
    sum_sq: f64,
}

impl Moments {
    /// Adds one I/O of `len` bytes that took `lat_ns`.
    #[inline]
    pub fn add(&mut self, lat_ns: u64, len: u32) {
        let x = lat_ns as f64;
        self.ios += 1;
        self.bytes += u64::from(len);
        self.sum += x;
        self.sum_sq += x * x;
    }

    /// The direction these I/Os make: counts, mean and population deviation.
    pub fn dir(&self) -> ThreadDir {
        if self.ios == 0 {
            return ThreadDir::default();
        }
        let n = self.ios as f64;
        let mean = self.sum / n;
        ThreadDir {
            ios: self.ios,
            bytes: self.bytes,
            mean_ns: mean,
            stdev_ns: (self.sum_sq / n - mean * mean).max(0.0).sqrt(),
            histogram: None,
        }
    }
}

/// One direction of one thread: its counts and the mean and spread of its latency.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ThreadDir {
    pub ios: u64,
    pub bytes: u64,
    /// Mean latency in nanoseconds (0 without I/O).
    pub mean_ns: f64,
    /// Standard deviation of latency in nanoseconds, of the population (0 without I/O).
    pub stdev_ns: f64,
    /// The thread's own latency histogram of this direction, in HdrHistogram's compressed
    /// V2 encoding, base64 (`histogram::encode_compact`, some 8 times smaller than the run's
    /// bucket list): its percentiles, min and max. Absent in a run of one thread (the run's
    /// histogram is the thread's), without I/O, and in results written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histogram: Option<String>,
}

impl ThreadStats {
    /// Reads and writes together: counts added, latency moments combined exactly.
    pub fn total(&self) -> ThreadDir {
        self.read.merged(&self.write)
    }
}

impl ThreadDir {
    /// The thread's own latency histogram, when it kept one that decodes.
    pub fn latency(&self) -> Option<Histogram<u64>> {
        decode_compact(self.histogram.as_deref()?).ok()
    }

    /// No I/O.
    pub fn is_empty(&self) -> bool {
        self.ios == 0
    }

    /// The figures of both sets of I/O taken as one (without a histogram: DiskSpd's totals
    /// need only the counts and moments).
    pub fn merged(&self, other: &ThreadDir) -> ThreadDir {
        match (self.ios, other.ios) {
            (_, 0) => {
                return ThreadDir {
                    histogram: None,
                    ..self.clone()
                }
            }
            (0, _) => {
                return ThreadDir {
                    histogram: None,
                    ..other.clone()
                }
            }
            _ => {}
        }
        let n = self.ios + other.ios;
        let (a, b) = (self.ios as f64, other.ios as f64);
        let mean = (a * self.mean_ns + b * other.mean_ns) / (a + b);
        let square = |d: &ThreadDir| d.stdev_ns * d.stdev_ns + d.mean_ns * d.mean_ns;
        let var = (a * square(self) + b * square(other)) / (a + b) - mean * mean;
        ThreadDir {
            ios: n,
            bytes: self.bytes + other.bytes,
            mean_ns: mean,
            stdev_ns: var.max(0.0).sqrt(),
            histogram: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mean and population deviation of `xs`, computed directly: the oracle.
    fn direct(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        (mean, var.sqrt())
    }

    fn dir(xs: &[f64], size: u64) -> ThreadDir {
        let (mean_ns, stdev_ns) = direct(xs);
        ThreadDir {
            ios: xs.len() as u64,
            bytes: xs.len() as u64 * size,
            mean_ns,
            stdev_ns,
            histogram: None,
        }
    }

    #[test]
    fn reads_and_writes_together_are_the_moments_of_all_their_latencies() {
        let reads = [100.0, 200.0, 300.0, 1000.0];
        let writes = [50.0, 5000.0];
        let t = ThreadStats {
            read: dir(&reads, 8192),
            write: dir(&writes, 4096),
            ..ThreadStats::default()
        };
        let all: Vec<f64> = reads.iter().chain(&writes).copied().collect();
        let (mean, dev) = direct(&all);
        let total = t.total();
        assert_eq!((total.ios, total.bytes), (6, 4 * 8192 + 2 * 4096));
        assert!((total.mean_ns - mean).abs() < 1e-9, "{total:?}");
        assert!(
            (total.stdev_ns - dev).abs() < 1e-6,
            "{total:?} against {dev}"
        );
    }

    #[test]
    fn a_direction_without_io_leaves_the_other_as_it_is() {
        let reads = dir(&[10.0, 30.0], 512);
        let t = ThreadStats {
            read: reads.clone(),
            write: ThreadDir::default(),
            ..ThreadStats::default()
        };
        assert_eq!(t.total(), reads);
        assert_eq!(ThreadStats::default().total(), ThreadDir::default());
    }

    #[test]
    fn moments_added_one_by_one_give_the_direct_mean_and_deviation() {
        let xs = [120.0, 80.0, 4000.0, 95.0, 101.0];
        let mut m = Moments::default();
        for x in xs {
            m.add(x as u64, 8192);
        }
        let (mean, dev) = direct(&xs);
        let d = m.dir();
        assert_eq!((d.ios, d.bytes), (5, 5 * 8192));
        assert!((d.mean_ns - mean).abs() < 1e-9, "{d:?}");
        assert!((d.stdev_ns - dev).abs() < 1e-6, "{d:?} against {dev}");
        assert_eq!(Moments::default().dir(), ThreadDir::default());
    }
}
