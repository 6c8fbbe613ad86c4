//! A file read a buffer at a time, its JSON values parsed from the buffer one by one: a
//! result's seconds (a day of them is over 100 MB) are read without holding the whole file.

use serde::de::DeserializeOwned;
use std::cell::RefCell;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

/// Bytes read at a time (more when one value is longer); an odd few in tests, so that values
/// and numbers are cut at every place.
const CHUNK: usize = if cfg!(test) { 97 } else { 1 << 20 };

thread_local! {
    /// The last buffer this thread used, kept for its next file (no fresh pages each time).
    static SPARE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Why a value could not be read.
#[derive(Debug)]
pub enum ChunkError {
    Io(std::io::Error),
    /// Not the JSON expected there.
    Json,
}

impl From<std::io::Error> for ChunkError {
    fn from(e: std::io::Error) -> Self {
        ChunkError::Io(e)
    }
}

/// A file being read: `buf[at..end]` are its bytes not yet consumed, from offset `base + at`.
pub struct Chunks {
    file: File,
    buf: Vec<u8>,
    at: usize,
    end: usize,
    eof: bool,
    base: u64,
}

impl Chunks {
    /// `path` read from byte `from` on.
    pub fn open(path: &str, from: u64) -> std::io::Result<Self> {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(from))?;
        let mut buf = SPARE.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let keep = if cfg!(test) {
            CHUNK
        } else {
            buf.len().max(CHUNK)
        };
        buf.resize(keep, 0);
        Ok(Chunks {
            file,
            buf,
            at: 0,
            end: 0,
            eof: false,
            base: from,
        })
    }

    /// The offset in the file of the next byte not consumed.
    pub fn pos(&self) -> u64 {
        self.base + self.at as u64
    }

    /// Reads more after the bytes not consumed (moved to the front, the buffer doubled when
    /// they fill it); at the end of the file, notes it.
    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.copy_within(self.at..self.end, 0);
        self.base += self.at as u64;
        self.end -= self.at;
        self.at = 0;
        if self.end == self.buf.len() {
            self.buf.resize(self.buf.len() * 2, 0);
        }
        let n = self.file.read(&mut self.buf[self.end..])?;
        self.end += n;
        self.eof = n == 0;
        Ok(())
    }

    /// The next byte that is not whitespace (the whitespace consumed, not the byte); None at
    /// the end of the file.
    pub fn peek(&mut self) -> std::io::Result<Option<u8>> {
        loop {
            let ws = self.buf[self.at..self.end]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
                .count();
            self.at += ws;
            if self.at < self.end {
                return Ok(Some(self.buf[self.at]));
            }
            if self.eof {
                return Ok(None);
            }
            self.fill()?;
        }
    }

    /// Consumes `byte` when it is the next one that is not whitespace.
    pub fn expect(&mut self, byte: u8) -> Result<(), ChunkError> {
        if self.peek()? != Some(byte) {
            return Err(ChunkError::Json);
        }
        self.at += 1;
        Ok(())
    }

    /// The next JSON value, consumed; its bytes also go to `raw` when given.
    pub fn value<T: DeserializeOwned>(
        &mut self,
        raw: Option<&mut Vec<u8>>,
    ) -> Result<T, ChunkError> {
        self.peek()?;
        loop {
            let bytes = &self.buf[self.at..self.end];
            let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<T>();
            let got = values.next();
            let len = values.byte_offset();
            match got {
                // A value that ends where the bytes read do may go on (a number): read more.
                Some(Ok(v)) if self.eof || len < bytes.len() => {
                    if let Some(raw) = raw {
                        raw.extend_from_slice(&bytes[..len]);
                    }
                    self.at += len;
                    return Ok(v);
                }
                Some(Err(e)) if self.eof || !e.is_eof() => return Err(ChunkError::Json),
                None if self.eof => return Err(ChunkError::Json),
                _ => self.fill()?,
            }
        }
    }

    /// Each value of the JSON array that comes next, handed to `each` and dropped.
    pub fn each_in_array<T: DeserializeOwned>(
        &mut self,
        mut each: impl FnMut(T),
    ) -> Result<(), ChunkError> {
        self.expect(b'[')?;
        if self.peek()? == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            each(self.value(None)?);
            match self.peek()? {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(ChunkError::Json),
            }
        }
    }
}

impl Drop for Chunks {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        SPARE.with(|s| *s.borrow_mut() = buf);
    }
}
