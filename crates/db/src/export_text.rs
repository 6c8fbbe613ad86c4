//! The text of a file `dbio advise` reads (an export, a `--sizes` file, a `--since`
//! snapshot), read as a stream with bounds: UTF-8 or UTF-16 (with its byte-order mark, or
//! little-endian without one, as `bcp -w` writes it), no binary bytes, lines of at most
//! [`MAX_LINE`] bytes, at most [`MAX_BYTES`] in all, and a start its caller recognises. A
//! file that is none of these is refused from its first block, whatever its size.

use std::fs::File;
use std::io::Read;

/// Bytes looked at first: the encoding, whether it is text, and the caller's check.
const HEAD: usize = 64 * 1024;
/// The longest line of a CSV or text export (a JSON snapshot has no limit but the total).
pub const MAX_LINE: usize = 1 << 20;
/// The largest file read: 100,000 objects take about 15 MB as a CSV export.
pub const MAX_BYTES: u64 = 1 << 30;

/// Why a file was not read as an export's text; each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// The file cannot be opened or read.
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A folder, a device or a pipe.
    #[error("{path}: not a regular file; give an export file")]
    NotFile { path: String },
    /// Past [`MAX_BYTES`] (`bytes` is its size, or what was read of it).
    #[error("{path}: {bytes} bytes, more than the {mib} MiB an export may have (100,000 objects take about 15 MB); give the export of one database or instance", mib = MAX_BYTES >> 20)]
    TooBig { path: String, bytes: u64 },
    /// A line past the longest an export has.
    #[error("{path}: line {line} is longer than {kib} KiB: not an export (its lines are a header and one row per object); check that this is the file meant")]
    LongLine { path: String, line: u64, kib: usize },
    /// Binary bytes, or broken UTF-8 or UTF-16.
    #[error("{path}: not text ({what}): dbio advise reads text exports (CSV, an AWR text report, /proc/diskstats, a dbio advise snapshot) in UTF-8 or UTF-16; `dbio advise --queries` prints the queries that make them")]
    NotText { path: String, what: String },
    /// The start is not of the form the caller expects; the caller's message.
    #[error("{0}")]
    Start(String),
}

/// How the bytes encode the text.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// Reads `path` as text. `check` gets the text of the first block (up to 64 KiB) and
/// refuses a start that is not of the expected form, with its message.
pub fn read<E: std::fmt::Display>(
    path: &str,
    check: impl Fn(&str) -> Result<(), E>,
) -> Result<String, TextError> {
    let io = |source| TextError::Io {
        path: path.to_string(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(TextError::NotFile { path: path.into() });
    }
    let mut f = File::open(path).map_err(io)?;
    let head = fill(&mut f, HEAD).map_err(io)?;
    let (enc, bom) = encoding(&head);
    let mut text = Text::new(path, enc);
    text.push(&head[bom..], head.len() < HEAD)?;
    text.out = text.out.trim_start_matches('\u{feff}').to_string();
    check(&text.out).map_err(|e| TextError::Start(e.to_string()))?;
    if meta.len() > MAX_BYTES {
        return Err(too_big(path, meta.len()));
    }
    if text.out.trim_start().starts_with('{') {
        text.max_line = usize::MAX;
    }
    // Counted as read too: a file that grows, or one whose size says 0 (/proc, a pipe's
    // folder entry), is held to the same bound.
    let mut read = head.len() as u64;
    loop {
        let block = fill(&mut f, HEAD).map_err(io)?;
        read += block.len() as u64;
        if read > MAX_BYTES {
            return Err(too_big(path, read));
        }
        let last = block.len() < HEAD;
        text.push(&block, last)?;
        if last {
            return Ok(text.out);
        }
    }
}

/// The refusal of a file past [`MAX_BYTES`] (`bytes` is its size, or what was read of it).
fn too_big(path: &str, bytes: u64) -> TextError {
    TextError::TooBig {
        path: path.into(),
        bytes,
    }
}

/// Up to `n` bytes, fewer only at the end of the file.
fn fill(f: &mut File, n: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(n);
    f.take(n as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

/// The encoding of a file starting with `head`, and the length of its byte-order mark.
fn encoding(head: &[u8]) -> (Encoding, usize) {
    match head {
        [0xEF, 0xBB, 0xBF, ..] => (Encoding::Utf8, 3),
        [0xFF, 0xFE, ..] => (Encoding::Utf16Le, 2),
        [0xFE, 0xFF, ..] => (Encoding::Utf16Be, 2),
        _ if utf16le_without_bom(head) => (Encoding::Utf16Le, 0),
        _ => (Encoding::Utf8, 0),
    }
}

/// Whether the start is UTF-16LE text of mostly ASCII (a CSV header is): at least three
/// in four characters a byte then a zero, and no zero character.
fn utf16le_without_bom(head: &[u8]) -> bool {
    let start = &head[..head.len().min(256) & !1];
    let pairs = start.len() / 2;
    let ascii = start.chunks(2).filter(|p| p[0] != 0 && p[1] == 0).count();
    pairs >= 2 && !start.chunks(2).any(|p| p == [0, 0]) && ascii * 4 >= pairs * 3
}

/// The text decoded so far, checked as it grows.
struct Text<'a> {
    path: &'a str,
    enc: Encoding,
    /// Bytes of a character split across two blocks.
    carry: Vec<u8>,
    out: String,
    line: u64,
    line_len: usize,
    max_line: usize,
}

impl<'a> Text<'a> {
    fn new(path: &'a str, enc: Encoding) -> Text<'a> {
        Text {
            path,
            enc,
            carry: Vec::new(),
            out: String::new(),
            line: 1,
            line_len: 0,
            max_line: MAX_LINE,
        }
    }

    /// Decodes and checks the next block; `last` when the file ends with it.
    fn push(&mut self, block: &[u8], last: bool) -> Result<(), TextError> {
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.extend_from_slice(block);
        let piece = match self.enc {
            Encoding::Utf8 => self.utf8(bytes, last)?,
            _ => self.utf16(bytes, last)?,
        };
        self.check(&piece)?;
        self.out.push_str(&piece);
        Ok(())
    }

    fn utf8(&mut self, mut bytes: Vec<u8>, last: bool) -> Result<String, TextError> {
        match std::str::from_utf8(&bytes) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() && !last => {
                self.carry = bytes.split_off(e.valid_up_to());
            }
            Err(e) => {
                let at = self.out.len() + e.valid_up_to();
                return Err(self.binary(&format!("bytes that are not UTF-8 text at byte {at}")));
            }
        }
        Ok(String::from_utf8(bytes).expect("checked above"))
    }

    fn utf16(&mut self, mut bytes: Vec<u8>, last: bool) -> Result<String, TextError> {
        if bytes.len() % 2 == 1 && !last {
            self.carry = bytes.split_off(bytes.len() - 1);
        }
        let mut units: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|p| match self.enc {
                Encoding::Utf16Be => u16::from_be_bytes([p[0], p[1]]),
                _ => u16::from_le_bytes([p[0], p[1]]),
            })
            .collect();
        if !last && units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
            let high = units.pop().expect("a last unit");
            let b = match self.enc {
                Encoding::Utf16Be => high.to_be_bytes(),
                _ => high.to_le_bytes(),
            };
            self.carry.splice(0..0, b);
        }
        if last && bytes.len() % 2 == 1 {
            return Err(self.binary("an odd number of bytes for UTF-16 text"));
        }
        String::from_utf16(&units).map_err(|_| self.binary("a broken UTF-16 character"))
    }

    /// Refuses binary bytes and over-long lines.
    fn check(&mut self, piece: &str) -> Result<(), TextError> {
        for &b in piece.as_bytes() {
            if b == b'\n' {
                self.line += 1;
                self.line_len = 0;
                continue;
            }
            if b < 0x20 && !matches!(b, b'\t' | b'\r' | 0x0c | 0x1a) {
                return Err(self.binary(&format!("a control byte 0x{b:02x} on line {}", self.line)));
            }
            self.line_len += 1;
            if self.line_len > self.max_line {
                return Err(TextError::LongLine {
                    path: self.path.into(),
                    line: self.line,
                    kib: self.max_line >> 10,
                });
            }
        }
        Ok(())
    }

    /// The refusal of a file that is not text.
    fn binary(&self, what: &str) -> TextError {
        TextError::NotText {
            path: self.path.into(),
            what: what.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(bytes: &[u8], block: usize) -> Result<String, TextError> {
        let (enc, bom) = encoding(bytes);
        let mut t = Text::new("f", enc);
        let body = &bytes[bom..];
        let n = body.chunks(block).count();
        for (i, c) in body.chunks(block).enumerate() {
            t.push(c, i + 1 == n)?;
        }
        Ok(t.out)
    }

    /// Characters split across blocks (UTF-8 of 2 to 4 bytes, a UTF-16 surrogate pair) come
    /// out whole, whatever the block size.
    #[test]
    fn characters_across_blocks_are_decoded_whole() {
        let s = "name,bytes\nÅsa €,1\n𝄞x,2\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(s.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(s.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        let bare: Vec<u8> = s.encode_utf16().flat_map(u16::to_le_bytes).collect();
        for block in 1..8 {
            assert_eq!(text_of(s.as_bytes(), block).unwrap(), s);
            assert_eq!(text_of(&le, block).unwrap(), s, "{block}");
            assert_eq!(text_of(&be, block).unwrap(), s, "{block}");
            assert_eq!(text_of(&bare, block).unwrap(), s, "{block}");
        }
    }

    #[test]
    fn binary_and_broken_text_are_refused() {
        assert!(text_of(&[0; 100], 7)
            .unwrap_err()
            .to_string()
            .contains("control byte 0x00"));
        assert!(text_of(b"a,b\n\xff\xfe\xfd", 3)
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
        assert!(text_of(b"a,b\n\xc3", 64)
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
        assert!(text_of(&[0xFF, 0xFE, b'a', 0, b'b'], 64)
            .unwrap_err()
            .to_string()
            .contains("odd number"));
        assert!(text_of(&[0xFF, 0xFE, 0x00, 0xD8, b'a', 0], 64)
            .unwrap_err()
            .to_string()
            .contains("broken UTF-16"));
    }
}
