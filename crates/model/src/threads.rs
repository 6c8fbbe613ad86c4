//! Each worker thread's own figures: the per-thread rows of DiskSpd's tables and the
//! `Thread` elements of its XML results are made from them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What one worker thread measured, reads and writes apart.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ThreadStats {
    pub read: ThreadDir,
    pub write: ThreadDir,
}

/// One direction of one thread: its counts and the mean and spread of its latency.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ThreadDir {
    pub ios: u64,
    pub bytes: u64,
    /// Mean latency in nanoseconds (0 without I/O).
    pub mean_ns: f64,
    /// Standard deviation of latency in nanoseconds, of the population (0 without I/O).
    pub stdev_ns: f64,
}

impl ThreadStats {
    /// Reads and writes together: counts added, latency moments combined exactly.
    pub fn total(&self) -> ThreadDir {
        self.read.merged(&self.write)
    }
}

impl ThreadDir {
    /// The figures of both sets of I/O taken as one.
    pub fn merged(&self, other: &ThreadDir) -> ThreadDir {
        match (self.ios, other.ios) {
            (_, 0) => return *self,
            (0, _) => return *other,
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
        }
    }

    #[test]
    fn reads_and_writes_together_are_the_moments_of_all_their_latencies() {
        let reads = [100.0, 200.0, 300.0, 1000.0];
        let writes = [50.0, 5000.0];
        let t = ThreadStats {
            read: dir(&reads, 8192),
            write: dir(&writes, 4096),
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
            read: reads,
            write: ThreadDir::default(),
        };
        assert_eq!(t.total(), reads);
        assert_eq!(ThreadStats::default().total(), ThreadDir::default());
    }
}
