//! `dbio collect --hosts`: one collection on each host at once, over the fleet's OpenSSH path.
//! Each host's dbio samples its own database, devices and CPU and writes its samples as JSON
//! lines; this dbio stores each host's as a collection of its own (NAME@HOST) as they arrive.
//! Ctrl-C closes every session's input, and each host keeps its part interval and ends.

use super::setup::{named, CollectRequest};
use crate::fleet::hosts::{parse_hosts, Host};
use crate::fleet::ssh::{command, dbio_not_found, SshSetup};
use dbio_model::collect::{CollectionInfo, Sample};
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// How to reach the hosts, and where their samples are kept.
pub struct Fleet {
    pub hosts: Vec<String>,
    pub remote_dbio: Option<String>,
    pub ssh_config: Option<String>,
    /// `--db`: the history (each host's collection goes there).
    pub db: Option<String>,
}

/// How one host's collection ended: its collection's name (once it began) and its state,
/// or why it failed.
pub struct HostEnded {
    pub host: String,
    pub collection: Option<String>,
    pub ended: Result<String, String>,
}

/// Runs the collection on every host until each ends; `shown` is told the samples stored so
/// far on each host, in one line, five times a second.
pub fn collect_on_hosts(
    r: &CollectRequest,
    f: &Fleet,
    stop: &AtomicBool,
    shown: &mut dyn FnMut(&str),
) -> Result<Vec<HostEnded>, String> {
    if r.resume.is_some() || r.exports.is_some() {
        return Err(
            "--hosts starts a new collection on each host; --resume and --exports are for one"
                .into(),
        );
    }
    let hosts = parse_hosts(&f.hosts, None).map_err(|e| e.to_string())?;
    // Every host's store opens before any host starts: a history that cannot be used stops
    // the whole collection first.
    dbio_store::lookup::open(f.db.as_deref()).map_err(|e| e.to_string())?;
    let name = named(r.name.as_deref(), &crate::fleet::rfc3339(SystemTime::now()))?;
    let setup = SshSetup {
        ssh: std::env::var("DBIO_SSH").unwrap_or_else(|_| "ssh".into()),
        config: f.ssh_config.clone(),
        remote_dbio: f.remote_dbio.clone().unwrap_or_else(|| "dbio".into()),
    };
    let args = remote_args(r, &name);
    let mut inputs = Vec::new();
    let mut threads = Vec::new();
    let counts: Vec<Arc<AtomicU64>> = hosts.iter().map(|_| Arc::new(AtomicU64::new(0))).collect();
    for (host, count) in hosts.iter().zip(&counts) {
        let mut child = command(&setup, host, &args)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", setup.ssh))?;
        let mut input = child.stdin.take();
        if let (Some(url), Some(i)) = (&r.url, input.as_mut()) {
            // The URL (and its password) goes through the session, not the command line.
            let _ = std::io::Write::write_all(i, format!("{url}\n").as_bytes());
        }
        inputs.push(input);
        let (host, setup, db, name) = (host.clone(), setup.clone(), f.db.clone(), name.clone());
        let count = count.clone();
        threads.push(std::thread::spawn(move || {
            one_host(child, &host, &setup, db.as_deref(), &name, &count)
        }));
    }
    while threads.iter().any(|t| !t.is_finished()) {
        if stop.load(Ordering::Relaxed) {
            inputs.iter_mut().for_each(|i| drop(i.take()));
        }
        let now: Vec<String> = hosts
            .iter()
            .zip(&counts)
            .map(|(h, c)| format!("{} {}", h.name, c.load(Ordering::Relaxed)))
            .collect();
        shown(&format!("samples stored: {}", now.join(", ")));
        std::thread::sleep(Duration::from_millis(200));
    }
    Ok(threads
        .into_iter()
        .map(|t| t.join().expect("a host's thread does not panic"))
        .collect())
}

/// The remote command's words after the dbio program.
fn remote_args(r: &CollectRequest, name: &str) -> Vec<String> {
    let mut a: Vec<String> = ["collect", "--emit", "--quiet", "--name", name]
        .map(String::from)
        .to_vec();
    a.extend(["--device".into(), r.device.clone()]);
    if r.url.is_some() {
        a.extend(["--url".into(), "-".into()]);
    }
    for (flag, v) in [("--interval", &r.interval), ("--duration", &r.duration)] {
        if let Some(v) = v {
            a.extend([flag.to_string(), v.clone()]);
        }
    }
    a
}

/// Reads one host's samples and stores them as NAME@HOST until its session ends.
fn one_host(
    mut child: std::process::Child,
    host: &Host,
    setup: &SshSetup,
    db: Option<&str>,
    name: &str,
    count: &AtomicU64,
) -> HostEnded {
    let mut err = child.stderr.take().expect("piped");
    let said = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let stored = store_lines(lines, host, db, name, count);
    let status = child.wait().ok().and_then(|s| s.code());
    let said = said.join().unwrap_or_default();
    let collection = stored.as_ref().ok().and_then(|s| s.0.clone());
    let why = |what: String| HostEnded {
        host: host.name.clone(),
        collection: collection.clone(),
        ended: Err(what),
    };
    match (stored, status) {
        (Err(e), _) => why(e),
        (Ok((Some(c), Some(state))), _) => HostEnded {
            host: host.name.clone(),
            collection: Some(c),
            ended: Ok(state),
        },
        (Ok(_), Some(127)) => why(dbio_not_found(setup, host)),
        (Ok(_), code) => why(format!(
            "its session ended ({}): {}",
            code.map_or("no status".into(), |c| format!("status {c}")),
            said.trim().lines().next().unwrap_or("nothing said")
        )),
    }
}

/// Stores the JSON lines of one host; its collection's name and final state (None when the
/// session ended before saying it).
fn store_lines(
    lines: impl Iterator<Item = std::io::Result<String>>,
    host: &Host,
    db: Option<&str>,
    name: &str,
    count: &AtomicU64,
) -> Result<(Option<String>, Option<String>), String> {
    let store = dbio_store::lookup::open(db).map_err(|e| e.to_string())?;
    let mut writer = None;
    let mut collection = None;
    for line in lines.map_while(Result::ok) {
        let v: serde_json::Value = serde_json::from_str(&line)
            .map_err(|e| format!("not a sample from dbio ({e}): {line}"))?;
        if let Some(info) = v.get("info") {
            let mut info: CollectionInfo =
                serde_json::from_value(info.clone()).map_err(|e| e.to_string())?;
            info.name = format!("{name}@{}", host.name);
            info.host = host.name.clone();
            let w = store.create_collection(&info).map_err(|e| e.to_string())?;
            let state = dbio_store::collections::collecting();
            store.set_state(w.id(), &state).map_err(|e| e.to_string())?;
            writer = Some(w);
            collection = Some(info.name);
        } else if let (Some(s), Some(w)) = (v.get("sample"), writer.as_mut()) {
            let s: Sample = serde_json::from_value(s.clone()).map_err(|e| e.to_string())?;
            store.add_sample(w, &s, None).map_err(|e| e.to_string())?;
            count.fetch_add(1, Ordering::Relaxed);
        } else if let (Some(state), Some(w)) =
            (v.get("end").and_then(|e| e.as_str()), writer.as_ref())
        {
            store.set_state(w.id(), state).map_err(|e| e.to_string())?;
            return Ok((collection, Some(state.to_string())));
        }
    }
    if let Some(w) = &writer {
        let _ = store.set_state(w.id(), "stopped: the host's session ended");
    }
    Ok((collection, None))
}
