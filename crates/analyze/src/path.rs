//! The I/O path model's arithmetic: each hop's built-in ceiling (reference.md's figures),
//! its ceiling for a workload's I/O size and read/write mix, the weakest hop, and a
//! measured run held against the path.

use crate::ceiling::gb;
pub use crate::ceiling::{builtin, Ceiling};
use dbio_model::path::*;
use dbio_model::RunResult;

/// One instance's ceiling with the hop's given figures over the built-in ones.
pub fn ceiling(h: &Hop) -> Ceiling {
    let mut c = builtin(&h.kind);
    if let Some(b) = h.bandwidth {
        c.bw = Some(b);
        c.basis = format!("{} given", gb(b));
    }
    (c.read_bw, c.write_bw) = (h.read_bandwidth, h.write_bandwidth);
    if h.read_bandwidth.is_some() || h.write_bandwidth.is_some() {
        let side = |b: Option<f64>, what: &str| b.map(|b| format!("{what} {}", gb(b)));
        let given: Vec<String> = [
            side(h.read_bandwidth, "reads"),
            side(h.write_bandwidth, "writes"),
        ]
        .into_iter()
        .flatten()
        .collect();
        c.basis = format!("{} given", given.join(", "));
    }
    if let Some(i) = h.iops {
        (c.read_iops, c.write_iops) = (Some(i), Some(i));
    }
    if h.read_iops.is_some() {
        c.read_iops = h.read_iops;
    }
    if h.write_iops.is_some() {
        c.write_iops = h.write_iops;
    }
    c
}

/// All instances of a hop at a workload: (IOPS, bytes/s), each None when unknown.
pub fn at(h: &Hop, io_size: u64, read_pct: u8) -> (Option<f64>, Option<f64>) {
    let c = ceiling(h);
    let r = read_pct as f64 / 100.0;
    let n = h.count as f64;
    // Full duplex: reads and writes travel in their own directions; the busier one binds.
    let link =
        c.bw.map(|b| if c.full_duplex { b / r.max(1.0 - r) } else { b });
    // A device with read and write bandwidths shares its time between them.
    let device = by_share(c.read_bw, c.write_bw, r);
    let bw = match (link, device) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
    .map(|b| b * n);
    let own = by_share(c.read_iops, c.write_iops, r).map(|i| i * n);
    let from_bw = bw.map(|b| b / io_size as f64);
    let iops = match (own, from_bw) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    (iops, iops.map(|i| i * io_size as f64))
}

/// The ceiling of a workload with read share `r` on a hop that serves reads at `read` and
/// writes at `write` (IOPS or bytes/s) and shares its time between them. A direction with
/// no figure sets no limit: a read ceiling alone caps the reads, so the whole at read / r.
fn by_share(read: Option<f64>, write: Option<f64>, r: f64) -> Option<f64> {
    match (read, write) {
        (Some(rd), Some(wr)) => Some(1.0 / (r / rd + (1.0 - r) / wr)),
        (Some(rd), None) => (r > 0.0).then(|| rd / r),
        (None, Some(wr)) => (r < 1.0).then(|| wr / (1.0 - r)),
        (None, None) => None,
    }
}

/// The weakest hop at a workload: its index and IOPS ceiling.
fn weakest(t: &Topology, io_size: u64, read_pct: u8) -> Option<(usize, f64)> {
    t.hops
        .iter()
        .enumerate()
        .filter_map(|(i, h)| at(h, io_size, read_pct).0.map(|x| (i, x)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The path held against its workload, and against `sizes` too.
pub fn analyse(t: &Topology, sizes: &[u64]) -> PathResult {
    let w = t.workload;
    let weak = weakest(t, w.io_size, w.read_pct);
    let hops = t
        .hops
        .iter()
        .map(|h| {
            let (iops, bps) = at(h, w.io_size, w.read_pct);
            let c = ceiling(h);
            let basis = if iops.is_none() {
                "no ceiling known".to_string()
            } else if h.count > 1 {
                format!("{} × {}", h.count, c.basis)
            } else {
                c.basis
            };
            HopCeiling {
                name: h.name.clone(),
                kind: h.kind.name().into(),
                count: h.count,
                mb_s: bps.map(|b| b / 1e6),
                iops,
                headroom_pct: iops.zip(weak).map(|(i, (_, wk))| (i / wk - 1.0) * 100.0),
                basis,
            }
        })
        .collect();
    let by_io_size = sizes
        .iter()
        .map(|&s| {
            let wk = weakest(t, s, w.read_pct);
            SizeCeiling {
                io_size: s,
                weakest: wk.map(|(i, _)| t.hops[i].name.clone()),
                iops: wk.map(|(_, x)| x),
                mb_s: wk.map(|(_, x)| x * s as f64 / 1e6),
            }
        })
        .collect();
    let lat: Vec<f64> = t.hops.iter().filter_map(|h| h.latency_us).collect();
    PathResult {
        schema: PATH_SCHEMA.into(),
        workload: w,
        hops,
        weakest: weak.map(|(i, _)| t.hops[i].name.clone()),
        by_io_size,
        path_latency_us: (!lat.is_empty()).then(|| lat.iter().sum()),
        run: None,
    }
}

/// A hop at or above this share of its ceiling is what limited the run.
pub const LIMIT_SHARE: f64 = 90.0;

/// Holds a measured run against the path: every hop's share of its ceiling at the run's own
/// mean I/O size and read share, and the verdict with its evidence.
pub fn hold(t: &Topology, r: &RunResult) -> RunCheck {
    let (ios, bytes) = (r.total_ios(), r.total_bytes());
    let (iops, mb_s) = (r.total_iops(), r.total_mb_s());
    // The run's own mean I/O size and read share (the topology's workload if it did none).
    let size = bytes.checked_div(ios).unwrap_or(t.workload.io_size).max(1);
    let reads = r.read.as_ref().map_or(0, |d| d.ios);
    let read_pct = (reads * 100)
        .checked_div(ios)
        .map_or(t.workload.read_pct, |p| p as u8);
    let shares: Vec<HopShare> = t
        .hops
        .iter()
        .map(|h| HopShare {
            name: h.name.clone(),
            pct: at(h, size, read_pct).0.map(|c| iops / c * 100.0),
        })
        .collect();
    let busiest = shares
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.pct.map(|p| (i, p)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let verdict = match busiest {
        Some((i, p)) if p >= LIMIT_SHARE => {
            let h = &t.hops[i];
            let (c_iops, c_bps) = at(h, size, read_pct);
            let what = ceiling(h).basis;
            let each = if h.count > 1 {
                format!("{} × ", h.count)
            } else {
                String::new()
            };
            format!(
                "limited by {}: {mb_s:.0} MB/s ({iops:.0} IOPS) is {p:.0} % of its {:.0} MB/s ({:.0} IOPS) ceiling ({each}{what})",
                h.name,
                c_bps.unwrap_or(0.0) / 1e6,
                c_iops.unwrap_or(0.0)
            )
        }
        other => {
            let mut v = match other {
                Some((i, p)) => format!(
                    "not limited by the modelled path: its busiest hop, {}, is at {p:.0} %",
                    t.hops[i].name
                ),
                None => "not limited by the modelled path: no hop has a known ceiling".into(),
            };
            v += &suspects(
                r,
                iops,
                busiest.and_then(|(i, _)| at(&t.hops[i], size, read_pct).0),
            );
            v
        }
    };
    RunCheck {
        measured_iops: iops,
        measured_mb_s: mb_s,
        shares,
        verdict,
    }
}

/// The next suspects when the path is not the limit: too few outstanding I/Os for the path
/// (Little's law), and the load generator's CPU.
fn suspects(r: &RunResult, iops: f64, ceiling_iops: Option<f64>) -> String {
    let mut s = String::new();
    let outstanding = (r.job.qd * r.job.threads) as f64;
    let lat_s = crate::slo::latency(r, crate::slo::Dir::All).mean() / 1e9;
    if lat_s > 0.0 && r.job.rate.is_none() {
        let little = outstanding / lat_s;
        if let Some(c) = ceiling_iops.filter(|c| *c > little * 1.1 && iops > little * 0.8) {
            s += &format!(
                "; queue depth too low: {outstanding:.0} outstanding I/Os at {:.0} µs each allow {little:.0} IOPS (Little's law) where the path could take {c:.0}: raise --qd or --threads to about {:.0} outstanding",
                lat_s * 1e6,
                (c * lat_s).ceil()
            );
        }
    }
    if let Some(w) = r
        .cpu
        .workers
        .iter()
        .map(|w| w.busy_pct)
        .max_by(|a, b| a.total_cmp(b))
        .filter(|b| *b > 90.0)
    {
        s += &format!("; the load generator: a worker thread was {w:.0} % busy");
    }
    s
}
