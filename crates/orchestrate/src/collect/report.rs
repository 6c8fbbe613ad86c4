//! A stored collection read back, one sample at a time: summed up for `dbio collect
//! --report`, or the objects' counts over a window for `dbio advise NAME --window`.

use super::setup::no_collection;
use dbio_analyze::collect::{choose, Chosen, Cluster, Sum, Summary, Window};
use dbio_db::gather::Gathered;
use dbio_db::snapshot::{Counts, IoWait};
use dbio_model::collect::{CollectionInfo, CollectionReport};
use dbio_store::collections::{Collection, KEEP_FULL_MS, ROLLUP_MS};
use dbio_store::Store;

/// An hour: the length of a report's peaks.
const HOUR_MS: u64 = 3_600_000;

fn find(store: &Store, name: &str) -> Result<Collection, String> {
    store
        .collection(name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| no_collection(store, name))
}

/// The collection `name` summed up; when there is none of that name but a fleet's
/// (NAME@HOST, from `dbio collect --hosts`), its hosts summed up as one cluster.
pub fn report(store: &Store, name: &str) -> Result<CollectionReport, String> {
    let c = match store.collection(name).map_err(|e| e.to_string())? {
        Some(c) => c,
        None => return cluster(store, name),
    };
    if c.samples == 0 {
        return Err(format!(
            "collection {name} has no sample yet ({}): a sample is stored at the end of each interval",
            c.state
        ));
    }
    let mut sum = Summary::default();
    store
        .each_sample(c.id, |s| sum.add(&s))
        .map_err(|e| e.to_string())?;
    let state = dbio_store::collections::shown_state(&c.state, name);
    Ok(sum.finish(c.info, state, HOUR_MS))
}

/// The collections NAME@HOST of fleet collection `name`, by host.
fn members(store: &Store, name: &str) -> Result<Vec<Collection>, String> {
    let names = store.collection_names().map_err(|e| e.to_string())?;
    let of_fleet = |n: &&String| n.strip_prefix(name).is_some_and(|h| h.starts_with('@'));
    let mut hosts: Vec<Collection> = Vec::new();
    for n in names.iter().filter(of_fleet) {
        hosts.push(find(store, n)?);
    }
    if hosts.is_empty() {
        return Err(no_collection(store, name));
    }
    hosts.sort_by(|a, b| a.info.name.cmp(&b.info.name));
    Ok(hosts)
}

/// Fleet collection `name`'s hosts summed up interval by interval (see [`Cluster`]).
fn cluster(store: &Store, name: &str) -> Result<CollectionReport, String> {
    let hosts = members(store, name)?;
    let first = &hosts[0].info;
    if let Some(c) = hosts.iter().find(|c| c.info.interval_s != first.interval_s) {
        return Err(format!(
            "the hosts of collection {name} sample at different intervals ({} every {} s, {} every {} s): report each with --report NAME@HOST",
            first.name, first.interval_s, c.info.name, c.info.interval_s
        ));
    }
    // Every host's samples up to the latest of their roll-ups are summed per 10 minutes.
    let split = (hosts.iter().filter_map(|c| c.last_ms))
        .map(|t| t.saturating_sub(KEEP_FULL_MS) / ROLLUP_MS * ROLLUP_MS)
        .max()
        .unwrap_or(0);
    let mut cl = Cluster::new(first.interval_s, split, ROLLUP_MS);
    let host_of = |c: &Collection| c.info.name[name.len() + 1..].to_string();
    for c in &hosts {
        let h = cl.add_host(&host_of(c));
        store
            .each_sample(c.id, |s| cl.add(h, &s))
            .map_err(|e| e.to_string())?;
    }
    let mut sum = Summary::default();
    cl.samples().for_each(|s| sum.add(&s));
    let names: Vec<String> = hosts.iter().map(host_of).collect();
    let systems: Vec<&str> = hosts.iter().map(|c| c.info.system.as_str()).collect();
    let info = CollectionInfo {
        name: name.to_string(),
        system: match systems.iter().all(|s| *s == systems[0]) {
            true => systems[0].to_string(),
            false => "mixed".into(),
        },
        source: format!(
            "of {} hosts summed (\"all hosts\": their devices' sum, busy the busiest's; host CPU the busiest host's; server CPUs summed; each host's database one object)",
            hosts.len()
        ),
        host: names.join(", "),
        interval_s: first.interval_s,
        duration_s: first.duration_s,
        devices: Vec::new(),
        started_at: (hosts.iter().map(|c| c.info.started_at.clone()))
            .min()
            .unwrap_or_default(),
        from_exports: hosts.iter().all(|c| c.info.from_exports),
    };
    let mut r = sum.finish(info, states(&hosts, &names), HOUR_MS);
    if r.samples == 0 {
        return Err(format!("collection {name}: its hosts have no sample yet"));
    }
    r.info.devices = r.devices.iter().map(|d| d.name.clone()).collect();
    Ok(r)
}

/// How the hosts' collections stand: one word when they agree, else host by host.
fn states(hosts: &[Collection], names: &[String]) -> String {
    let shown: Vec<String> = (hosts.iter())
        .map(|c| dbio_store::collections::shown_state(&c.state, &c.info.name))
        .collect();
    if shown.iter().all(|s| *s == shown[0]) {
        return shown[0].clone();
    }
    (names.iter().zip(&shown))
        .map(|(n, s)| format!("{n}: {s}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The objects' counts of collection `name` over window `w` (and, unless `w` is the whole
/// collection, over all of it, to say where the choices differ), as `dbio advise` takes them.
pub fn window_counts(
    store: &Store,
    name: &str,
    w: &Window,
) -> Result<(Gathered, Option<Gathered>), String> {
    let Some(c) = store.collection(name).map_err(|e| e.to_string())? else {
        let hosts = members(store, name)?;
        return Err(format!(
            "collection {name} is a fleet's: dbio advise places one database's objects; name one host's, e.g. {}",
            hosts[0].info.name
        ));
    };
    let r = report(store, name)?;
    // The window and, unless it is the whole collection, all of it: summed in one pass.
    let mut windows = vec![(choose(w, &r)?, Sum::default())];
    if *w != Window::All {
        windows.push((choose(&Window::All, &r)?, Sum::default()));
    }
    store
        .each_sample(c.id, |s| {
            windows.iter_mut().for_each(|(c, sum)| sum.add(c, &s))
        })
        .map_err(|e| e.to_string())?;
    let of = |(c, sum): (Chosen, Sum)| -> Gathered {
        let (secs, io_wait) = (sum.secs, sum.io_wait);
        let mut notes = vec![format!(
            "the counts of {} of collection {name}: {} of its {} samples, {:.0} s",
            c.label,
            c.ends.len(),
            r.samples,
            secs
        )];
        notes.extend(events_in(&r, &c));
        Gathered {
            counts: Counts {
                objects: sum.objects(),
                secs,
                since_start: false,
                io_wait: io_wait.map(|(io_ms, busy_ms)| IoWait { io_ms, busy_ms }),
                notes,
            },
            system: r.info.system.clone(),
            name: format!("collection {name} ({})", r.info.source),
            interrupted: None,
        }
    };
    let mut gathered = windows.into_iter().map(of);
    let chosen = gathered.next().expect("the window asked");
    Ok((chosen, gathered.next()))
}

/// The collection's events inside the window, as notes.
fn events_in(r: &CollectionReport, c: &Chosen) -> Vec<String> {
    r.events
        .iter()
        .filter(|e| c.ends.contains(&e.t_ms))
        .map(|e| {
            format!(
                "{}: {}",
                dbio_analyze::collect::window::time(e.t_ms),
                e.what
            )
        })
        .collect()
}
