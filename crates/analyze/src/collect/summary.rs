//! A collection summed up sample by sample (the samples are read one at a time from the
//! history, never all at once): the series, each object's totals, busiest interval and size
//! trend, and the events.

use super::spread::{spread, Value};
use dbio_model::advise::ObjectKind;
use dbio_model::collect::{
    Bound, CollectionInfo, CollectionReport, DeviceSummary, Event, Growth, ObjectSummary, Point,
    Sample,
};
use std::collections::HashMap;

/// Host CPU or device busy share from which an interval counts as bound by it.
const BOUND: f64 = 0.8;

/// One object as the samples go by.
#[derive(Default)]
struct Acc {
    kind: Option<ObjectKind>,
    totals: [u64; 4],
    busiest: (u64, f64),
    size: Option<u64>,
    first_size: Option<u64>,
    fit: Fit,
}

/// Running sums of a least-squares line through (days, bytes).
#[derive(Default, Clone, Copy)]
struct Fit {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    xy: f64,
    yy: f64,
}

impl Fit {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.xy += x * y;
        self.yy += y * y;
    }

    /// (slope, r²); None with fewer than two points in time.
    fn line(&self) -> Option<(f64, f64)> {
        let sxx = self.xx - self.x * self.x / self.n;
        let sxy = self.xy - self.x * self.y / self.n;
        let syy = self.yy - self.y * self.y / self.n;
        if self.n < 2.0 || sxx <= 1e-12 {
            return None;
        }
        let r2 = if syy <= 1e-9 {
            1.0
        } else {
            (sxy * sxy / (sxx * syy)).clamp(0.0, 1.0)
        };
        Some((sxy / sxx, r2))
    }
}

/// The fold over a collection's samples.
#[derive(Default)]
pub struct Summary {
    samples: u64,
    first_ms: Option<u64>,
    last_ms: u64,
    sampled_s: f64,
    devices: Vec<String>,
    points: Vec<Point>,
    objects: HashMap<String, Acc>,
    capacity: (Option<u64>, Option<u64>, Fit),
    events: Vec<Event>,
    bound: Bound,
}

impl Summary {
    /// Adds the next sample (in time order).
    pub fn add(&mut self, s: &Sample) {
        let start = s.t_ms.saturating_sub((s.secs * 1000.0) as u64);
        self.first_ms.get_or_insert(start);
        (self.last_ms, self.samples) = (s.t_ms, self.samples + 1);
        self.sampled_s += s.secs;
        self.events.extend(s.events.iter().map(|e| Event {
            t_ms: s.t_ms,
            what: e.clone(),
        }));
        let mut devices = vec![[0.0; 5]; self.devices.len()];
        for d in &s.devices {
            let i = match self.devices.iter().position(|n| *n == d.name) {
                Some(i) => i,
                None => {
                    self.devices.push(d.name.clone());
                    devices.push([0.0; 5]);
                    self.devices.len() - 1
                }
            };
            let secs = s.secs;
            devices[i] = [
                d.iops(secs),
                d.mb_s(secs),
                d.latency_ms(),
                d.queue_depth(secs),
                d.busy(secs),
            ];
        }
        let io_bound = devices.iter().any(|d| d[4] >= BOUND);
        let bound = match (s.host_cpu.is_some_and(|c| c >= BOUND), io_bound) {
            (true, true) => (&mut self.bound.both, "both"),
            (true, false) => (&mut self.bound.cpu, "cpu"),
            (false, true) => (&mut self.bound.io, "io"),
            (false, false) => (&mut self.bound.neither, "neither"),
        };
        *bound.0 += 1;
        let bound = bound.1.to_string();
        let db_iops = s.db.as_ref().map(|db| self.objects_of(s.t_ms, db));
        self.points.push(Point {
            t_ms: s.t_ms,
            secs: s.secs,
            devices,
            host_cpu: s.host_cpu,
            server_cpu: s.server_cpu,
            db_iops,
            query_ms: s.db.as_ref().map(|d| d.query_ms),
            bound,
        });
    }

    /// Adds a sample's objects; the database's I/O per second in it.
    fn objects_of(&mut self, t_ms: u64, db: &dbio_model::collect::DbIo) -> f64 {
        let mut ios = 0u64;
        for o in &db.objects {
            let a = self.objects.entry(o.name.clone()).or_default();
            a.kind = Some(o.kind);
            a.totals[0] += o.reads;
            a.totals[1] += o.writes;
            a.totals[2] += o.bytes_read;
            a.totals[3] += o.bytes_written;
            ios += o.ios();
            let rate = if db.secs > 0.0 {
                o.ios() as f64 / db.secs
            } else {
                0.0
            };
            if rate > a.busiest.1 {
                a.busiest = (t_ms, rate);
            }
            if let Some(size) = o.size_bytes {
                a.size = Some(size);
                a.first_size.get_or_insert(size);
            }
        }
        // Every object known stays at its last size until a sample says otherwise.
        let days = t_ms as f64 / 86_400_000.0;
        let mut total = None::<u64>;
        for a in self.objects.values_mut() {
            if let Some(size) = a.size {
                a.fit.add(days, size as f64);
                total = Some(total.unwrap_or(0) + size);
            }
        }
        if let Some(t) = total {
            self.capacity.0.get_or_insert(t);
            self.capacity.1 = Some(t);
            self.capacity.2.add(days, t as f64);
        }
        if db.secs > 0.0 {
            ios as f64 / db.secs
        } else {
            0.0
        }
    }

    /// The report of the samples added, peaks over windows of `window_ms` (an hour).
    pub fn finish(self, info: CollectionInfo, state: String, window_ms: u64) -> CollectionReport {
        let values = |f: &dyn Fn(&Point) -> Option<f64>| -> Vec<Value> {
            self.points
                .iter()
                .filter_map(|p| f(p).map(|v| (p.t_ms, p.secs, v)))
                .collect()
        };
        let dev = |i: usize, k: usize| {
            spread(
                &values(&|p: &Point| p.devices.get(i).map(|d| d[k])),
                window_ms,
            )
            .expect("a device has values")
        };
        let devices = (0..self.devices.len())
            .map(|i| DeviceSummary {
                name: self.devices[i].clone(),
                iops: dev(i, 0),
                mb_s: dev(i, 1),
                latency_ms: dev(i, 2),
                queue_depth: dev(i, 3),
                busy: dev(i, 4),
            })
            .collect();
        let mut objects: Vec<ObjectSummary> = self
            .objects
            .iter()
            .map(|(name, a)| ObjectSummary {
                name: name.clone(),
                kind: a.kind.unwrap_or(ObjectKind::Other),
                reads: a.totals[0],
                writes: a.totals[1],
                bytes_read: a.totals[2],
                bytes_written: a.totals[3],
                busiest_ms: a.busiest.0,
                busiest_iops: a.busiest.1,
                size_bytes: a.size,
                growth: growth(a.first_size, a.size, &a.fit),
            })
            .collect();
        objects.sort_by(|a, b| {
            (b.reads + b.writes)
                .cmp(&(a.reads + a.writes))
                .then(a.name.cmp(&b.name))
        });
        CollectionReport {
            info,
            state,
            samples: self.samples,
            first_ms: self.first_ms.unwrap_or(0),
            last_ms: self.last_ms,
            sampled_s: self.sampled_s,
            devices,
            host_cpu: spread(&values(&|p: &Point| p.host_cpu), window_ms),
            server_cpu: spread(&values(&|p: &Point| p.server_cpu), window_ms),
            db_iops: spread(&values(&|p: &Point| p.db_iops), window_ms),
            bound: self.bound,
            objects,
            capacity: growth(self.capacity.0, self.capacity.1, &self.capacity.2),
            events: self.events,
            series: self.points,
        }
    }
}

fn growth(first: Option<u64>, last: Option<u64>, fit: &Fit) -> Option<Growth> {
    let (first, last) = (first?, last?);
    let (slope, r2) = fit.line().unwrap_or((0.0, 1.0));
    Some(Growth {
        first_bytes: first,
        last_bytes: last,
        bytes_per_day: slope,
        r2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::collect::DeviceIo;

    fn sample(i: u64, cpu: f64, busy_ms: u64) -> Sample {
        Sample {
            t_ms: i * 60_000,
            secs: 60.0,
            devices: vec![DeviceIo {
                name: "sda".into(),
                reads: 600,
                busy_ms,
                ..Default::default()
            }],
            host_cpu: Some(cpu),
            server_cpu: None,
            db: None,
            events: Vec::new(),
        }
    }

    /// Seed 002's question, interval by interval: bound by the CPU, by I/O, by both, or
    /// neither, from the host's CPU and the busiest device (80 % of the interval).
    #[test]
    fn each_interval_says_what_bound_it() {
        let mut s = Summary::default();
        for (i, (cpu, busy)) in [(0.9, 6_000), (0.1, 57_000), (0.85, 48_000), (0.5, 30_000)]
            .into_iter()
            .enumerate()
        {
            s.add(&sample(i as u64 + 1, cpu, busy));
        }
        let info = CollectionInfo {
            name: "c".into(),
            system: "diskstats".into(),
            source: "/proc/diskstats".into(),
            host: "h".into(),
            interval_s: 60.0,
            duration_s: None,
            devices: vec!["sda".into()],
            started_at: "2026-12-01T00:00:00Z".into(),
            from_exports: false,
        };
        let r = s.finish(info, "complete".into(), 3_600_000);
        let bound: Vec<&str> = r.series.iter().map(|p| p.bound.as_str()).collect();
        assert_eq!(bound, ["cpu", "io", "both", "neither"]);
        assert_eq!(
            (r.bound.cpu, r.bound.io, r.bound.both, r.bound.neither),
            (1, 1, 1, 1)
        );
        assert_eq!(r.devices[0].iops.mean, 10.0);
    }
}
