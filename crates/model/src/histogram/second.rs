//! A second's latency histogram as a result carries it: the interval-log text, held in memory
//! or, while a run goes on, in the process's spill file ([`crate::spill`]), so that a run's
//! memory does not grow with its seconds (an hour of them is megabytes of text).

use crate::spill::{self, Span};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// One second's histogram in HdrHistogram's interval-log encoding (see
/// [`super::Encoder::encode_second`]); serialized as that text wherever it is kept.
#[derive(Clone)]
pub struct SecondHist(pub(crate) Repr);

/// Where the text is: in memory, or in the process's spill file (a spilled run keeps the
/// place, see [`crate::spill::SpilledRun`]).
#[derive(Clone, Serialize, Deserialize)]
pub(crate) enum Repr {
    Text(String),
    Spilled(Span),
}

impl SecondHist {
    /// `text` kept in memory.
    pub fn new(text: String) -> Self {
        SecondHist(Repr::Text(text))
    }

    /// `text` moved to the spill file; kept in memory when there is none or the write fails
    /// (the result is the same, only the memory differs).
    pub fn spilled(text: String) -> Self {
        match spill::put(text.as_bytes()) {
            Some(span) => SecondHist(Repr::Spilled(span)),
            None => Self::new(text),
        }
    }

    /// The text, read back from the spill file if it is there.
    pub fn text(&self) -> Result<Cow<'_, str>, String> {
        match &self.0 {
            Repr::Text(t) => Ok(Cow::Borrowed(t)),
            Repr::Spilled(span) => String::from_utf8(spill::get(*span)?)
                .map(Cow::Owned)
                .map_err(|_| "a second's histogram in the spill file is not text".into()),
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
        assert!(spilled.iter().all(|h| matches!(h.0, Repr::Spilled(_))));
        for (h, t) in spilled.iter().zip(&texts) {
            assert_eq!(h.text().unwrap(), t.as_str());
            assert_eq!(h, &SecondHist::new(t.clone()));
            assert_eq!(serde_json::to_string(h).unwrap(), format!("{t:?}"));
        }
        let back: SecondHist = serde_json::from_str("\"second two\"").unwrap();
        assert_eq!(back, spilled[1]);
    }
}
