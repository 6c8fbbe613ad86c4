//! Measured devices: the mean read and write latency of stored dbio runs (or a sweep's
//! steps) by I/O size and read share, so an object's latency on a device is taken at the
//! I/O size and mix the object does.

use crate::error::AnalyzeError;
use dbio_model::RunResult;

/// One measured point of a device.
#[derive(Debug, Clone, PartialEq)]
pub struct DevicePoint {
    /// Mean bytes per I/O of the run.
    pub io_bytes: f64,
    /// Reads / all I/Os (0..1).
    pub read_share: f64,
    pub read_ms: Option<f64>,
    pub write_ms: Option<f64>,
}

/// A device as measured by one or more runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    /// What the user named (run id, label or file).
    pub name: String,
    pub points: Vec<DevicePoint>,
}

impl Device {
    /// The device measured by `runs` (one run, or the steps of a sweep or suite); an error
    /// when none of them did any I/O.
    pub fn from_runs(name: &str, runs: &[&RunResult]) -> Result<Device, AnalyzeError> {
        let points: Vec<DevicePoint> = runs.iter().filter_map(|r| point(r)).collect();
        if points.is_empty() {
            return Err(AnalyzeError::NoIo {
                name: name.to_string(),
            });
        }
        Ok(Device {
            name: name.to_string(),
            points,
        })
    }

    /// Mean latency (ms) for I/Os of `io_bytes` with `read_share` reads: from the point of
    /// nearest I/O size (on a log scale) and mix, its read and write means weighted by the mix.
    pub fn latency_ms(&self, io_bytes: f64, read_share: f64) -> f64 {
        let distance = |p: &DevicePoint| {
            (io_bytes.max(1.0) / p.io_bytes.max(1.0)).log2().abs()
                + 2.0 * (read_share - p.read_share).abs()
        };
        let p = self
            .points
            .iter()
            .min_by(|a, b| distance(a).total_cmp(&distance(b)))
            .expect("a device has points");
        let (r, w) = match (p.read_ms, p.write_ms) {
            (Some(r), Some(w)) => (r, w),
            (Some(r), None) => (r, r),
            (None, Some(w)) => (w, w),
            (None, None) => unreachable!("a point has a latency"),
        };
        read_share * r + (1.0 - read_share) * w
    }
}

/// The point of one run; None when it did no I/O.
fn point(r: &RunResult) -> Option<DevicePoint> {
    let reads = r.read.as_ref().filter(|d| d.ios > 0);
    let writes = r.write.as_ref().filter(|d| d.ios > 0);
    let ios = reads.map_or(0, |d| d.ios) + writes.map_or(0, |d| d.ios);
    if ios == 0 {
        return None;
    }
    let bytes = reads.map_or(0, |d| d.bytes) + writes.map_or(0, |d| d.bytes);
    Some(DevicePoint {
        io_bytes: bytes as f64 / ios as f64,
        read_share: reads.map_or(0, |d| d.ios) as f64 / ios as f64,
        read_ms: reads.map(|d| d.latency_ns.mean / 1e6),
        write_ms: writes.map(|d| d.latency_ns.mean / 1e6),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_size_and_mix() {
        let d = Device {
            name: "x".into(),
            points: vec![
                DevicePoint {
                    io_bytes: 8192.0,
                    read_share: 1.0,
                    read_ms: Some(0.1),
                    write_ms: None,
                },
                DevicePoint {
                    io_bytes: 65536.0,
                    read_share: 0.7,
                    read_ms: Some(0.4),
                    write_ms: Some(1.0),
                },
            ],
        };
        assert!((d.latency_ms(8192.0, 1.0) - 0.1).abs() < 1e-12);
        // 48 KiB at 70 % reads is nearer the 64 KiB point: 0.7 × 0.4 + 0.3 × 1.0.
        assert!((d.latency_ms(49152.0, 0.7) - 0.58).abs() < 1e-12);
    }
}
