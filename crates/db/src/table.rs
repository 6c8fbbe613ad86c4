//! A CSV export as a table: columns by name (case-insensitive), checked against what an
//! export of that form has, and numbers with errors that name the file, line and column.

use crate::error::DbError;

/// A CSV file with a header row. Comma-separated, or tab-separated when the header has
/// tabs and no commas (a grid pasted from SQL Server Management Studio).
pub struct Table {
    file: String,
    headers: Vec<String>,
    /// Line number and cells of each row (a record holds its cells in one buffer).
    rows: Vec<(u64, csv::StringRecord)>,
}

/// One row of a [`Table`].
pub struct Row<'a> {
    t: &'a Table,
    line: u64,
    cells: &'a csv::StringRecord,
}

impl Table {
    /// Parses `text` read from `file`.
    pub fn parse(text: &str, file: &str) -> Result<Table, DbError> {
        let text = text.trim_start_matches('\u{feff}');
        let first = text.lines().next().unwrap_or("");
        let delim = if first.contains('\t') && !first.contains(',') {
            b'\t'
        } else {
            b','
        };
        let mut r = csv::ReaderBuilder::new()
            .delimiter(delim)
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let headers: Vec<String> = r
            .headers()
            .map_err(|e| DbError::export(file, format!("cannot read the CSV header: {e}")))?
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(|e| DbError::export(file, format!("not valid CSV: {e}")))?;
            let line = rec.position().map_or(0, |p| p.line());
            if rec.iter().all(|c| c.is_empty()) {
                continue;
            }
            if rec.len() != headers.len() {
                return Err(DbError::line(
                    file,
                    line,
                    format!(
                        "{} fields where the header has {} columns",
                        rec.len(),
                        headers.len()
                    ),
                ));
            }
            rows.push((line, rec));
        }
        Ok(Table {
            file: file.to_string(),
            headers,
            rows,
        })
    }

    /// Whether the header has `col`.
    pub fn has(&self, col: &str) -> bool {
        self.headers.iter().any(|h| h == col)
    }

    /// Refuses a header that lacks one of `required` or has a column in neither list
    /// (an unnamed column, a row number, is allowed).
    pub fn check(&self, form: &str, required: &[&str], optional: &[&str]) -> Result<(), DbError> {
        if let Some(m) = required.iter().find(|c| !self.has(c)) {
            return Err(DbError::export(
                &self.file,
                format!(
                    "column {m} is missing; a {form} export has {}; `dbio advise --queries` prints the query that makes it",
                    required.join(", ")
                ),
            ));
        }
        if let Some(u) = self.headers.iter().find(|h| {
            !h.is_empty() && !required.contains(&h.as_str()) && !optional.contains(&h.as_str())
        }) {
            return Err(DbError::export(
                &self.file,
                format!(
                    "unknown column {u} for a {form} export (it has {}, and may have {}); remove it or check the export",
                    required.join(", "),
                    optional.join(", ")
                ),
            ));
        }
        if self.rows.is_empty() {
            return Err(DbError::export(
                &self.file,
                "the export has a header but no rows",
            ));
        }
        Ok(())
    }

    /// The rows in order.
    pub fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.rows.iter().map(|(line, cells)| Row {
            t: self,
            line: *line,
            cells,
        })
    }
}

impl Row<'_> {
    /// The text of `col`, "" when the table has no such column.
    pub fn text(&self, col: &str) -> &str {
        self.t
            .headers
            .iter()
            .position(|h| h == col)
            .map_or("", |i| &self.cells[i])
    }

    /// `col` as a number; empty and NULL read as None.
    pub fn opt_num(&self, col: &str) -> Result<Option<f64>, DbError> {
        let text = self.text(col);
        let s: std::borrow::Cow<str> = if text.contains(['_', ' ']) {
            text.replace(['_', ' '], "").into()
        } else {
            text.into()
        };
        if s.is_empty() || s.eq_ignore_ascii_case("null") {
            return Ok(None);
        }
        match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
            _ => Err(DbError::line(
                &self.t.file,
                self.line,
                format!(
                    "column {col} is '{}', not a count or time of zero or more",
                    self.text(col)
                ),
            )),
        }
    }

    /// `col` as a number, 0 when empty or NULL.
    pub fn num(&self, col: &str) -> Result<f64, DbError> {
        Ok(self.opt_num(col)?.unwrap_or(0.0))
    }

    /// `col` as a whole count (past 64 bits it is clamped, and sums past them are refused:
    /// `Snapshot::checked`).
    pub fn count(&self, col: &str) -> Result<u64, DbError> {
        Ok(self.num(col)?.round() as u64)
    }

    /// `col` as a count of `unit`-byte units (pages), in bytes; past 64 bits it is refused.
    pub fn bytes_of(&self, col: &str, unit: u64) -> Result<u64, DbError> {
        let n = self.count(col)?;
        n.checked_mul(unit).ok_or_else(|| {
            DbError::line(
                &self.t.file,
                self.line,
                format!(
                    "column {col} is '{}', more {unit}-byte units than 64 bits of bytes hold: check the export",
                    self.text(col)
                ),
            )
        })
    }
}
