//! A collection: a database's I/O statistics, its devices' counters and the host's CPU,
//! sampled every interval for hours or days (`dbio collect`), each sample the difference
//! over its interval.

use crate::advise::ObjectIo;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a collection samples and how, as it was started (kept with its samples).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CollectionInfo {
    /// The collection's name in the history.
    pub name: String,
    /// postgresql, mariadb (or mysql), or diskstats when no database is sampled.
    pub system: String,
    /// The database's URL without its password, or the folder of exports read.
    pub source: String,
    /// The host the collection ran on.
    pub host: String,
    /// Seconds between samples.
    pub interval_s: f64,
    /// How long it was asked to run, seconds (None: until stopped).
    pub duration_s: Option<f64>,
    /// The devices whose /proc/diskstats counters are sampled (names as in /dev).
    pub devices: Vec<String>,
    /// When the first sample's interval began, RFC 3339 UTC.
    pub started_at: String,
    /// True when the samples are read from a folder of exports (`source`), not sampled.
    #[serde(default)]
    pub from_exports: bool,
}

/// One interval of a collection: what the devices, the host and the database did in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sample {
    /// Unix time of the interval's end, ms.
    pub t_ms: u64,
    /// The interval's length, seconds (devices and CPU).
    pub secs: f64,
    /// Each sampled device's counters over the interval.
    pub devices: Vec<DeviceIo>,
    /// The host's CPU busy share over the interval, of all its CPUs (0 to 1).
    pub host_cpu: Option<f64>,
    /// The database server's own CPU over the interval, in CPUs (1.0: one CPU busy all the
    /// time); None when the server is not on this host.
    pub server_cpu: Option<f64>,
    /// The database's counters; None when it could not be read at this sample (a lost
    /// connection: the next sample read covers the gap, as `DbIo::secs` says).
    pub db: Option<DbIo>,
    /// What happened in the interval that a reader must know: a restart or a reset of the
    /// statistics, a lost connection, an interruption.
    pub events: Vec<String>,
}

/// A device's counters over one interval (differences of /proc/diskstats).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceIo {
    pub name: String,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Time the device's reads took, summed, ms.
    pub read_ms: u64,
    pub write_ms: u64,
    /// Time the device had I/O in flight, ms (its busy time).
    pub busy_ms: u64,
    /// Time in flight summed over every request, ms (its queue: / the interval = the
    /// average number of requests in flight).
    pub queue_ms: u64,
}

impl DeviceIo {
    /// Reads and writes per second over `secs`.
    pub fn iops(&self, secs: f64) -> f64 {
        per_s((self.reads + self.writes) as f64, secs)
    }

    /// MB (10^6 bytes) per second over `secs`.
    pub fn mb_s(&self, secs: f64) -> f64 {
        per_s((self.bytes_read + self.bytes_written) as f64 / 1e6, secs)
    }

    /// The average time of a request, ms (0 without requests).
    pub fn latency_ms(&self) -> f64 {
        let n = self.reads + self.writes;
        if n == 0 {
            0.0
        } else {
            (self.read_ms + self.write_ms) as f64 / n as f64
        }
    }

    /// The average number of requests in flight over `secs`.
    pub fn queue_depth(&self, secs: f64) -> f64 {
        per_s(self.queue_ms as f64 / 1000.0, secs)
    }

    /// The share of `secs` the device was busy (0 to 1).
    pub fn busy(&self, secs: f64) -> f64 {
        per_s(self.busy_ms as f64 / 1000.0, secs).min(1.0)
    }

    /// These counters and `o`'s added (for summing intervals).
    pub fn add(&mut self, o: &DeviceIo) {
        self.reads += o.reads;
        self.writes += o.writes;
        self.bytes_read += o.bytes_read;
        self.bytes_written += o.bytes_written;
        self.read_ms += o.read_ms;
        self.write_ms += o.write_ms;
        self.busy_ms += o.busy_ms;
        self.queue_ms += o.queue_ms;
    }
}

/// What the database counted over an interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DbIo {
    /// Seconds the counts cover: the interval, or more after a lost connection (from the
    /// last sample read to this one).
    pub secs: f64,
    /// Each object's counts over those seconds, and its size at the sample.
    pub objects: Vec<ObjectIo>,
    /// The server's own time waiting on I/O and its active time, ms, when it gives them.
    pub io_wait: Option<(f64, f64)>,
    /// How long dbio's round of queries took at this sample, ms (its cost to the server).
    #[serde(default)]
    pub query_ms: f64,
}

/// Consecutive samples as one covering all of their time (older days of a collection are
/// kept so): counts summed, CPU shares averaged by time, events kept in order; the sizes are
/// the last ones. None for no samples.
pub fn merged(samples: &[Sample]) -> Option<Sample> {
    let last = samples.last()?;
    let secs: f64 = samples.iter().map(|s| s.secs).sum();
    let mut devices: Vec<DeviceIo> = Vec::new();
    for d in samples.iter().flat_map(|s| &s.devices) {
        match devices.iter_mut().find(|x| x.name == d.name) {
            Some(x) => x.add(d),
            None => devices.push(d.clone()),
        }
    }
    let share = |f: fn(&Sample) -> Option<f64>| {
        let known: Vec<(f64, f64)> = samples
            .iter()
            .filter_map(|s| f(s).map(|v| (v, s.secs)))
            .collect();
        let t: f64 = known.iter().map(|k| k.1).sum();
        (!known.is_empty() && t > 0.0).then(|| known.iter().map(|k| k.0 * k.1).sum::<f64>() / t)
    };
    Some(Sample {
        t_ms: last.t_ms,
        secs,
        devices,
        host_cpu: share(|s| s.host_cpu),
        server_cpu: share(|s| s.server_cpu),
        db: merged_db(samples),
        events: samples
            .iter()
            .flat_map(|s| s.events.iter().cloned())
            .collect(),
    })
}

/// The database parts of consecutive samples summed; None when none was read.
fn merged_db(samples: &[Sample]) -> Option<DbIo> {
    let parts: Vec<&DbIo> = samples.iter().filter_map(|s| s.db.as_ref()).collect();
    if parts.is_empty() {
        return None;
    }
    let mut objects: Vec<ObjectIo> = Vec::new();
    let mut at = std::collections::HashMap::new();
    for o in parts.iter().flat_map(|d| &d.objects) {
        match at.get(&o.name) {
            Some(&i) => {
                let sum: &mut ObjectIo = &mut objects[i];
                sum.add(o);
                sum.size_bytes = o.size_bytes.or(sum.size_bytes);
            }
            None => {
                at.insert(o.name.clone(), objects.len());
                objects.push(o.clone());
            }
        }
    }
    let waits: Vec<(f64, f64)> = parts.iter().filter_map(|d| d.io_wait).collect();
    Some(DbIo {
        secs: parts.iter().map(|d| d.secs).sum(),
        query_ms: parts.iter().map(|d| d.query_ms).sum::<f64>() / parts.len() as f64,
        objects,
        io_wait: (!waits.is_empty())
            .then(|| waits.iter().fold((0.0, 0.0), |a, w| (a.0 + w.0, a.1 + w.1))),
    })
}

/// `x` per second over `secs` (0 over no time).
fn per_s(x: f64, secs: f64) -> f64 {
    if secs > 0.0 {
        x / secs
    } else {
        0.0
    }
}

/// A collection summed up (`dbio collect --report`): each device's, the CPU's and the
/// database's figures over the whole collection, with their 95th percentile interval and
/// their peak hour; each object's totals, busiest interval and growth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CollectionReport {
    pub info: CollectionInfo,
    /// collecting, complete, interrupted, or why it stopped.
    pub state: String,
    pub samples: u64,
    /// Unix ms of the first interval's start and the last one's end.
    pub first_ms: u64,
    pub last_ms: u64,
    /// Seconds sampled (the sum of the intervals; less than last − first over gaps).
    pub sampled_s: f64,
    pub devices: Vec<DeviceSummary>,
    /// The host's CPU busy share (0 to 1).
    pub host_cpu: Option<Spread>,
    /// The database server's CPU, in CPUs.
    pub server_cpu: Option<Spread>,
    /// The database's own I/O per second (reads + writes of every object).
    pub db_iops: Option<Spread>,
    /// Intervals by what limited them: CPU (host CPU at or over 80 %), I/O (a device busy
    /// at or over 80 %), both, neither.
    pub bound: Bound,
    pub objects: Vec<ObjectSummary>,
    /// The database's total size and its trend.
    pub capacity: Option<Growth>,
    /// What happened, in time order (restarts, resets, lost connections, interruptions).
    pub events: Vec<Event>,
    /// Each interval's figures, in time order (for charts and CSV).
    pub series: Vec<Point>,
}

/// A figure over the intervals of a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Spread {
    /// Weighted by the intervals' lengths.
    pub mean: f64,
    /// The 95th percentile of the intervals' values.
    pub p95: f64,
    pub max: f64,
    /// The hour (or the whole collection, when shorter) with the highest mean.
    pub peak_hour: Option<Peak>,
}

/// A window with the highest mean of a figure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Peak {
    pub start_ms: u64,
    pub end_ms: u64,
    pub mean: f64,
}

/// One device's figures over a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeviceSummary {
    pub name: String,
    pub iops: Spread,
    pub mb_s: Spread,
    /// The average time of a request, ms.
    pub latency_ms: Spread,
    /// The average number of requests in flight.
    pub queue_depth: Spread,
    /// The share of time busy (0 to 1).
    pub busy: Spread,
}

/// Intervals by what limited them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Bound {
    pub cpu: u64,
    pub io: u64,
    pub both: u64,
    pub neither: u64,
}

/// One object's figures over a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObjectSummary {
    pub name: String,
    pub kind: crate::advise::ObjectKind,
    pub reads: u64,
    pub writes: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Its busiest interval: when it ended (unix ms) and the object's I/O per second in it.
    pub busiest_ms: u64,
    pub busiest_iops: f64,
    pub size_bytes: Option<u64>,
    pub growth: Option<Growth>,
}

/// A size and its straight-line trend over the collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Growth {
    pub first_bytes: u64,
    pub last_bytes: u64,
    /// The least-squares slope, bytes a day.
    pub bytes_per_day: f64,
    /// How well the line fits (r², 0 to 1; 1 for a size that did not change).
    pub r2: f64,
}

/// Something that happened in a collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Event {
    /// The end of the interval it happened in, unix ms.
    pub t_ms: u64,
    pub what: String,
}

/// One interval's figures: per device (in `CollectionReport::devices`' order) IOPS, MB/s,
/// latency ms, queue depth and busy share; the CPUs; the database's I/O per second.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Point {
    pub t_ms: u64,
    pub secs: f64,
    pub devices: Vec<[f64; 5]>,
    pub host_cpu: Option<f64>,
    pub server_cpu: Option<f64>,
    pub db_iops: Option<f64>,
    /// How long dbio's round of queries took, ms.
    pub query_ms: Option<f64>,
    /// What bound the interval: cpu (host CPU at or over 80 %), io (a device busy at or over
    /// 80 %), both, or neither.
    pub bound: String,
}
