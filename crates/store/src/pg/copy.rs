//! A field of PostgreSQL's COPY text format, written as a stream: backslash, newline,
//! carriage return and tab escaped, so that a result's JSON of any size goes to the server
//! without being held in memory.

use std::io::{self, Write};

/// Writes what it is given into the inner writer as one escaped COPY field.
pub struct Escaped<'a, W: Write>(pub &'a mut W);

impl<W: Write> Write for Escaped<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut start = 0;
        for (i, b) in buf.iter().enumerate() {
            let esc: &[u8] = match b {
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                _ => continue,
            };
            self.0.write_all(&buf[start..i])?;
            self.0.write_all(esc)?;
            start = i + 1;
        }
        self.0.write_all(&buf[start..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_characters_are_escaped() {
        let mut out = Vec::new();
        Escaped(&mut out).write_all(b"a\\b\nc\td\re").unwrap();
        assert_eq!(out, b"a\\\\b\\nc\\td\\re");
    }
}
