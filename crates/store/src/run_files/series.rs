//! A result read in two passes, so that a merge holds one host's seconds at a time: its head
//! (everything but the per-second `timeseries`, which is checked but not built), then its
//! seconds one by one.

use super::chunks::{ChunkError, Chunks};
use super::{read_result, RunFileError};
use dbio_model::{RunResult, TimePoint, RUN_SCHEMA};
use serde::de::{Deserializer, IgnoredAny, Visitor};
use serde::Deserialize;

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
        let span = Some((from, to));
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
    /// Hands each second to `each`, in order, one at a time, reading the file a buffer at a
    /// time. Err names the file: it cannot be read, or it no longer reads as the result it
    /// was.
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
        let mut c = Chunks::open(path, from).map_err(io)?;
        match c.each_in_array(|p: TimePoint| each(&p)) {
            Ok(()) if c.pos() == to => Ok(()),
            Err(ChunkError::Io(e)) => Err(io(e)),
            _ => Err(RunFileError::Damaged {
                path: path.into(),
                why: "its seconds no longer read as they did when the merge began".into(),
            }),
        }
    }
}

/// The result in `path` with its seconds checked and left out, and their span in the file;
/// None when it is not a run result of this schema as dbio writes it (then the whole read
/// says what it is). The file is read a buffer at a time; what is not the seconds is kept
/// and read as the result.
fn head_of(path: &str) -> Option<(RunResult, (u64, u64))> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let mut c = Chunks::open(path, 0).ok()?;
    let mut head = Vec::new();
    let mut span = None;
    c.expect(b'{').ok()?;
    head.push(b'{');
    loop {
        let key: String = c.value(Some(&mut head)).ok()?;
        c.expect(b':').ok()?;
        head.push(b':');
        if key == "timeseries" {
            c.peek().ok()?;
            let from = c.pos();
            c.each_in_array(|_: PointShape| ()).ok()?;
            if span.replace((from, c.pos())).is_some() {
                return None;
            }
            head.extend_from_slice(b"[]");
        } else {
            c.value::<IgnoredAny>(Some(&mut head)).ok()?;
        }
        let next = c.peek().ok()??;
        c.expect(next).ok()?;
        head.push(next);
        match next {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    if c.peek().ok()?.is_some() {
        return None;
    }
    let r: RunResult = serde_json::from_slice(&head).ok()?;
    (r.schema == RUN_SCHEMA).then_some((r, span?))
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

#[cfg(test)]
mod tests;
