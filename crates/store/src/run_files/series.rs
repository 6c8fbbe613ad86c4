//! A result read in two passes, so that a merge holds one host's seconds at a time: its head
//! (everything but the per-second `timeseries`, which is checked but not built), then its
//! seconds one by one.

use super::{read_result, RunFileError};
use dbio_model::{RunResult, TimePoint, RUN_SCHEMA};
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::Deserialize;
use std::io::{Read, Seek, SeekFrom};

/// One host's result read without its seconds, and where to read them from.
pub struct RunHead {
    /// The result, its `timeseries` empty.
    pub result: RunResult,
    /// Its seconds.
    pub seconds: SecondsAt,
}

/// Where a result file's seconds are: a span of its bytes, or only in the whole file (one
/// not laid out as dbio writes it, e.g. with a key given twice).
pub struct SecondsAt {
    path: String,
    span: Option<(u64, u64)>,
}

/// Reads one host's result without its seconds, refusing what [`read_result`] refuses with
/// the same message: the seconds are checked as they are passed over, but not kept.
pub fn read_head(path: &str) -> Result<RunHead, RunFileError> {
    if let Some((result, (from, to))) = head_of(path) {
        let span = Some((from as u64, to as u64));
        let seconds = SecondsAt {
            path: path.into(),
            span,
        };
        return Ok(RunHead { result, seconds });
    }
    // Not what a result should be, or not laid out as dbio writes: the whole read says why.
    let mut result = read_result(path)?;
    result.timeseries = Vec::new();
    let seconds = SecondsAt {
        path: path.into(),
        span: None,
    };
    Ok(RunHead { result, seconds })
}

impl SecondsAt {
    /// Hands each second to `each`, in order, one at a time. Err names the file: it cannot
    /// be read, or it no longer reads as the result it was.
    pub fn each(&self, each: &mut dyn FnMut(&TimePoint)) -> Result<(), RunFileError> {
        let path = self.path.as_str();
        let Some((from, to)) = self.span else {
            read_result(path)?.timeseries.iter().for_each(each);
            return Ok(());
        };
        let io = |source| RunFileError::Io {
            path: path.into(),
            source,
        };
        let mut bytes = vec![0; (to - from) as usize];
        let mut f = std::fs::File::open(path).map_err(io)?;
        f.seek(SeekFrom::Start(from)).map_err(io)?;
        f.read_exact(&mut bytes).map_err(io)?;
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        EachPoint(each)
            .deserialize(&mut de)
            .and_then(|()| de.end())
            .map_err(|e| RunFileError::Damaged {
                path: path.into(),
                why: format!("its seconds no longer read as they did ({e})"),
            })
    }
}

/// The result in `path` with its seconds checked and left out, and their span; None when it
/// is not a run result of this schema as dbio writes it (then the whole read says what it is).
fn head_of(path: &str) -> Option<(RunResult, (usize, usize))> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    let (from, to) = series_span(&bytes)?;
    let mut head = Vec::with_capacity(bytes.len() - (to - from) + 2);
    head.extend_from_slice(&bytes[..from]);
    head.extend_from_slice(b"[]");
    head.extend_from_slice(&bytes[to..]);
    let r: RunResult = serde_json::from_slice(&head).ok()?;
    (r.schema == RUN_SCHEMA).then_some((r, (from, to)))
}

/// Where the top-level `timeseries` value is in `bytes` (from, to), read as
/// `Vec<TimePoint>` would read it without building it; None when the text is not an object
/// with one such key.
fn series_span(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut at = open(bytes)?;
    let mut span = None;
    loop {
        let (key, v) = key_at(bytes, at)?;
        let end = if key == "timeseries" {
            let end = v + one::<Checked>(&bytes[v..])?;
            if span.replace((v, end)).is_some() {
                return None;
            }
            end
        } else {
            v + one::<IgnoredAny>(&bytes[v..])?
        };
        match after(bytes, end)? {
            Some(next) => at = next,
            None => return span,
        }
    }
}

/// Past the `{` that opens the top-level object, at its first key.
fn open(bytes: &[u8]) -> Option<usize> {
    let at = ws(bytes, 0);
    (bytes.get(at) == Some(&b'{')).then(|| ws(bytes, at + 1))
}

/// The key at `at` and where its value begins.
fn key_at(bytes: &[u8], at: usize) -> Option<(String, usize)> {
    let (key, len): (String, usize) = one_value(bytes.get(at..)?)?;
    let colon = ws(bytes, at + len);
    (bytes.get(colon) == Some(&b':')).then(|| (key, ws(bytes, colon + 1)))
}

/// After a value ending at `end`: Some(where the next key begins), or None at the `}`.
fn after(bytes: &[u8], end: usize) -> Option<Option<usize>> {
    let at = ws(bytes, end);
    match bytes.get(at)? {
        b',' => Some(Some(ws(bytes, at + 1))),
        b'}' => Some(None),
        _ => None,
    }
}

fn ws(bytes: &[u8], mut at: usize) -> usize {
    while matches!(bytes.get(at), Some(b' ' | b'\n' | b'\t' | b'\r')) {
        at += 1;
    }
    at
}

/// The length of the JSON value of type `T` at the start of `bytes`.
fn one<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Option<usize> {
    one_value::<T>(bytes).map(|(_, len)| len)
}

/// The JSON value of type `T` at the start of `bytes` and its length.
fn one_value<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Option<(T, usize)> {
    let mut values = serde_json::Deserializer::from_slice(bytes).into_iter::<T>();
    let v = values.next()?.ok()?;
    Some((v, values.byte_offset()))
}

/// A `timeseries` read as `Vec<TimePoint>` reads it (every point's fields and their types),
/// nothing kept.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(CheckedSeq)
    }
}

struct CheckedSeq;

impl<'de> Visitor<'de> for CheckedSeq {
    type Value = Checked;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence of seconds")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<PointShape>()?.is_some() {}
        Ok(Checked)
    }
}

/// The fields of a [`TimePoint`] with their types, the histogram's text not copied.
#[derive(Deserialize)]
#[allow(dead_code)]
struct PointShape {
    t: f64,
    read_iops: f64,
    write_iops: f64,
    mb_s: f64,
    p99_us: f64,
    #[serde(default)]
    hist: Option<TextShape>,
}

/// A string, as a second's histogram is, not copied.
struct TextShape;

impl<'de> Deserialize<'de> for TextShape {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_string(TextShapeVisitor)
    }
}

struct TextShapeVisitor;

impl<'de> Visitor<'de> for TextShapeVisitor {
    type Value = TextShape;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<TextShape, E> {
        Ok(TextShape)
    }
}

/// A `timeseries` read point by point, each handed on and dropped.
struct EachPoint<'a>(&'a mut dyn FnMut(&TimePoint));

impl<'de> DeserializeSeed<'de> for EachPoint<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EachPoint<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence of seconds")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(p) = seq.next_element::<TimePoint>()? {
            (self.0)(&p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
