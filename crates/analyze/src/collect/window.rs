//! The window of a collection that `dbio advise NAME --window` places objects by: its peak
//! hour (or another length), its busiest 5 % of intervals, all of it, or a stated time span;
//! and the objects' counts summed over the window's samples.

use super::spread::{p95, peak, Value};
use dbio_model::advise::ObjectIo;
use dbio_model::collect::{CollectionReport, Sample};
use std::collections::{HashMap, HashSet};

/// A window as the user names it.
#[derive(Debug, Clone, PartialEq)]
pub enum Window {
    /// The span of this length (ms) with the highest database I/O: `peak` (an hour), `peak/30m`.
    Peak(u64),
    /// The intervals at or above the 95th percentile of the database's I/O per second.
    P95,
    /// The whole collection.
    All,
    /// From a time (unix ms) for a length: `2026-12-01T09:00/1h` (UTC).
    Span(u64, u64),
}

/// `--window` read; the message names what was wrong.
pub fn parse(text: &str) -> Result<Window, String> {
    let bad = |why: &str| {
        format!("--window {text}: {why}; give peak, peak/30m, p95, all or a span such as 2026-12-01T09:00/1h (UTC)")
    };
    let length = |d: &str| {
        humantime::parse_duration(d)
            .map_err(|e| bad(&format!("{d} is not a length ({e})")))
            .and_then(|d| match d.as_millis() as u64 {
                0 => Err(bad("the length must be more than 0")),
                ms => Ok(ms),
            })
    };
    match text {
        "peak" => return Ok(Window::Peak(3_600_000)),
        "p95" => return Ok(Window::P95),
        "all" => return Ok(Window::All),
        _ => {}
    }
    let (from, len) = text.split_once('/').ok_or_else(|| bad("not a window"))?;
    if from == "peak" {
        return Ok(Window::Peak(length(len)?));
    }
    let full = if from.matches(':').count() == 1 {
        format!("{from}:00Z")
    } else if from.ends_with('Z') {
        from.to_string()
    } else {
        format!("{from}Z")
    };
    let at = humantime::parse_rfc3339_weak(full.trim_end_matches('Z'))
        .or_else(|_| humantime::parse_rfc3339(&full))
        .map_err(|_| bad(&format!("{from} is not a time (YYYY-MM-DDTHH:MM, UTC)")))?;
    let ms = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| bad("a time before 1970"))?
        .as_millis() as u64;
    Ok(Window::Span(ms, length(len)?))
}

/// The samples of a window: which ones (by the end of their interval), and in words.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub ends: HashSet<u64>,
    pub label: String,
}

/// The samples of `w` in the collection `r` (from its series); an error when none is in it.
pub fn choose(w: &Window, r: &CollectionReport) -> Result<Chosen, String> {
    let db: Vec<Value> = r
        .series
        .iter()
        .filter_map(|p| p.db_iops.map(|v| (p.t_ms, p.secs, v)))
        .collect();
    if db.is_empty() {
        return Err(format!(
            "collection {} has no sample of the database's statistics",
            r.info.name
        ));
    }
    let within = |from: u64, to: u64| -> HashSet<u64> {
        db.iter()
            .filter(|v| v.0 > from && v.0 <= to)
            .map(|v| v.0)
            .collect()
    };
    let (ends, label) = match w {
        Window::All => (
            db.iter().map(|v| v.0).collect(),
            "the whole collection".to_string(),
        ),
        Window::Peak(len) => {
            let p = peak(&db, *len).expect("values");
            (
                within(p.start_ms, p.end_ms),
                format!(
                    "its peak {} ({} to {}, {:.0} database I/O per second)",
                    humantime::format_duration(std::time::Duration::from_millis(*len)),
                    time(p.start_ms),
                    time(p.end_ms),
                    p.mean
                ),
            )
        }
        Window::P95 => {
            let mut v: Vec<f64> = db.iter().map(|v| v.2).collect();
            v.sort_by(f64::total_cmp);
            let at = p95(&v);
            (
                db.iter().filter(|v| v.2 >= at).map(|v| v.0).collect(),
                format!("its busiest intervals (at or over the 95th percentile, {at:.0} database I/O per second)"),
            )
        }
        Window::Span(from, len) => (
            within(*from, from + len),
            format!("{} to {}", time(*from), time(from + len)),
        ),
    };
    if ends.is_empty() {
        return Err(format!(
            "no sample of collection {} lies in {label}; it runs from {} to {}",
            r.info.name,
            time(r.first_ms),
            time(r.last_ms)
        ));
    }
    Ok(Chosen { ends, label })
}

/// A time as RFC 3339 UTC to the second.
pub fn time(ms: u64) -> String {
    humantime::format_rfc3339_seconds(std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms))
        .to_string()
}

/// The objects' counts summed over the chosen samples, fed in time order.
#[derive(Default)]
pub struct Sum {
    objects: HashMap<String, ObjectIo>,
    order: Vec<String>,
    pub secs: f64,
    pub io_wait: Option<(f64, f64)>,
}

impl Sum {
    /// Adds `s` when it is one of `c`'s; every sample gives the objects' latest sizes.
    pub fn add(&mut self, c: &Chosen, s: &Sample) {
        let Some(db) = &s.db else { return };
        let chosen = c.ends.contains(&s.t_ms);
        if chosen {
            self.secs += db.secs;
            if let Some((io, busy)) = db.io_wait {
                let w = self.io_wait.get_or_insert((0.0, 0.0));
                (w.0, w.1) = (w.0 + io, w.1 + busy);
            }
        }
        for o in &db.objects {
            let sum = self.objects.entry(o.name.clone()).or_insert_with(|| {
                self.order.push(o.name.clone());
                let mut z = ObjectIo::new(o.name.clone(), o.kind);
                (z.read_ms, z.write_ms, z.stall_ms) = (
                    o.read_ms.map(|_| 0.0),
                    o.write_ms.map(|_| 0.0),
                    o.stall_ms.map(|_| 0.0),
                );
                z
            });
            if o.size_bytes.is_some() {
                sum.size_bytes = o.size_bytes;
            }
            if chosen {
                sum.add(o);
            }
        }
    }

    /// The objects, in the order they first appeared.
    pub fn objects(mut self) -> Vec<ObjectIo> {
        self.order
            .iter()
            .filter_map(|n| self.objects.remove(n))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_read() {
        assert_eq!(parse("peak"), Ok(Window::Peak(3_600_000)));
        assert_eq!(parse("peak/30m"), Ok(Window::Peak(1_800_000)));
        assert_eq!(parse("all"), Ok(Window::All));
        assert_eq!(parse("p95"), Ok(Window::P95));
        assert_eq!(
            parse("2026-12-01T09:00/1h"),
            Ok(Window::Span(1_796_115_600_000, 3_600_000))
        );
        assert!(parse("peek").unwrap_err().contains("give peak"));
        assert!(parse("2026-13-01T09:00/1h")
            .unwrap_err()
            .contains("not a time"));
        assert!(parse("peak/0s").unwrap_err().contains("more than 0"));
    }
}
