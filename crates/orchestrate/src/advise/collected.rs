//! `dbio advise NAME --window W`: placing objects by a window of a collection, and saying
//! where the choice differs from the whole collection's.

use dbio_analyze::collect::Window;
use dbio_db::gather::{GatherError, Gathered};
use dbio_model::advise::AdviseResult;

/// Whether the history at `db` holds a collection named `name`, or a fleet's of that name
/// (its hosts' NAME@HOST).
pub fn exists(name: &str, db: Option<&str>) -> bool {
    let Ok(Some(s)) = dbio_store::lookup::open_existing(db) else {
        return false;
    };
    // A fleet's name (its hosts' NAME@HOST) too, for advise to say which to give.
    let fleet = format!("{name}@");
    matches!(s.collection(name), Ok(Some(_)))
        || s.collection_names()
            .is_ok_and(|n| n.iter().any(|n| n.starts_with(&fleet)))
}

/// The counts of window `w` of collection `name`, and of the whole collection unless `w`
/// is all of it; an error names a history or a collection that is not there (bad input) or
/// one that cannot be read.
pub fn counts(
    name: &str,
    w: &Window,
    db: Option<&str>,
) -> Result<(Gathered, Option<Gathered>), GatherError> {
    let store = dbio_store::lookup::open_existing(db)
        .map_err(|e| GatherError::Failed(e.to_string()))?
        .ok_or_else(|| GatherError::Input(dbio_store::lookup::no_history(db)))?;
    crate::collect::window_counts(&store, name, w).map_err(GatherError::Input)
}

/// Where the window's choice differs from the whole collection's, in one line.
pub fn differs(window: &AdviseResult, whole: &AdviseResult) -> String {
    let moved = |r: &AdviseResult| -> Vec<String> {
        r.placement
            .as_ref()
            .map(|p| p.to_move.iter().map(|m| m.name.clone()).collect())
            .unwrap_or_default()
    };
    let (w, a) = (moved(window), moved(whole));
    if window.placement.is_none() {
        let top = |r: &AdviseResult| r.objects.first().map(|o| o.name.clone());
        return match (top(window), top(whole)) {
            (x, y) if x == y => {
                "ranked over the whole collection, the same object comes first".into()
            }
            (_, Some(y)) => {
                format!("ranked over the whole collection, {y} would come first instead")
            }
            _ => "the whole collection has no I/O to rank".into(),
        };
    }
    let only_w: Vec<&str> = w
        .iter()
        .filter(|n| !a.contains(n))
        .map(String::as_str)
        .collect();
    let only_a: Vec<&str> = a
        .iter()
        .filter(|n| !w.contains(n))
        .map(String::as_str)
        .collect();
    if only_w.is_empty() && only_a.is_empty() {
        "the whole collection's counts choose the same objects to move".into()
    } else {
        format!(
            "placed by the whole collection instead, dbio would move {} and not {}",
            list(&only_a),
            list(&only_w)
        )
    }
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "nothing else".into()
    } else {
        names.join(", ")
    }
}
