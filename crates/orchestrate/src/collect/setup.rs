//! A collection begun or resumed: its flags checked, the database connected to, its
//! devices found, its row in the history made or found; and the history's side of the loop.

use super::{base_of, Ended, Keep, Progress};
use dbio_db::collect::Sampler;
use dbio_model::collect::{CollectionInfo, Sample};
use dbio_store::collections::Writer;
use dbio_store::Store;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, SystemTime};

/// What `dbio collect` was asked, clap-free.
#[derive(Debug, Clone, Default)]
pub struct CollectRequest {
    /// A live database (none: devices and CPU alone).
    pub url: Option<String>,
    /// `--device`: auto, or names.
    pub device: String,
    pub interval: Option<String>,
    pub duration: Option<String>,
    pub name: Option<String>,
    /// `--resume NAME`.
    pub resume: Option<String>,
    /// `--exports DIR`: a folder of repeated exports (SQL Server, Oracle) read as samples.
    pub exports: Option<String>,
}

/// A collection ready to run.
pub struct Begun {
    pub sampler: Sampler,
    pub info: CollectionInfo,
    pub interval: Duration,
    /// How long to run from now (None: until stopped).
    pub duration: Option<Duration>,
    pub keep: Kept,
}

impl Begun {
    /// Runs the collection to its end (or a stop), and marks in the history how it ended;
    /// a failure says that the samples before it are kept and how to go on.
    pub fn run(&mut self, stop: &AtomicBool, shown: &mut dyn FnMut(Progress)) -> Ended {
        let ended = super::collect(
            &mut self.sampler,
            self.interval,
            self.duration,
            stop,
            &mut self.keep,
            shown,
        );
        let state = match &ended {
            Ended::Complete => "complete".to_string(),
            Ended::Interrupted => "interrupted".to_string(),
            Ended::Failed(why) => format!("stopped: {why}"),
        };
        let kept = self.keep.end(&state);
        match (ended, kept) {
            (Ended::Failed(why), _) => Ended::Failed(format!(
                "{why}; the samples before are kept: dbio collect --resume {}",
                self.info.name
            )),
            (_, Err(e)) => Ended::Failed(e),
            (ended, Ok(())) => ended,
        }
    }

    /// What is collected, in one line, as it starts.
    pub fn said(&self) -> String {
        let i = &self.info;
        let devices = if i.devices.is_empty() {
            "none".to_string()
        } else {
            i.devices.join(", ")
        };
        format!(
            "collection {}: {} every {} s, devices: {devices}; Ctrl-C stops it and keeps every sample",
            i.name, i.source, i.interval_s
        )
    }
}

/// Where samples go: the history, or (on a host a launching dbio reads over ssh) standard
/// output as JSON lines: `{"info": …}` first, `{"sample": …}` each, `{"end": STATE}` last.
pub enum Kept {
    Store { store: Store, writer: Writer },
    Emit,
}

impl Keep for Kept {
    /// A sample that cannot be stored is tried once more a second later (a team store's
    /// server that restarted is connected to again), then the collection stops.
    fn sample(&mut self, s: &Sample, base: Option<&str>) -> Result<(), String> {
        let (store, writer) = match self {
            Kept::Store { store, writer } => (store, writer),
            Kept::Emit => return emit(&serde_json::json!({ "sample": s })),
        };
        if store.add_sample(writer, s, base).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(1));
        store.add_sample(writer, s, base).map_err(|e| e.to_string())
    }
}

impl Kept {
    /// Marks how the collection ended.
    fn end(&self, state: &str) -> Result<(), String> {
        match self {
            Kept::Store { store, writer } => store
                .set_state(writer.id(), state)
                .map_err(|e| e.to_string()),
            Kept::Emit => emit(&serde_json::json!({ "end": state })),
        }
    }

    /// The history, when the samples go there.
    pub fn store(&self) -> Option<&Store> {
        match self {
            Kept::Store { store, .. } => Some(store),
            Kept::Emit => None,
        }
    }
}

/// One JSON line on standard output, flushed (the launcher reads it as it comes).
fn emit(v: &serde_json::Value) -> Result<(), String> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{v}")
        .and_then(|_| out.flush())
        .map_err(|e| format!("the launching dbio is gone ({e})"))
}

/// A length flag read (`--interval 60s`, `--duration 7d`).
fn length(flag: &str, v: &str) -> Result<Duration, String> {
    humantime::parse_duration(v)
        .map_err(|e| format!("{flag} {v}: not a length ({e}); e.g. {flag} 60s, 10m, 7d"))
}

/// Checks the flags that need nothing opened (lengths, names, what goes with what), so that
/// bad ones are refused before the history is.
pub fn check(r: &CollectRequest) -> Result<(), String> {
    if r.exports.is_some() {
        if r.url.is_some() || r.interval.is_some() || r.duration.is_some() || r.device != "auto" {
            return Err("--exports reads a folder of saved exports: --url, --device, --interval and --duration are for sampling a live database; give one or the other".into());
        }
    } else if r.resume.is_none() {
        lengths(r)?;
    }
    named(r.name.as_deref(), "").map(drop)
}

/// The interval and the duration asked, checked, and that there is something to sample.
fn lengths(r: &CollectRequest) -> Result<(Duration, Option<Duration>), String> {
    let interval = length("--interval", r.interval.as_deref().unwrap_or("60s"))?;
    if interval < Duration::from_secs(1) {
        return Err(format!(
            "--interval {}: at least 1s (each sample is a round of queries)",
            r.interval.as_deref().unwrap_or("")
        ));
    }
    let duration = r
        .duration
        .as_deref()
        .map(|d| length("--duration", d))
        .transpose()?;
    if duration.is_some_and(|d| d < interval) {
        return Err("--duration is shorter than --interval: no sample would be whole; make it at least one interval".into());
    }
    if r.url.is_none() && r.device == "auto" {
        return Err("give --url (a database to sample), --device sda,nvme0n1 (devices and CPU alone) or --resume NAME".into());
    }
    Ok((interval, duration))
}

/// Checks the flags, connects, and makes (or finds, to resume) the collection in `store`;
/// without a store the samples go to standard output, for a launching dbio.
pub fn begin(r: &CollectRequest, store: Option<Store>) -> Result<Begun, String> {
    if let Some(name) = &r.resume {
        let store = store.ok_or("a collection on several hosts cannot be resumed")?;
        return resume(r, name, store);
    }
    let (interval, duration) = lengths(r)?;
    let mut sampler =
        Sampler::start(r.url.as_deref(), Vec::new(), None).map_err(|e| e.to_string())?;
    let data_dir = sampler.data_dir();
    let devices = dbio_db::collect::devices(&r.device, data_dir.as_deref())?;
    let sampler = sampler.with_devices(devices.clone());
    let now = SystemTime::now();
    let started_at = crate::fleet::rfc3339(now);
    let info = CollectionInfo {
        name: named(r.name.as_deref(), &started_at)?,
        system: sampler
            .base()
            .map_or("diskstats".into(), |b| b.0.system.clone()),
        source: r
            .url
            .as_deref()
            .map_or("/proc/diskstats".into(), dbio_db::url::redact),
        host: dbio_store::collections::hostname(),
        interval_s: interval.as_secs_f64(),
        duration_s: duration.map(|d| d.as_secs_f64()),
        devices,
        started_at,
        from_exports: false,
    };
    let keep = match store {
        Some(store) => {
            let writer = store.create_collection(&info).map_err(|e| e.to_string())?;
            store
                .set_state(writer.id(), &dbio_store::collections::collecting())
                .map_err(|e| e.to_string())?;
            Kept::Store { store, writer }
        }
        None => {
            emit(&serde_json::json!({ "info": info }))?;
            Kept::Emit
        }
    };
    Ok(Begun {
        sampler,
        info,
        interval,
        duration,
        keep,
    })
}

/// A folder of exports read into a new collection (`--exports DIR`), or the exports added
/// to the folder since a collection of them was last read (`--resume NAME`): the collection's
/// name and the samples stored. None when the request is neither.
pub fn read_exports(r: &CollectRequest, store: &Store) -> Result<Option<(String, usize)>, String> {
    let err = |e: dbio_store::StoreError| e.to_string();
    let (info, old) = match (&r.exports, &r.resume) {
        (Some(dir), _) => {
            check(r)?;
            let now = crate::fleet::rfc3339(SystemTime::now());
            let info = CollectionInfo {
                name: named(r.name.as_deref(), &now)?,
                system: "exports".into(),
                source: dir.clone(),
                host: dbio_store::collections::hostname(),
                interval_s: 0.0,
                duration_s: None,
                devices: Vec::new(),
                started_at: now,
                from_exports: true,
            };
            (info, None)
        }
        (None, Some(name)) => match store.collection(name).map_err(err)? {
            Some(c) if c.info.from_exports => (c.info.clone(), Some(c)),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    // Every file is read before anything is stored: a folder with a file that is no export
    // leaves the history as it was.
    let base = old
        .as_ref()
        .and_then(|c| c.base.as_deref())
        .map(base_of)
        .transpose()?;
    let after = base
        .as_ref()
        .map(|b| b.1)
        .or(old.as_ref().and_then(|c| c.last_ms));
    let after = after.unwrap_or(0);
    let (samples, last) = dbio_db::collect::exports::series(&info.source, after, base)?;
    let mut writer = match &old {
        Some(c) => store.resume_collection(c).map_err(err)?,
        None => store.create_collection(&info).map_err(err)?,
    };
    let base = last.as_ref().map(super::base_json);
    for (i, s) in samples.iter().enumerate() {
        let b = (i + 1 == samples.len())
            .then_some(base.as_deref())
            .flatten();
        store.add_sample(&mut writer, s, b).map_err(err)?;
    }
    if let (true, Some(b)) = (samples.is_empty(), &base) {
        store.set_base(writer.id(), b).map_err(err)?;
    }
    store.set_state(writer.id(), "complete").map_err(err)?;
    Ok(Some((info.name, samples.len())))
}

/// The collection's name: `--name` checked (printable, at most 200 characters, no '@',
/// which names a host's collection), else a default from the start.
pub(crate) fn named(name: Option<&str>, started_at: &str) -> Result<String, String> {
    let Some(n) = name else {
        return Ok(default_name(started_at));
    };
    let bad = n.trim().is_empty()
        || n.chars().count() > 200
        || n.contains('@')
        || n.chars().any(char::is_control);
    if bad {
        return Err(format!(
            "--name {n:?}: give a name of 1 to 200 printable characters without '@' (HOST is added after '@' with --hosts), e.g. --name shop-week"
        ));
    }
    Ok(n.to_string())
}

/// A collection's name when none is given: collect-YYYYMMDD-HHMMSS of its start.
fn default_name(started_at: &str) -> String {
    format!(
        "collect-{}",
        started_at
            .replace([':', '-'], "")
            .trim_end_matches('Z')
            .replace('T', "-")
    )
}

/// Goes on with the collection `name`: the same database, devices and interval, from its
/// last snapshot (so the first sample covers the time it was not running).
fn resume(r: &CollectRequest, name: &str, store: Store) -> Result<Begun, String> {
    let c = store
        .collection(name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| no_collection(&store, name))?;
    let info = c.info.clone();
    let here = dbio_store::collections::hostname();
    if info.host != here && !info.from_exports {
        return Err(format!(
            "collection {name} was collected on {} (its database and devices as that host sees them), not on {here}: resume it there",
            info.host
        ));
    }
    if c.state.starts_with("collecting (pid ")
        && dbio_store::collections::shown_state(&c.state, name) == c.state
    {
        return Err(format!(
            "collection {name} is being collected now ({}); two dbio writing one collection would mix their samples: stop that one first",
            c.state
        ));
    }
    let interval = Duration::from_secs_f64(info.interval_s);
    if let Some(i) = &r.interval {
        if length("--interval", i)? != interval {
            return Err(format!("--interval {i}: collection {name} samples every {}; a resumed collection keeps its interval", humantime::format_duration(interval)));
        }
    }
    let url = match (&r.url, info.system.as_str()) {
        (Some(u), _) if dbio_db::url::redact(u) != info.source => {
            return Err(format!("--url {}: collection {name} samples {}; give the same database (or none: its URL is used, with the password from PGPASSWORD, ~/.pgpass or the URL)", dbio_db::url::redact(u), info.source));
        }
        (Some(u), _) => Some(u.clone()),
        (None, "diskstats") => None,
        _ if info.source.contains(":***@") => {
            return Err(format!("collection {name} samples {}, whose password is not kept: give --url with it again", info.source));
        }
        _ => Some(info.source.clone()),
    };
    let elapsed = c.last_ms.map_or(0.0, |last| {
        (last as f64 / 1000.0) - started_secs(&info.started_at).unwrap_or(last as f64 / 1000.0)
    });
    let duration = match (&r.duration, info.duration_s) {
        (Some(d), _) => Some(length("--duration", d)?),
        (None, Some(total)) if total - elapsed >= info.interval_s => {
            Some(Duration::from_secs_f64(total - elapsed))
        }
        (None, Some(_)) => {
            return Err(format!(
            "collection {name} has run its whole duration; give --duration to collect for longer"
        ))
        }
        (None, None) => None,
    };
    let base = c.base.as_deref().map(base_of).transpose().map_err(|e| {
        format!("collection {name}: its last snapshot cannot be read ({e}); start a new collection")
    })?;
    let sampler =
        Sampler::start(url.as_deref(), info.devices.clone(), base).map_err(|e| e.to_string())?;
    let writer = store.resume_collection(&c).map_err(|e| e.to_string())?;
    store
        .set_state(writer.id(), &dbio_store::collections::collecting())
        .map_err(|e| e.to_string())?;
    Ok(Begun {
        sampler,
        info,
        interval,
        duration,
        keep: Kept::Store { store, writer },
    })
}

/// The message for a collection the history does not have, naming those it has.
pub fn no_collection(store: &Store, name: &str) -> String {
    match store.collection_names() {
        Ok(names) if !names.is_empty() => format!(
            "no collection named {name} in {}; it has: {}",
            store.path().display(),
            names
                .iter()
                .take(10)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!("no collection named {name} in {}", store.path().display()),
    }
}

/// Unix seconds of an RFC 3339 time.
fn started_secs(t: &str) -> Option<f64> {
    humantime::parse_rfc3339(t)
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::super::base_json;
    use super::*;

    #[test]
    fn a_base_round_trips() {
        let s = dbio_db::snapshot::Snapshot::new("postgresql", "postgres://u@h/db");
        let (back, t) = base_of(&base_json(&(s.clone(), 42))).unwrap();
        assert_eq!((back, t), (s, 42));
    }
}
