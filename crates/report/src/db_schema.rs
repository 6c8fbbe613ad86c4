//! What `dbio db setup` and `dbio db drop` say when they are done with dbio's schema.

/// Setup made `schema` at `url` (redacted): `tables` tables of `rows` rows; and how to
/// remove them.
pub fn set_up(schema: &str, url: &str, tables: u32, rows: u64) -> String {
    format!(
        "dbio db setup: {schema} at {url}: {tables} tables of {rows} rows, loaded and indexed; remove with `dbio db drop --url {url}`"
    )
}

/// Drop is done with `schema` at `url` (redacted): the tables it removed, or None when there
/// was no schema.
pub fn dropped(schema: &str, url: &str, tables: Option<&[String]>) -> String {
    match tables {
        None => format!("dbio db drop: nothing to drop: {url} has no schema {schema}"),
        Some(t) => format!(
            "dbio db drop: dropped {schema} ({} tables: {}) at {url}",
            t.len(),
            t.join(", ")
        ),
    }
}
