//! Delivering a finished result: kept in the history, its JSON written to `--json` (a file,
//! or handed to the caller to print for `-`) and its HTML page to `--html`. Saying what
//! happened and the exit status that follows are the caller's; each failure here is a
//! [`DeliverError`] whose Display is the message the user reads after `dbio CMD: `.

use crate::formats::Layouts;
use crate::item::{Item, Result as Shown};
use crate::json::ToJson;
use dbio_model::spill::sweep::SpilledSweep;
use dbio_model::suite::SuiteResult;
use dbio_model::sweep::SweepResult;
use dbio_model::RunResult;
use dbio_store::files::{write_atomic_with, write_file_atomic};
use dbio_store::{NewEntry, Store, StoreError};
use std::io::{BufWriter, Write};

/// Where a finished result goes: `--json` (`-` for stdout), `--html`, and the `--label` it
/// is kept and shown under.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Destination<'a> {
    pub json: Option<&'a str>,
    pub html: Option<&'a str>,
    pub label: Option<&'a str>,
}

/// Why a result could not be delivered whole; Display names the file and what failed.
#[derive(Debug, thiserror::Error)]
pub enum DeliverError {
    /// The history refused the entry (the result is printed and written all the same).
    #[error("the result was not stored: {0}")]
    NotStored(#[source] StoreError),
    /// `--json FILE` could not be written.
    #[error("cannot write the JSON result to {path}: {source}")]
    Json {
        path: String,
        source: std::io::Error,
    },
    /// `--html FILE` could not be written.
    #[error("cannot write the HTML report to {path}: {source}")]
    Html {
        path: String,
        source: std::io::Error,
    },
    /// One of fio's log files (`--fio-log`) could not be made or written.
    #[error(transparent)]
    Log(#[from] crate::fio_log::LogError),
}

/// Keeps `entry` in `store`: the id it was stored as.
pub fn keep(store: &Store, entry: &NewEntry) -> Result<i64, DeliverError> {
    store.add(entry).map_err(DeliverError::NotStored)
}

/// Writes `text` to `path` atomically; for `-` it is handed to `print` (stdout is the caller's).
pub fn emit(path: &str, text: &str, print: impl FnOnce(&str)) -> std::io::Result<()> {
    if path == "-" {
        print(text);
        Ok(())
    } else {
        write_file_atomic(path, text.as_bytes())
    }
}

/// Writes a result's JSON to `path` (`-`: handed to `print`).
pub fn write_json(path: &str, json: &str, print: impl FnOnce(&str)) -> Result<(), DeliverError> {
    emit(path, json, print).map_err(|source| DeliverError::Json {
        path: path.to_string(),
        source,
    })
}

/// Keeps `entry` in `store` with the JSON of `r` written straight into the history, never
/// whole in memory (`entry.json` is not used): the id it was stored as.
pub fn keep_streamed(store: &Store, entry: &NewEntry, r: &dyn ToJson) -> Result<i64, DeliverError> {
    store
        .add_streamed(entry, |w| r.write_json(w))
        .map_err(DeliverError::NotStored)
}

/// Writes the JSON of `r` to `path` as it is made, byte for byte as [`crate::json::to_json`]
/// would (a file atomically; `-`: handed to `print` a piece at a time).
pub fn stream_json(
    path: &str,
    r: &dyn ToJson,
    print: impl FnMut(&str),
) -> Result<(), DeliverError> {
    let written = if path == "-" {
        let mut w = BufWriter::with_capacity(64 << 10, Pieces::new(print));
        r.write_json(&mut w).and_then(|()| w.flush())
    } else {
        write_atomic_with(path, |w| r.write_json(w))
    };
    written.map_err(|source| DeliverError::Json {
        path: path.to_string(),
        source,
    })
}

/// Writes the HTML page of one finished result to `path`.
pub fn write_html(path: &str, item: &Item) -> Result<(), DeliverError> {
    let page = crate::html::page(std::slice::from_ref(item));
    write_file_atomic(path, page.as_bytes()).map_err(|source| DeliverError::Html {
        path: path.to_string(),
        source,
    })
}

impl Destination<'_> {
    /// Whether the JSON goes to stdout (`--json -`), so that what else is said goes to stderr.
    pub fn json_on_stdout(&self) -> bool {
        self.json == Some("-")
    }

    /// The name a result goes by in its page: its label, else `default`.
    pub fn name(&self, default: impl FnOnce() -> String) -> String {
        self.label.map_or_else(default, str::to_string)
    }

    /// Writes `json` to `--json` if given (`-`: handed to `print`).
    pub fn write_json(&self, json: &str, print: impl FnOnce(&str)) -> Result<(), DeliverError> {
        match self.json {
            Some(path) => write_json(path, json, print),
            None => Ok(()),
        }
    }

    /// Writes the JSON of `r` to `--json` if given, as a stream (see [`stream_json`]).
    pub fn stream_json(&self, r: &dyn ToJson, print: impl FnMut(&str)) -> Result<(), DeliverError> {
        match self.json {
            Some(path) => stream_json(path, r, print),
            None => Ok(()),
        }
    }

    /// Writes the page of a spilled sweep to `--html` if given, named `name` unless
    /// labelled: the page needs the whole sweep, read back only then.
    pub fn write_sweep_html(
        &self,
        s: &SpilledSweep,
        name: impl FnOnce() -> String,
    ) -> Result<(), DeliverError> {
        let Some(path) = self.html else {
            return Ok(());
        };
        let whole = s.whole().map_err(|e| DeliverError::Html {
            path: path.to_string(),
            source: std::io::Error::other(e),
        })?;
        write_html(path, &self.sweep_item(&whole, name))
    }

    /// Writes the page of `item` (made only then) to `--html` if given.
    pub fn write_html(&self, item: impl FnOnce() -> Item) -> Result<(), DeliverError> {
        match self.html {
            Some(path) => write_html(path, &item()),
            None => Ok(()),
        }
    }

    /// A run as its page shows it: under its label, else its start time.
    pub fn run_item(&self, r: &RunResult) -> Item {
        Item {
            name: self.name(|| r.started_at.clone()),
            result: Shown::Run(Box::new(r.clone())),
        }
    }

    /// A sweep as its page shows it: under its label, else `name`.
    pub fn sweep_item(&self, s: &SweepResult, name: impl FnOnce() -> String) -> Item {
        Item {
            name: self.name(name),
            result: Shown::Sweep(Box::new(s.clone())),
        }
    }

    /// A suite as its page shows it: under its label, else "suite".
    pub fn suite_item(&self, s: &SuiteResult) -> Item {
        Item {
            name: self.name(|| "suite".to_string()),
            result: Shown::Suite(Box::new(s.clone())),
        }
    }
}

/// A writer that hands what it is given to `print` as text, keeping back a character cut
/// in two until its end comes (serde_json writes only whole UTF-8).
struct Pieces<F> {
    print: F,
    cut: Vec<u8>,
}

impl<F: FnMut(&str)> Pieces<F> {
    fn new(print: F) -> Self {
        Pieces {
            print,
            cut: Vec::new(),
        }
    }
}

impl<F: FnMut(&str)> Write for Pieces<F> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.cut.extend_from_slice(buf);
        let whole = match std::str::from_utf8(&self.cut) {
            Ok(t) => t.len(),
            Err(e) => e.valid_up_to(),
        };
        match std::str::from_utf8(&self.cut[..whole]) {
            Ok(text) if !text.is_empty() => (self.print)(text),
            _ => {}
        }
        self.cut.drain(..whole);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A finished run ready to deliver: labelled as its destination says, with its summary in
/// dbio's own layout (what the history keeps, whatever layout is printed). Its JSON is
/// written as it is made, never whole in memory (a merge of many hosts' days is hundreds of
/// MB of it).
pub struct FinishedRun {
    pub result: RunResult,
    pub summary: String,
}

impl FinishedRun {
    /// `r` under the label of `to`, with its summary.
    pub fn new(mut r: RunResult, to: &Destination) -> FinishedRun {
        r.label = to.label.map(str::to_string);
        FinishedRun {
            summary: crate::text::summary(&r),
            result: r,
        }
    }

    /// Keeps the run in `store` under the label of `to`, its JSON streamed into the history:
    /// the id it was stored as.
    pub fn keep(&self, store: &Store, to: &Destination) -> Result<i64, DeliverError> {
        let entry = crate::entry::run_entry(&self.result, "", &self.summary, to.label);
        keep_streamed(store, &entry, &self.result)
    }

    /// Writes the run's `--json` (in the JSON layout of `layouts`; `-`: handed to `print`;
    /// fio's JSON to the part file of a joined document when `layouts` names one), then its
    /// `--html` page and fio's logs, as `to` and `layouts` say; the first failure ends it.
    pub fn write(
        &self,
        to: &Destination,
        layouts: &Layouts,
        print: impl FnMut(&str),
    ) -> Result<(), DeliverError> {
        match (layouts.fio_json(&self.result), &layouts.fio.part) {
            (Some(fio), Some(part)) => write_json(part, &fio, print)?,
            (Some(fio), None) => to.write_json(&fio, print)?,
            (None, _) => to.stream_json(&self.result, print)?,
        }
        to.write_html(|| to.run_item(&self.result))?;
        match &layouts.fio.logs {
            Some(logs) => Ok(logs.write(&self.result)?),
            None => Ok(()),
        }
    }

    /// The summary to print, in the summary layout of `layouts`.
    pub fn summary_in(&self, layouts: &Layouts) -> String {
        layouts.summary(&self.result, &self.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed fixture run.
    fn run() -> RunResult {
        serde_json::from_str(include_str!("../tests/fixtures/run.json")).expect("the fixture run")
    }

    #[test]
    fn a_run_is_kept_with_its_label_and_its_json_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("history.db")).unwrap();
        let to = Destination {
            label: Some("base"),
            ..Default::default()
        };
        let done = FinishedRun::new(run(), &to);
        assert_eq!(done.result.label.as_deref(), Some("base"));
        assert_eq!(done.summary, crate::text::summary(&done.result));
        let id = done.keep(&store, &to).unwrap();
        let json = crate::json::to_json(&done.result);
        assert_eq!(store.json(id).unwrap().as_deref(), Some(json.as_str()));
        assert_eq!(
            store.summary(id).unwrap().as_deref(),
            Some(done.summary.as_str())
        );
        assert_eq!(store.newest_with_label("base").unwrap(), Some(id));
        let second = done.keep(&store, &to).unwrap();
        assert!(second > id);
    }

    #[test]
    fn json_goes_to_its_file_or_to_the_caller_for_a_dash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.json");
        let path = path.to_str().unwrap();
        let mut printed = String::new();
        write_json(path, "{}\n", |s| printed.push_str(s)).unwrap();
        assert_eq!(std::fs::read_to_string(path).unwrap(), "{}\n");
        assert!(printed.is_empty());
        write_json("-", "{\"a\":1}\n", |s| printed.push_str(s)).unwrap();
        assert_eq!(printed, "{\"a\":1}\n");
        let none = Destination::default();
        none.write_json("x", |_| panic!("nothing to print"))
            .unwrap();
        assert!(!none.json_on_stdout());
    }

    #[test]
    fn a_file_that_cannot_be_written_is_named_in_the_message() {
        let dir = tempfile::tempdir().unwrap();
        let path = format!("{}/no/such/folder/r.json", dir.path().display());
        let e = write_json(&path, "{}", |_| {}).unwrap_err();
        assert!(matches!(e, DeliverError::Json { .. }));
        let said = e.to_string();
        assert!(
            said.starts_with(&format!("cannot write the JSON result to {path}: ")),
            "{said}"
        );
        let to = Destination {
            html: Some(&path),
            ..Default::default()
        };
        let e = to.write_html(|| to.run_item(&run())).unwrap_err();
        let said = e.to_string();
        assert!(
            said.starts_with(&format!("cannot write the HTML report to {path}: ")),
            "{said}"
        );
    }

    #[test]
    fn a_page_is_written_under_the_label_else_the_default_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.html");
        let to = Destination {
            html: path.to_str(),
            ..Default::default()
        };
        let r = run();
        assert_eq!(to.run_item(&r).name, r.started_at);
        to.write_html(|| to.run_item(&r)).unwrap();
        let page = std::fs::read_to_string(&path).unwrap();
        assert_eq!(page, crate::html::page(&[to.run_item(&r)]));
        let labelled = Destination {
            label: Some("base"),
            ..to
        };
        assert_eq!(labelled.run_item(&r).name, "base");
        assert_eq!(labelled.name(|| "vary qd".into()), "base");
        assert_eq!(to.name(|| "vary qd".into()), "vary qd");
        Destination::default()
            .write_html(|| panic!("no page is made without --html"))
            .unwrap();
    }

    #[test]
    fn a_run_is_written_in_the_layouts_asked_and_stops_at_the_first_failure() {
        let dir = tempfile::tempdir().unwrap();
        let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
        let to = Destination {
            json: json.to_str(),
            html: html.to_str(),
            label: None,
        };
        let done = FinishedRun::new(run(), &to);
        let fio = Layouts::named("sqlio", "fio");
        done.write(&to, &fio, |_| panic!("a file, not stdout"))
            .unwrap();
        let written = std::fs::read_to_string(&json).unwrap();
        assert_eq!(
            written,
            crate::fio_json::to_fio_json(&done.result, crate::fio_json::FioJobs::PerJob, &[])
        );
        assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
        assert_eq!(done.summary_in(&fio), crate::sqlio::to_sqlio(&done.result));
        assert_eq!(done.summary_in(&Layouts::default()), done.summary);
        let mut printed = String::new();
        let to_stdout = Destination {
            json: Some("-"),
            ..Default::default()
        };
        done.write(&to_stdout, &Layouts::default(), |s| printed.push_str(s))
            .unwrap();
        assert_eq!(printed, crate::json::to_json(&done.result));
        std::fs::remove_file(&html).unwrap();
        let blocked = Destination {
            json: Some(dir.path().to_str().unwrap()),
            ..to
        };
        let e = done.write(&blocked, &fio, |_| {}).unwrap_err();
        assert!(matches!(e, DeliverError::Json { .. }));
        assert!(!html.exists(), "no page after the JSON failed");
    }

    /// The committed sweep fixture, and the same sweep with its steps (and their seconds'
    /// histograms) in spill files.
    fn spilled_sweep() -> (SweepResult, SpilledSweep) {
        use dbio_model::histogram::SecondHist;
        use dbio_model::spill::{sweep::spill_step, Spill};
        let text = include_str!("../tests/fixtures/sweep-bs.json");
        let mut s: SweepResult = serde_json::from_str(text).expect("the fixture sweep");
        let spill = Spill::new().unwrap();
        for (i, p) in s
            .steps
            .iter_mut()
            .flat_map(|r| &mut r.timeseries)
            .enumerate()
        {
            p.hist = Some(SecondHist::spilled(format!("second é {i}"), &spill));
        }
        let (outlines, steps) = s.steps.iter().cloned().map(spill_step).unzip();
        let spilled = SpilledSweep {
            outline: SweepResult {
                steps: outlines,
                ..s.clone()
            },
            steps,
        };
        (s, spilled)
    }

    /// A spilled sweep's JSON streamed to a file, to stdout and into the history is the
    /// text `to_json` makes of the whole sweep, and its entry is the whole sweep's.
    #[test]
    fn a_streamed_sweep_is_its_json_everywhere() {
        let (whole, spilled) = spilled_sweep();
        let json = crate::json::to_json(&whole);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let to = Destination {
            json: path.to_str(),
            label: Some("soak"),
            ..Default::default()
        };
        to.stream_json(&spilled, |_| panic!("a file, not stdout"))
            .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), json);
        let mut printed = String::new();
        stream_json("-", &spilled, |s| printed.push_str(s)).unwrap();
        assert_eq!(printed, json);
        let store = Store::open(&dir.path().join("history.db")).unwrap();
        let entry = crate::entry::spilled_sweep_entry(&spilled, "said\n", to.label);
        let id = keep_streamed(&store, &entry, &spilled).unwrap();
        assert_eq!(store.json(id).unwrap(), Some(json.clone()));
        let given = crate::entry::sweep_entry(&whole, &json, "said\n", to.label);
        let old = keep(&store, &given).unwrap();
        let listed = store.list(&Default::default()).unwrap();
        assert_eq!(listed[0].id, old);
        assert_eq!(
            (listed[0].iops, listed[0].p99_us),
            (listed[1].iops, listed[1].p99_us)
        );
        assert_eq!(
            (
                &listed[0].profile,
                &listed[0].targets,
                &listed[0].started_at
            ),
            (
                &listed[1].profile,
                &listed[1].targets,
                &listed[1].started_at
            )
        );
        assert_eq!(store.json(old).unwrap(), store.json(id).unwrap());
        let html = dir.path().join("s.html");
        let paged = Destination {
            html: html.to_str(),
            ..to
        };
        paged
            .write_sweep_html(&spilled, || "vary bs".into())
            .unwrap();
        let page = crate::html::page(&[paged.sweep_item(&whole, || "vary bs".into())]);
        assert_eq!(std::fs::read_to_string(&html).unwrap(), page);
    }

    /// Text cut in the middle of a character reaches stdout whole.
    #[test]
    fn pieces_keep_characters_whole() {
        let mut printed = Vec::new();
        let mut w = Pieces::new(|s: &str| printed.push(s.to_string()));
        let bytes = "aé€b".as_bytes();
        for b in bytes {
            w.write_all(std::slice::from_ref(b)).unwrap();
        }
        drop(w);
        assert_eq!(printed.concat(), "aé€b");
    }

    #[test]
    fn a_history_that_refuses_the_entry_says_it_was_not_stored() {
        let why = StoreError::Sql {
            path: "h.db".into(),
            why: "disk I/O error".into(),
        };
        let said = format!("the result was not stored: {why}");
        assert_eq!(DeliverError::NotStored(why).to_string(), said);
    }
}
