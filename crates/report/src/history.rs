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

/// The collections of `store`, newest first, a line each (empty when it has none).
pub fn collections(store: &dbio_store::Store) -> Result<String, dbio_store::StoreError> {
    let mut out = String::new();
    for name in store.collection_names()? {
        let Some(c) = store.collection(&name)? else {
            continue;
        };
        if out.is_empty() {
            out.push_str("\ncollections (dbio collect --report NAME):\n");
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
