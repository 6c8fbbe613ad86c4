//! A second's latency histogram as a result carries it: the interval-log text, held in memory
//! or, while a run goes on, in the run's spill file ([`crate::spill::Spill`]), so that a run's
//! memory does not grow with its seconds (an hour of them is megabytes of text).

use crate::spill::file::{Span, Spill, SpillError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// One second's histogram in HdrHistogram's interval-log encoding (see
/// [`super::Encoder::encode_second`]); serialized as that text wherever it is kept.
#[derive(Clone)]
pub struct SecondHist(Repr);

/// Where the text is: in memory, or at a place in a spill file.
#[derive(Clone)]
enum Repr {
    Text(String),
    Spilled(Spill, Span),
}

impl SecondHist {
    /// `text` kept in memory.
    pub fn new(text: String) -> Self {
        SecondHist(Repr::Text(text))
    }

    /// `text` moved to the spill file `spill`; kept in memory when the write fails (the
    /// result is the same, only the memory differs).
    pub fn spilled(text: String, spill: &Spill) -> Self {
        match spill.put(text.as_bytes()) {
            Some(span) => SecondHist(Repr::Spilled(spill.clone(), span)),
            None => Self::new(text),
        }
    }

    /// The histogram whose text `put` kept at `span` of `spill`.
    pub(crate) fn at(spill: &Spill, span: Span) -> Self {
        SecondHist(Repr::Spilled(spill.clone(), span))
    }

    /// Where in a spill file the text is, if it is in one.
    pub(crate) fn place(&self) -> Option<(&Spill, Span)> {
        match &self.0 {
            Repr::Spilled(spill, span) => Some((spill, *span)),
            Repr::Text(_) => None,
        }
    }

    /// The spill file the text is in, if it is in one.
    pub fn spill(&self) -> Option<Spill> {
        self.place().map(|(spill, _)| spill.clone())
    }

    /// The text is in a spill file (not in memory).
    pub fn is_spilled(&self) -> bool {
        matches!(self.0, Repr::Spilled(..))
    }

    /// The text, read back from the spill file if it is there.
    pub fn text(&self) -> Result<Cow<'_, str>, SpillError> {
        match &self.0 {
            Repr::Text(t) => Ok(Cow::Borrowed(t)),
            Repr::Spilled(spill, span) => String::from_utf8(spill.get(*span)?)
                .map(Cow::Owned)
                .map_err(|_| SpillError::NotText),
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
        let spill = Spill::new().unwrap();
        let spilled: Vec<SecondHist> = texts
            .iter()
            .map(|t| SecondHist::spilled(t.clone(), &spill))
            .collect();
        assert!(spilled.iter().all(SecondHist::is_spilled));
        for (h, t) in spilled.iter().zip(&texts) {
            assert_eq!(h.text().unwrap(), t.as_str());
            assert_eq!(h, &SecondHist::new(t.clone()));
            assert_eq!(serde_json::to_string(h).unwrap(), format!("{t:?}"));
        }
        let back: SecondHist = serde_json::from_str("\"second two\"").unwrap();
        assert_eq!(back, spilled[1]);
    }
}
