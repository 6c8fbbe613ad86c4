//! Results as JSON (schemas under `schema/`).

use serde::Serialize;

/// Pretty-printed JSON of a result, ending in a newline.
pub fn to_json<T: Serialize>(r: &T) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("a result always serialises");
    s.push('\n');
    s
}
