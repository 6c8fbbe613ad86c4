//! The statements a collection needs, as each kind of store gives them.

use crate::StoreError;
use dbio_model::advise::ObjectKind;

/// A collection's row as stored: id, info (JSON), state, base, samples, last end, rolled.
pub(crate) type Row = (i64, String, String, Option<String>, i64, Option<i64>, i64);

/// A sample's data as stored, with what it adds: its end, length, data, and the objects it
/// names first (number, name, kind).
pub(crate) struct Stored<'a> {
    pub t_ms: i64,
    pub secs: f64,
    pub data: Vec<u8>,
    pub fresh: &'a [(u32, String, ObjectKind)],
}

/// The statements collections need, per kind of store; each call is one transaction.
pub(crate) trait Sql {
    fn insert(&mut self, name: &str, info: &str) -> Result<i64, StoreError>;
    fn row(&mut self, name: &str) -> Result<Option<Row>, StoreError>;
    fn names(&mut self) -> Result<Vec<String>, StoreError>;
    fn store(&mut self, id: i64, s: &Stored, base: Option<&str>) -> Result<(), StoreError>;
    /// Sets `column` (state or base) of collection `id`.
    fn set(&mut self, id: i64, column: &str, value: &str) -> Result<(), StoreError>;
    fn objects(&mut self, id: i64) -> Result<Vec<(u32, String, String)>, StoreError>;
    /// Calls `each` with (end, data) of the samples ending in (after, until], in time order.
    fn samples(
        &mut self,
        id: i64,
        after: i64,
        until: i64,
        each: &mut dyn FnMut(i64, Vec<u8>) -> Result<(), StoreError>,
    ) -> Result<(), StoreError>;
    /// Replaces the samples of each (first end, stored sum) by the sum, and marks the
    /// collection rolled up to `until`.
    fn replace(&mut self, id: i64, sums: &[(i64, Stored)], until: i64) -> Result<(), StoreError>;
}
