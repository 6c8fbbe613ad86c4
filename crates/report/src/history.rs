//! The history as `dbio history` and `dbio show` print it: a table of stored results, and
//! a result file's summary rendered anew.

use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_store::Entry;
use std::fmt::Write;

/// The table of `dbio history`: a header, then one row per entry.
pub fn table(rows: Vec<Entry>) -> String {
    let mut out = format!(
        "{:>5}  {:<20}  {:<5}  {:<14}  {:<20}  {:>10}  {:>9}  {:>9}  {}\n",
        "id", "started (UTC)", "kind", "label", "profile", "IOPS", "MB/s", "p99 µs", "target"
    );
    for e in rows {
        let _ = writeln!(
            out,
            "{:>5}  {:<20}  {:<5}  {:<14}  {:<20}  {:>10.0}  {:>9.1}  {:>9.1}  {}",
            e.id,
            e.started_at,
            e.kind,
            e.label.unwrap_or_default(),
            e.profile,
            e.iops,
            e.mb_s,
            e.p99_us,
            e.targets
        );
    }
    out
}

/// The collections of `store` that `filter` lets through, newest first, a line each, and a
/// line for each fleet's (NAME@HOST) sum; empty when none.
pub fn collections(
    store: &dbio_store::Store,
    filter: &dbio_store::Filter,
) -> Result<String, dbio_store::StoreError> {
    // Collections have no target, profile or label: a filter on those lists none of them.
    if filter.target.is_some() || filter.profile.is_some() || filter.label.is_some() {
        return Ok(String::new());
    }
    let mut out = String::new();
    let mut fleets: Vec<(String, usize)> = Vec::new();
    for name in store.collection_names()? {
        let Some(c) = store.collection(&name)? else {
            continue;
        };
        // --since: those with a sample since (a week's collection still going is recent).
        let last = c.last_ms.map_or(c.info.started_at.clone(), |ms| {
            humantime::format_rfc3339_seconds(
                std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms),
            )
            .to_string()
        });
        if filter.since.as_deref().is_some_and(|s| last.as_str() < s) {
            continue;
        }
        if out.is_empty() {
            out.push_str("\ncollections (dbio collect --report NAME):\n");
        }
        if let Some((fleet, _)) = name.rsplit_once('@') {
            match fleets.iter_mut().find(|f| f.0 == fleet) {
                Some(f) => f.1 += 1,
                None => fleets.push((fleet.to_string(), 1)),
            }
        }
        let _ = writeln!(
            out,
            "  {:<28}  {:<10}  {:>7} samples  from {}  {}  {}",
            c.info.name,
            c.info.system,
            c.samples,
            c.info.started_at,
            dbio_store::collections::shown_state(&c.state, &c.info.name),
            c.info.source
        );
    }
    for (fleet, n) in fleets {
        if store.collection(&fleet)?.is_some() {
            continue;
        }
        let _ = writeln!(
            out,
            "  {fleet:<28}  the {n} hosts' collections {fleet}@HOST summed (--report {fleet})"
        );
    }
    Ok(out)
}

/// The summary of a run or sweep result's JSON, rendered anew (a result file keeps no
/// printed summary): each sweep step's after its value. None when it is neither.
pub fn summary_of_json(json: &str) -> Option<String> {
    if let Ok(r) = serde_json::from_str::<RunResult>(json) {
        return Some(crate::text::summary(&r));
    }
    let s = serde_json::from_str::<SweepResult>(json).ok()?;
    Some(
        s.values
            .iter()
            .zip(&s.steps)
            .map(|(v, r)| format!("step {}={v}:\n{}\n", s.vary, crate::text::summary(r)))
            .collect(),
    )
}
