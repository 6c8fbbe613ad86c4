//! `dbio collect`'s loop: a sample every interval, each kept (by the caller's `Keep`, the
//! history) as soon as it is taken, until the duration is over or a stop is asked; the stop
//! takes one last sample of the part interval so that nothing collected is lost.

use dbio_db::collect::Sampler;
use dbio_db::snapshot::Snapshot;
use dbio_model::collect::Sample;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where samples go, as the caller has it (the history).
pub trait Keep {
    /// Keeps `s`, with the snapshot to resume from (JSON) when there is a database.
    fn sample(&mut self, s: &Sample, base: Option<&str>) -> Result<(), String>;
}

/// How a collection ended.
#[derive(Debug, PartialEq)]
pub enum Ended {
    /// The duration ran out.
    Complete,
    /// A stop was asked; the part interval before it was kept.
    Interrupted,
    /// A sample could not be kept (a full disk, a history gone): the samples before it are.
    Failed(String),
}

/// What the progress display is told after each sample.
pub struct Progress<'a> {
    pub samples: u64,
    pub elapsed: Duration,
    pub last: &'a Sample,
}

impl Progress<'_> {
    /// The progress line of collection `name`.
    pub fn line(&self, name: &str) -> String {
        let db = self
            .last
            .db
            .as_ref()
            .map_or("database not read".into(), |d| {
                let busy = d.objects.iter().filter(|o| o.ios() > 0).count();
                format!("{busy} objects did I/O")
            });
        let event = self
            .last
            .events
            .first()
            .map_or(String::new(), |e| format!("; {e}"));
        format!(
            "{name}: {} samples in {:.0} s; last: {db}{event}",
            self.samples,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Samples every `interval` for `duration` (None: until stopped), keeping each.
pub fn collect(
    sampler: &mut Sampler,
    interval: Duration,
    duration: Option<Duration>,
    stop: &AtomicBool,
    keep: &mut dyn Keep,
    shown: &mut dyn FnMut(Progress),
) -> Ended {
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        let next = interval * (n as u32 + 1);
        let end = duration.map_or(next, |d| next.min(d));
        let stopped = wait_until(start + end, stop);
        if stopped || duration.is_some_and(|d| end >= d) {
            sampler.retry_now();
        }
        let mut s = sampler.sample();
        if stopped {
            s.events
                .push("interrupted: this last interval is shorter than the others".into());
        }
        let base = sampler.base().map(base_json);
        if let Err(why) = keep.sample(&s, base.as_deref()) {
            return Ended::Failed(why);
        }
        n += 1;
        shown(Progress {
            samples: n,
            elapsed: start.elapsed(),
            last: &s,
        });
        if stopped {
            return Ended::Interrupted;
        }
        if duration.is_some_and(|d| end >= d) {
            return Ended::Complete;
        }
    }
}

/// Waits until `at`; true when a stop cut the wait short.
fn wait_until(at: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::Relaxed) {
            return true;
        }
        let now = Instant::now();
        if now >= at {
            return false;
        }
        std::thread::sleep((at - now).min(Duration::from_millis(100)));
    }
}

/// The remote side of `--hosts`: the collection `r` asks for, its samples written to
/// standard output for the launching dbio; it stops as on Ctrl-C when the session's input
/// closes.
pub fn emit(r: &CollectRequest, stop: std::sync::Arc<AtomicBool>) -> Ended {
    let mut r = r.clone();
    // `--url -`: the URL is the input's first line (a password never on a command line).
    if r.url.as_deref() == Some("-") {
        let mut line = String::new();
        if std::io::BufRead::read_line(&mut std::io::stdin().lock(), &mut line).is_err() {
            return Ended::Failed("--url -: no URL on standard input".into());
        }
        r.url = Some(line.trim().to_string());
    }
    crate::fleet::remote::stop_on_eof(std::io::stdin(), stop.clone());
    match begin(&r, None) {
        Ok(mut b) => b.run(&stop, &mut |_| {}),
        Err(e) => Ended::Failed(e),
    }
}

/// The snapshot to resume from and its time, as stored.
pub fn base_json(b: &(Snapshot, u64)) -> String {
    serde_json::json!({ "t_ms": b.1, "snapshot": b.0 }).to_string()
}

/// The snapshot to resume from, from its stored form.
pub fn base_of(json: &str) -> Result<(Snapshot, u64), String> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let t = v["t_ms"].as_u64().ok_or("no t_ms")?;
    let s = Snapshot::from_json(&v["snapshot"].to_string(), "the stored snapshot")
        .map_err(|e| e.to_string())?;
    Ok((s, t))
}

mod hosts;
mod report;
mod setup;

pub use hosts::{collect_on_hosts, Fleet, HostEnded};

pub use report::{report, window_counts};
pub use setup::{begin, check, no_collection, read_exports, Begun, CollectRequest, Kept};
