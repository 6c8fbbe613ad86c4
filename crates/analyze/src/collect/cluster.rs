//! The hosts of one fleet collection (`dbio collect --hosts`, stored as NAME@HOST) as one
//! cluster, interval by interval: the seeds' totals across hosts. Each host's samples are
//! placed on a common grid of the interval, from the first sample seen (the hosts started
//! together; a host a second behind lands on the same points), or of 10 minutes of the clock
//! where older samples are kept as such sums; at each point the hosts' devices are summed as
//! "all hosts", the CPU is the busiest host's, the servers' CPUs are summed, and each host's
//! database is one object.

use dbio_model::advise::{ObjectIo, ObjectKind};
use dbio_model::collect::{merged, DbIo, DeviceIo, Sample};
use std::collections::{BTreeMap, HashMap};

/// The name of the device that sums every host's devices.
pub const ALL_HOSTS: &str = "all hosts";

/// The hosts' samples gathered on a common grid, each host's reduced to its devices, its CPU
/// and its database's totals (memory: a few numbers per host and point, never the objects).
pub struct Cluster {
    interval_ms: u64,
    /// The first sample's end on the interval's grid.
    origin: Option<u64>,
    split_ms: u64,
    rollup_ms: u64,
    hosts: Vec<String>,
    /// Each host's objects' last sizes (a sample holds only the objects that changed).
    sizes: Vec<HashMap<String, u64>>,
    /// Each point's end on the grid → each host's sample there.
    points: BTreeMap<u64, Vec<(usize, Sample)>>,
}

impl Cluster {
    /// A cluster of hosts sampled every `interval_s`; samples ending at or before `split_ms`
    /// are placed on a grid of `rollup_ms` (older samples are stored as sums of that length).
    pub fn new(interval_s: f64, split_ms: u64, rollup_ms: u64) -> Cluster {
        Cluster {
            interval_ms: ((interval_s * 1000.0).round() as u64).max(1),
            origin: None,
            split_ms,
            rollup_ms: rollup_ms.max(1),
            hosts: Vec::new(),
            sizes: Vec::new(),
            points: BTreeMap::new(),
        }
    }

    /// Adds a host by name; its number for [`Cluster::add`].
    pub fn add_host(&mut self, name: &str) -> usize {
        self.hosts.push(name.to_string());
        self.sizes.push(HashMap::new());
        self.hosts.len() - 1
    }

    /// Adds host `host`'s next sample (each host's in time order).
    pub fn add(&mut self, host: usize, s: &Sample) {
        let key = self.key(s.t_ms);
        let r = self.reduced(host, s);
        let at = self.points.entry(key).or_default();
        match at.iter_mut().find(|(h, _)| *h == host) {
            // Two of a host's samples on one point (after a gap): summed, time and all.
            Some((_, x)) => *x = merged(&[x.clone(), r]).expect("two samples"),
            None => at.push((host, r)),
        }
    }

    /// The end of the grid point a sample ending at `t_ms` belongs to.
    fn key(&mut self, t_ms: u64) -> u64 {
        if t_ms <= self.split_ms {
            return (t_ms.saturating_sub(1) / self.rollup_ms + 1) * self.rollup_ms;
        }
        let o = *self.origin.get_or_insert(t_ms);
        let steps = ((t_ms as f64 - o as f64) / self.interval_ms as f64).round();
        (o as f64 + steps * self.interval_ms as f64).max(0.0) as u64
    }

    /// Host `host`'s sample with its devices named HOST:DEVICE, its events naming it, and its
    /// database as one object named HOST: the I/O of every object, the size of them all.
    fn reduced(&mut self, host: usize, s: &Sample) -> Sample {
        let name = &self.hosts[host];
        let db = s.db.as_ref().map(|db| {
            let sizes = &mut self.sizes[host];
            let mut all = ObjectIo::new(name.clone(), ObjectKind::Other);
            for o in &db.objects {
                all.add(o);
                if let Some(b) = o.size_bytes {
                    sizes.insert(o.name.clone(), b);
                }
            }
            all.size_bytes = (!sizes.is_empty()).then(|| sizes.values().sum());
            DbIo {
                secs: db.secs,
                objects: vec![all],
                io_wait: db.io_wait,
                query_ms: db.query_ms,
            }
        });
        Sample {
            t_ms: s.t_ms,
            secs: s.secs,
            devices: (s.devices.iter())
                .map(|d| DeviceIo {
                    name: format!("{name}:{}", d.name),
                    ..d.clone()
                })
                .collect(),
            host_cpu: s.host_cpu,
            server_cpu: s.server_cpu,
            db,
            events: s.events.iter().map(|e| format!("{name}: {e}")).collect(),
        }
    }

    /// The cluster's samples in time order, one per grid point.
    pub fn samples(self) -> impl Iterator<Item = Sample> {
        self.points.into_values().map(|mut at| {
            at.sort_by_key(|(h, _)| *h);
            combined(at.into_iter().map(|(_, s)| s).collect())
        })
    }
}

/// The hosts' samples of one grid point as the cluster's: the longest of their intervals
/// (the rates of each host's counts over it), every device and their sum, the busiest host's
/// CPU, the servers' CPUs summed, each host's database object.
fn combined(parts: Vec<Sample>) -> Sample {
    let longest = |f: &dyn Fn(&Sample) -> Option<f64>| {
        parts
            .iter()
            .filter_map(f)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
    };
    let mut all = DeviceIo {
        name: ALL_HOSTS.into(),
        ..Default::default()
    };
    let mut devices = Vec::new();
    for d in parts.iter().flat_map(|s| &s.devices) {
        let busiest = all.busy_ms.max(d.busy_ms);
        all.add(d);
        // Busy: the busiest device's share (a sum of shares is no share).
        all.busy_ms = busiest;
        devices.push(d.clone());
    }
    devices.insert(0, all);
    let server: Vec<f64> = parts.iter().filter_map(|s| s.server_cpu).collect();
    let dbs: Vec<&DbIo> = parts.iter().filter_map(|s| s.db.as_ref()).collect();
    let db = (!dbs.is_empty()).then(|| {
        let waits: Vec<(f64, f64)> = dbs.iter().filter_map(|d| d.io_wait).collect();
        DbIo {
            secs: dbs.iter().map(|d| d.secs).fold(0.0, f64::max),
            objects: dbs.iter().flat_map(|d| d.objects.iter().cloned()).collect(),
            io_wait: (!waits.is_empty())
                .then(|| waits.iter().fold((0.0, 0.0), |a, w| (a.0 + w.0, a.1 + w.1))),
            query_ms: dbs.iter().map(|d| d.query_ms).fold(0.0, f64::max),
        }
    });
    Sample {
        t_ms: parts.iter().map(|s| s.t_ms).max().unwrap_or(0),
        secs: longest(&|s| Some(s.secs)).unwrap_or(0.0),
        host_cpu: longest(&|s| s.host_cpu),
        server_cpu: (!server.is_empty()).then(|| server.iter().sum()),
        db,
        events: parts
            .iter()
            .flat_map(|s| s.events.iter().cloned())
            .collect(),
        devices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t_ms: u64, secs: f64, reads: u64, cpu: f64, objects: &[(&str, u64, u64)]) -> Sample {
        Sample {
            t_ms,
            secs,
            devices: vec![DeviceIo {
                name: "sda".into(),
                reads,
                read_ms: reads,
                busy_ms: reads * 10,
                ..Default::default()
            }],
            host_cpu: Some(cpu),
            server_cpu: Some(cpu),
            db: Some(DbIo {
                secs,
                objects: (objects.iter())
                    .map(|&(n, r, size)| ObjectIo {
                        reads: r,
                        size_bytes: Some(size),
                        ..ObjectIo::new(n, ObjectKind::Data)
                    })
                    .collect(),
                io_wait: None,
                query_ms: 1.0,
            }),
            events: Vec::new(),
        }
    }

    /// Two hosts half a second apart land on the same points; one host's 10-minute sum (an
    /// older day) takes in the other's ten 60 s samples of that time; counts add up, the CPU
    /// is the busiest host's, the servers' CPUs add, each database is one object whose size is
    /// all of that host's objects (those a sample left out kept at their last); two samples of
    /// one host on one point (after a gap) are summed, time and all.
    #[test]
    fn hosts_meet_on_one_grid_and_add_up() {
        let mut c = Cluster::new(60.0, 600_000, 600_000);
        let (a, b) = (c.add_host("a"), c.add_host("b"));
        c.add(
            a,
            &sample(600_000, 600.0, 100, 0.5, &[("t", 10, 1000), ("u", 1, 50)]),
        );
        c.add(a, &sample(660_250, 60.0, 30, 0.1, &[("t", 3, 1100)]));
        c.add(a, &sample(720_250, 60.0, 1, 0.1, &[]));
        for t in (1..=9).map(|i| i * 60_000 + 300).chain([599_900]) {
            c.add(b, &sample(t, 60.0, 7, 0.2, &[("t", 2, 700)]));
        }
        c.add(b, &sample(659_800, 60.0, 5, 0.9, &[]));
        c.add(b, &sample(661_000, 60.0, 4, 0.3, &[]));
        c.add(b, &sample(719_900, 60.0, 2, 0.3, &[]));
        let s: Vec<Sample> = c.samples().collect();
        assert_eq!(s.len(), 3, "{s:?}");
        // The older 10 minutes: a's sum and b's ten samples.
        let all = &s[0].devices[0];
        assert_eq!((all.name.as_str(), all.reads), (ALL_HOSTS, 100 + 10 * 7));
        assert_eq!(s[0].devices[1].name, "a:sda");
        assert_eq!(s[0].secs, 600.0);
        let db = s[0].db.as_ref().unwrap();
        assert_eq!(db.objects[0].name, "a");
        assert_eq!(
            (db.objects[0].reads, db.objects[0].size_bytes),
            (11, Some(1050))
        );
        assert_eq!(
            (db.objects[1].reads, db.objects[1].size_bytes),
            (20, Some(700))
        );
        // The next minute: a's sample and b's two.
        let all = &s[1].devices[0];
        assert_eq!(all.reads, 30 + 5 + 4);
        assert_eq!(all.busy_ms, 300, "the busiest device's busy time");
        assert_eq!(s[1].secs, 120.0);
        let cpu = |c: Option<f64>| c.map(|c| (c * 100.0).round());
        assert_eq!(
            cpu(s[1].host_cpu),
            Some(60.0),
            "b's two minutes, the busier host"
        );
        assert_eq!(cpu(s[1].server_cpu), Some(70.0));
        let db = s[1].db.as_ref().unwrap();
        assert_eq!(db.objects[0].size_bytes, Some(1150));
        assert_eq!(
            (db.objects[1].reads, db.objects[1].size_bytes),
            (0, Some(700))
        );
        // The last: one sample of each, 350 ms apart.
        assert_eq!((s[2].devices[0].reads, s[2].secs), (3, 60.0));
    }
}
