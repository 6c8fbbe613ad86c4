//! A second's latency histogram as a result carries it: the interval-log text, held in memory
//! or, while a run goes on, in the process's spill file, so that a run's memory does not grow
//! with its seconds (an hour of them is megabytes of text).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::{Mutex, OnceLock};

/// One second's histogram in HdrHistogram's interval-log encoding (see
/// [`super::Encoder::encode_second`]); serialized as that text wherever it is kept.
#[derive(Clone)]
pub struct SecondHist(Repr);

#[derive(Clone)]
enum Repr {
    Text(String),
    /// `len` bytes at `at` in the process's [`Spill`].
    Spilled {
        at: u64,
        len: u32,
    },
}

/// An unlinked temporary file the seconds' texts are appended to; it goes when the process
/// does.
struct Spill {
    file: File,
    end: Mutex<u64>,
}

/// The process's spill file, made on first use; None when no temporary file can be made.
fn spill() -> Option<&'static Spill> {
    static SPILL: OnceLock<Option<Spill>> = OnceLock::new();
    SPILL
        .get_or_init(|| {
            tempfile::tempfile().ok().map(|file| Spill {
                file,
                end: Mutex::new(0),
            })
        })
        .as_ref()
}

impl SecondHist {
    /// `text` kept in memory.
    pub fn new(text: String) -> Self {
        SecondHist(Repr::Text(text))
    }

    /// `text` moved to the spill file; kept in memory when there is none or the write fails
    /// (the result is the same, only the memory differs).
    pub fn spilled(text: String) -> Self {
        let Some(s) = spill() else {
            return Self::new(text);
        };
        let Ok(len) = u32::try_from(text.len()) else {
            return Self::new(text);
        };
        let mut end = s.end.lock().unwrap_or_else(|e| e.into_inner());
        match s.file.write_all_at(text.as_bytes(), *end) {
            Ok(()) => {
                let at = *end;
                *end += u64::from(len);
                SecondHist(Repr::Spilled { at, len })
            }
            Err(_) => Self::new(text),
        }
    }

    /// The text, read back from the spill file if it is there.
    pub fn text(&self) -> Result<Cow<'_, str>, String> {
        match &self.0 {
            Repr::Text(t) => Ok(Cow::Borrowed(t)),
            Repr::Spilled { at, len } => {
                let s = spill().ok_or("no spill file")?;
                let mut buf = vec![0; *len as usize];
                s.file.read_exact_at(&mut buf, *at).map_err(|e| {
                    format!("reading a second's histogram back from the temporary spill file: {e}")
                })?;
                String::from_utf8(buf)
                    .map(Cow::Owned)
                    .map_err(|_| "a second's histogram in the spill file is not text".into())
            }
        }
    }
}

impl From<String> for SecondHist {
    fn from(text: String) -> Self {
        Self::new(text)
    }
}

impl PartialEq for SecondHist {
    fn eq(&self, other: &Self) -> bool {
        matches!((self.text(), other.text()), (Ok(a), Ok(b)) if a == b)
    }
}

impl std::fmt::Debug for SecondHist {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.text() {
            Ok(t) => write!(f, "{t:?}"),
            Err(e) => write!(f, "<{e}>"),
        }
    }
}

impl Serialize for SecondHist {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = self.text().map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for SecondHist {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Self::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A spilled second reads back, serializes and compares as the text it was.
    #[test]
    fn a_spilled_second_is_its_text() {
        let texts = ["HISTFAAAA", "second two", ""].map(String::from);
        let spilled: Vec<SecondHist> = texts.iter().cloned().map(SecondHist::spilled).collect();
        assert!(spilled.iter().all(|h| matches!(h.0, Repr::Spilled { .. })));
        for (h, t) in spilled.iter().zip(&texts) {
            assert_eq!(h.text().unwrap(), t.as_str());
            assert_eq!(h, &SecondHist::new(t.clone()));
            assert_eq!(serde_json::to_string(h).unwrap(), format!("{t:?}"));
        }
        let back: SecondHist = serde_json::from_str("\"second two\"").unwrap();
        assert_eq!(back, spilled[1]);
    }
}
