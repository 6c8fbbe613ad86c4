//! fio's iolog: a first line `fio version 2 iolog` or `fio version 3 iolog`, then a line
//! per action: `FILE ACTION [OFFSET LENGTH]` (v2), with the time in microseconds since the
//! log began in front (v3). Actions: add, open, close, wait, read, write, trim, sync,
//! datasync.

use crate::event::Op;
use std::io::BufRead;

/// One line of an iolog that a trace keeps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// Microseconds since the log began (0 in version 2).
    pub us: u64,
    pub file: String,
    /// The operation, the offset and the length in bytes (none for add, open, close, wait).
    pub io: Option<(Op, u64, u64)>,
}

/// The iolog version its first line names, if it is an iolog.
pub(crate) fn version(head: &[u8]) -> Option<u8> {
    match head {
        h if h.starts_with(b"fio version 2 iolog") => Some(2),
        h if h.starts_with(b"fio version 3 iolog") => Some(3),
        _ => None,
    }
}

/// Reads an iolog line by line.
pub(crate) struct IologReader<R: BufRead> {
    input: R,
    path: String,
    pub version: u8,
    line_no: u64,
    line: String,
}

impl IologReader<std::io::BufReader<std::fs::File>> {
    pub fn open(path: &str) -> Result<Self, String> {
        let f = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        IologReader::new(std::io::BufReader::with_capacity(1 << 20, f), path)
    }
}

impl<R: BufRead> IologReader<R> {
    /// Reads the first line, which names the version.
    pub fn new(input: R, path: &str) -> Result<Self, String> {
        let mut rd = IologReader {
            input,
            path: path.to_string(),
            version: 0,
            line_no: 0,
            line: String::new(),
        };
        let first = rd.read_line()?.unwrap_or_default();
        rd.version = version(first.as_bytes()).ok_or_else(|| {
            format!("{path}: not fio's iolog v2 or v3 (its first line is {first:?})")
        })?;
        Ok(rd)
    }

    /// The next line that names a file; None at the end.
    pub fn next_entry(&mut self) -> Result<Option<Entry>, String> {
        loop {
            let Some(line) = self.read_line()? else {
                return Ok(None);
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            return self.entry(&words).map(Some);
        }
    }

    fn entry(&self, w: &[&str]) -> Result<Entry, String> {
        let bad = |what: &str| format!("{}: line {}: {what}", self.path, self.line_no);
        let num = |s: &str| {
            s.parse::<u64>()
                .map_err(|_| bad(&format!("{s:?} is not a number")))
        };
        let (us, w) = match self.version {
            3 => (num(w[0])?, &w[1..]),
            _ => (0, w),
        };
        let [file, action, rest @ ..] = w else {
            return Err(bad("a file and an action expected"));
        };
        let op = match *action {
            "read" => Op::Read,
            "write" => Op::Write,
            "trim" => Op::Discard,
            "sync" | "datasync" => Op::Flush,
            "add" | "open" | "close" | "wait" => {
                return Ok(Entry {
                    us,
                    file: file.to_string(),
                    io: None,
                })
            }
            other => return Err(bad(&format!("unknown action {other:?}"))),
        };
        let (offset, len) = match rest {
            // fio writes where the file was when it synced: a flush has no extent.
            _ if op == Op::Flush => (0, 0),
            [o, l, ..] => (num(o)?, num(l)?),
            _ => return Err(bad("an offset and a length expected")),
        };
        if offset % 512 != 0 || len % 512 != 0 {
            return Err(bad(&format!(
                "offset {offset} or length {len} is not a multiple of 512 bytes (a dbio trace holds 512-byte sectors)"
            )));
        }
        Ok(Entry {
            us,
            file: file.to_string(),
            io: Some((op, offset, len)),
        })
    }

    fn read_line(&mut self) -> Result<Option<String>, String> {
        self.line.clear();
        let n =
            (self.input.read_line(&mut self.line)).map_err(|e| format!("{}: {e}", self.path))?;
        self.line_no += 1;
        Ok((n > 0).then(|| self.line.trim_end().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Result<Vec<Entry>, String> {
        let mut rd = IologReader::new(text.as_bytes(), "t.iolog")?;
        let mut v = Vec::new();
        while let Some(e) = rd.next_entry()? {
            v.push(e);
        }
        Ok(v)
    }

    #[test]
    fn version_3_lines_keep_their_times() {
        let v = entries(
            "fio version 3 iolog\n17 /dev/loop0 add\n174 /dev/loop0 open\n\
             179 /dev/loop0 read 4046848 4096\n221 /dev/loop0 write 31539200 8192\n\
             300 /dev/loop0 sync 0 0\n310 /dev/loop0 trim 1048576 1048576\n436 /dev/loop0 close\n",
        )
        .unwrap();
        let io: Vec<_> = v.iter().filter_map(|e| e.io.map(|io| (e.us, io))).collect();
        assert_eq!(
            io,
            [
                (179, (Op::Read, 4046848, 4096)),
                (221, (Op::Write, 31539200, 8192)),
                (300, (Op::Flush, 0, 0)),
                (310, (Op::Discard, 1048576, 1048576))
            ]
        );
        assert_eq!(v.len(), 7);
    }

    #[test]
    fn version_2_lines_have_no_times() {
        let v = entries("fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n/dev/sdb read 0 4096\n/dev/sdb datasync 4097 0\n").unwrap();
        assert_eq!(
            v[2],
            Entry {
                us: 0,
                file: "/dev/sdb".into(),
                io: Some((Op::Read, 0, 4096))
            }
        );
        assert_eq!(v[3].io, Some((Op::Flush, 0, 0)));
    }

    #[test]
    fn bad_lines_are_named() {
        let e = entries("fio version 3 iolog\n1 f read 0 4096\nx f read 0 4096\n").unwrap_err();
        assert!(e.contains("t.iolog: line 3: \"x\" is not a number"), "{e}");
        let e = entries("fio version 3 iolog\n1 f read 100 4096\n").unwrap_err();
        assert!(e.contains("line 2: offset 100"), "{e}");
        let e = entries("fio version 3 iolog\n1 f frob 0 1\n").unwrap_err();
        assert!(e.contains("unknown action \"frob\""), "{e}");
        let e = entries("fio version 1 iolog\n").unwrap_err();
        assert!(e.contains("not fio's iolog v2 or v3"), "{e}");
    }
}
