//! Results as JSON (schemas under `schema/`).

use serde::Serialize;
use std::io::{self, Write};

/// Pretty-printed JSON of a result, ending in a newline.
pub fn to_json<T: Serialize>(r: &T) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("a result always serialises");
    s.push('\n');
    s
}

/// Writes the JSON of `r` to `w` byte for byte as [`to_json`] makes it, without holding the
/// text (a spilled sweep reads its steps back one at a time meanwhile). `w` should buffer.
pub fn write_json<T: Serialize + ?Sized>(r: &T, w: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, r)?;
    w.write_all(b"\n")
}

/// A result whose JSON can be written as a stream, as [`write_json`] writes it: any
/// serializable result, also behind `&dyn` (for callers without serde).
pub trait ToJson {
    /// Writes the JSON to `w`, byte for byte as [`to_json`] makes it.
    fn write_json(&self, w: &mut dyn Write) -> io::Result<()>;
}

impl<T: Serialize + ?Sized> ToJson for T {
    fn write_json(&self, w: &mut dyn Write) -> io::Result<()> {
        write_json(self, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::sweep::SweepResult;

    /// Written as a stream, the JSON is the text `to_json` makes.
    #[test]
    fn written_json_is_to_json() {
        let s: SweepResult =
            serde_json::from_str(include_str!("../tests/fixtures/sweep-bs.json")).unwrap();
        let mut out = Vec::new();
        write_json(&s, &mut io::BufWriter::new(&mut out)).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), to_json(&s));
    }
}
