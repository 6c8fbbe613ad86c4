//! One collection's sampling: every call takes the database's statistics, the devices'
//! /proc/diskstats counters and the CPU's, and gives what happened since the last call. A
//! lost connection is opened again at once; when that fails the sample has no database part
//! (later attempts wait 1 s, 2 s, 4 s … up to 5 minutes) and the next one read covers the
//! gap, which is said.

use super::across::delta_across;
use super::device_io::device_io;
use crate::live::Live;
use crate::slob::procfs::{cpu_between, cpu_of, host_ticks, Disk};
use crate::snapshot::Snapshot;
use dbio_model::collect::{DbIo, Sample};
use std::collections::HashMap;

/// A collection's sampler: the connection and the counters of the last sample.
pub struct Sampler {
    url: Option<String>,
    live: Option<Live>,
    /// The last snapshot read, and when (unix ms).
    base: Option<(Snapshot, u64)>,
    devices: Vec<String>,
    disks: Vec<Option<Disk>>,
    host: (u64, u64),
    server: Vec<(u32, f64)>,
    t_ms: u64,
    /// Since when (unix ms) the database could not be read, and why.
    lost: Option<(u64, String)>,
    /// Failed attempts to connect in a row, and when (unix ms) the next may be made: the
    /// wait doubles from 1 s up to 5 minutes, so a server that is gone costs a sample no
    /// connection timeout at each interval.
    retry: (u32, u64),
    /// The next database sample lists every object, idle ones too (the first one taken
    /// since the start or a resume, which gives every object's size).
    full: bool,
}

impl Sampler {
    /// Connects to `url` (none: devices and CPU alone) and reads the first counters, the
    /// base of the first sample; `base` is a collection's last snapshot when it resumes.
    /// An error when the database cannot be read now.
    pub fn start(
        url: Option<&str>,
        devices: Vec<String>,
        base: Option<(Snapshot, u64)>,
    ) -> Result<Sampler, crate::DbError> {
        let mut live = url.map(Live::connect).transpose()?;
        let first = match &mut live {
            Some(l) => Some((l.snapshot()?, crate::now_ms())),
            None => None,
        };
        let server = live.as_mut().map(Live::server_pids).unwrap_or_default();
        let disks = devices.iter().map(|d| Disk::read(d)).collect();
        Ok(Sampler {
            url: url.map(str::to_string),
            base: base.or(first),
            server: cpu_of(&server),
            live,
            devices,
            disks,
            host: host_ticks(),
            t_ms: crate::now_ms(),
            lost: None,
            retry: (0, 0),
            full: true,
        })
    }

    /// Samples these devices too, from their counters now.
    pub fn with_devices(mut self, devices: Vec<String>) -> Sampler {
        self.disks = devices.iter().map(|d| Disk::read(d)).collect();
        self.devices = devices;
        self
    }

    /// Lets the next sample try to connect whatever the wait (the last sample of a
    /// collection stopped by Ctrl-C, whose counts would otherwise be lost).
    pub fn retry_now(&mut self) {
        self.retry.1 = 0;
    }

    /// The last snapshot read and when, to resume from.
    pub fn base(&self) -> Option<&(Snapshot, u64)> {
        self.base.as_ref()
    }

    /// The database's data folder, when it says.
    pub fn data_dir(&mut self) -> Option<String> {
        self.live.as_mut().and_then(Live::data_dir)
    }

    /// What happened since the last sample (or the start).
    pub fn sample(&mut self) -> Sample {
        let now = crate::now_ms();
        let secs = now.saturating_sub(self.t_ms) as f64 / 1000.0;
        let mut events = Vec::new();
        let db = self.url.is_some().then(|| self.db(now, &mut events));
        let disks: Vec<Option<Disk>> = self.devices.iter().map(|d| Disk::read(d)).collect();
        let devices = (self.devices.iter().zip(self.disks.iter().zip(&disks)))
            .filter_map(|(name, (a, b))| device_io(name, a.as_ref(), b.as_ref(), &mut events))
            .collect();
        let host = host_ticks();
        let (busy, total) = (
            host.0.saturating_sub(self.host.0),
            host.1.saturating_sub(self.host.1),
        );
        let pids = self
            .live
            .as_mut()
            .map(Live::server_pids)
            .unwrap_or_default();
        let server = cpu_of(&pids);
        let server_cpu =
            (!pids.is_empty() && secs > 0.0).then(|| cpu_between(&self.server, &server) / secs);
        self.disks = disks;
        self.host = host;
        self.server = server;
        self.t_ms = now;
        Sample {
            t_ms: now,
            secs,
            devices,
            host_cpu: (total > 0).then(|| busy as f64 / total as f64),
            server_cpu,
            db: db.flatten(),
            events,
        }
    }

    /// The database's counts since the last snapshot read; None (and an event) when it
    /// cannot be read now.
    fn db(&mut self, now: u64, events: &mut Vec<String>) -> Option<DbIo> {
        let queried = std::time::Instant::now();
        let snap = match self.read(now, events) {
            Ok(s) => s,
            Err(why) => {
                match &self.lost {
                    None => events.push(format!(
                        "the database could not be read ({why}); its counts resume at the next sample read"
                    )),
                    Some(_) => events.push("the database still could not be read".into()),
                }
                self.lost.get_or_insert((now, why));
                return None;
            }
        };
        let query_ms = queried.elapsed().as_secs_f64() * 1000.0;
        let (before, at) = match self.base.take() {
            Some(b) => b,
            None => {
                self.base = Some((snap, now));
                return None;
            }
        };
        if let Some((since, _)) = self.lost.take() {
            events.push(format!(
                "the database could be read again after {:.0} s: its counts here cover the {:.0} s since the last sample read",
                now.saturating_sub(since) as f64 / 1000.0,
                now.saturating_sub(at) as f64 / 1000.0
            ));
        }
        let d = delta_across(&before, &snap);
        events.extend(d.event);
        // Objects that did nothing and kept their size are left out (most of a large
        // database's, most of the time); the first sample lists them all.
        let sizes: HashMap<&str, Option<u64>> = before
            .objects
            .iter()
            .map(|b| (b.name.as_str(), b.size_bytes))
            .collect();
        let full = std::mem::take(&mut self.full);
        let objects = d
            .objects
            .into_iter()
            .filter(|o| full || busy(o) || sizes.get(o.name.as_str()) != Some(&o.size_bytes))
            .collect();
        self.base = Some((snap, now));
        Some(DbIo {
            secs: now.saturating_sub(at) as f64 / 1000.0,
            query_ms,
            objects,
            io_wait: d.io_wait.map(|w| (w.io_ms, w.busy_ms)),
        })
    }

    /// A snapshot, through the open connection or a new one when that one fails (a server
    /// that restarted, a session ended by an administrator); the error of the last try.
    fn read(&mut self, now: u64, events: &mut Vec<String>) -> Result<Snapshot, String> {
        if let Some(l) = &mut self.live {
            match l.snapshot() {
                Ok(s) => return Ok(s),
                Err(e) => {
                    events.push(format!("the connection was lost ({e})"));
                    self.live = None;
                    self.retry = (0, 0);
                }
            }
        }
        if now < self.retry.1 {
            return Err(format!(
                "not tried again for {:.0} s after {} failed attempts",
                (self.retry.1 - now) as f64 / 1000.0,
                self.retry.0
            ));
        }
        let url = self.url.as_deref().expect("a database to read");
        let opened = Live::connect(url).and_then(|mut l| l.snapshot().map(|s| (l, s)));
        match opened {
            Ok((l, s)) => {
                (self.live, self.retry) = (Some(l), (0, 0));
                Ok(s)
            }
            Err(e) => {
                let failures = self.retry.0 + 1;
                let wait = (1000u64 << (failures - 1).min(9)).min(300_000);
                self.retry = (failures, now + wait);
                Err(e.to_string())
            }
        }
    }
}

/// Whether an object did any I/O.
fn busy(o: &dbio_model::advise::ObjectIo) -> bool {
    let t = |x: Option<f64>| x.is_some_and(|v| v > 0.0);
    o.ios() > 0
        || o.bytes_read + o.bytes_written > 0
        || t(o.read_ms)
        || t(o.write_ms)
        || t(o.stall_ms)
}
