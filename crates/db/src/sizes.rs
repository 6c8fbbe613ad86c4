//! `--sizes FILE`: object sizes for sources that have none (AWR, saved diskstats), as a CSV
//! with a NAME and a BYTES column (other columns are ignored, so a V$DATAFILE export will do).

use crate::error::DbError;
use crate::snapshot::MAX_TOTAL;
use crate::table::Table;
use dbio_model::advise::ObjectIo;
use std::collections::HashMap;

/// The refusal of a file without the two columns.
fn no_columns(file: &str) -> DbError {
    DbError::export(
        file,
        "a sizes file needs a NAME and a BYTES column, e.g. the output of SELECT NAME, BYTES FROM V$DATAFILE",
    )
}

/// Refuses a start whose header row lacks NAME or BYTES, before the rest is read.
pub fn check_start(head: &str, file: &str) -> Result<(), DbError> {
    let first = head.lines().next().unwrap_or("");
    let cols: Vec<String> = first
        .split([',', '\t'])
        .map(|c| c.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    if cols.iter().any(|c| c == "name") && cols.iter().any(|c| c == "bytes") {
        Ok(())
    } else {
        Err(no_columns(file))
    }
}

/// The sizes by name.
pub fn parse(text: &str, file: &str) -> Result<HashMap<String, u64>, DbError> {
    let t = Table::parse(text, file)?;
    if !t.has("name") || !t.has("bytes") {
        return Err(no_columns(file));
    }
    let mut m = HashMap::new();
    let mut total = 0u64;
    for r in t.rows() {
        let bytes = r.count("bytes")?;
        total = total.saturating_add(bytes);
        if total > MAX_TOTAL {
            return Err(DbError::export(
                file,
                "the sizes add up to more than 2^62 bytes; no database is that large, so this is not a sizes file of one (or it is damaged)",
            ));
        }
        m.insert(r.text("name").to_string(), bytes);
    }
    Ok(m)
}

/// Gives each object its size from `sizes`; returns the names with no size there.
pub fn apply(objects: &mut [ObjectIo], sizes: &HashMap<String, u64>) -> Vec<String> {
    let mut missing = Vec::new();
    for o in objects {
        match sizes.get(&o.name) {
            Some(&b) => o.size_bytes = Some(b),
            None if o.size_bytes.is_none() => missing.push(o.name.clone()),
            None => {}
        }
    }
    missing
}
