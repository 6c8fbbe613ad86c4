//! A stored collection read back, one sample at a time: summed up for `dbio collect
//! --report`, or the objects' counts over a window for `dbio advise NAME --window`.

use super::setup::no_collection;
use dbio_analyze::collect::{choose, Chosen, Sum, Summary, Window};
use dbio_db::gather::Gathered;
use dbio_db::snapshot::{Counts, IoWait};
use dbio_model::collect::CollectionReport;
use dbio_store::collections::Collection;
use dbio_store::Store;

/// An hour: the length of a report's peaks.
const HOUR_MS: u64 = 3_600_000;

fn find(store: &Store, name: &str) -> Result<Collection, String> {
    store
        .collection(name)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| no_collection(store, name))
}

/// The collection `name` summed up.
pub fn report(store: &Store, name: &str) -> Result<CollectionReport, String> {
    let c = find(store, name)?;
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

/// The objects' counts of collection `name` over window `w` (and, unless `w` is the whole
/// collection, over all of it, to say where the choices differ), as `dbio advise` takes them.
pub fn window_counts(
    store: &Store,
    name: &str,
    w: &Window,
) -> Result<(Gathered, Option<Gathered>), String> {
    let r = report(store, name)?;
    let chosen = choose(w, &r)?;
    let id = find(store, name)?.id;
    let of = |c: &Chosen| -> Result<Gathered, String> {
        let mut sum = Sum::default();
        store
            .each_sample(id, |s| sum.add(c, &s))
            .map_err(|e| e.to_string())?;
        let (secs, io_wait) = (sum.secs, sum.io_wait);
        let mut notes = vec![format!(
            "the counts of {} of collection {name}: {} of its {} samples, {:.0} s",
            c.label,
            c.ends.len(),
            r.samples,
            secs
        )];
        notes.extend(events_in(&r, c));
        Ok(Gathered {
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
        })
    };
    let all = match w {
        Window::All => None,
        _ => Some(of(&choose(&Window::All, &r)?)?),
    };
    Ok((of(&chosen)?, all))
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
