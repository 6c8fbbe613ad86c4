//! fio writes one JSON document for a whole job file; dbio runs a job file's stonewalled
//! steps as several runs. With `--json-format fio --json FILE` each run writes its document
//! to a part file and the parts are joined into FILE (or stdout) at the end: the first
//! part's top-level fields (fio version, time, global options) once, then every part's
//! `jobs[]` in order, each step's entries with its place as `groupid` (fio starts a new
//! group at each stonewall, numbered from 0).

use crate::deliver::{write_json, DeliverError};
use serde_json::Value;

/// The part files of one `dbio fio` with several runs, and where the whole goes.
pub struct FioParts {
    dir: tempfile::TempDir,
    to: String,
    runs: usize,
}

impl FioParts {
    /// The parts for runs that each write fio's JSON (`--json-format fio` or `fio-group`)
    /// to the same `--json` (each run's format and file, in order); None when there is
    /// one run, or a run writes dbio's JSON or none.
    pub fn of(runs: &[(&str, Option<&str>)]) -> Result<Option<FioParts>, DeliverError> {
        let Some((_, Some(to))) = runs.first() else {
            return Ok(None);
        };
        let fio = |(f, j): &(&str, Option<&str>)| f.starts_with("fio") && *j == Some(*to);
        if runs.len() < 2 || !runs.iter().all(fio) {
            return Ok(None);
        }
        let dir = tempfile::Builder::new()
            .prefix("dbio-fio-parts")
            .tempdir()
            .map_err(|source| DeliverError::Json {
                path: to.to_string(),
                source,
            })?;
        Ok(Some(FioParts {
            dir,
            to: to.to_string(),
            runs: runs.len(),
        }))
    }

    /// The file run `i` (from 0) writes its fio JSON to.
    pub fn part(&self, i: usize) -> String {
        self.dir
            .path()
            .join(format!("{i}.json"))
            .to_string_lossy()
            .into_owned()
    }

    /// Joins the parts the runs wrote (a run that ended without a result has none) into
    /// one document written to `--json` (`-`: handed to `print`); nothing when no run
    /// wrote one.
    pub fn join(self, print: impl FnOnce(&str)) -> Result<(), DeliverError> {
        let mut docs = Vec::new();
        for i in 0..self.runs {
            let Ok(text) = std::fs::read_to_string(self.part(i)) else {
                continue;
            };
            let doc = serde_json::from_str(&text).map_err(|e| DeliverError::Json {
                path: self.part(i),
                source: e.into(),
            })?;
            docs.push((i, doc));
        }
        match joined(docs) {
            Some(doc) => write_json(&self.to, &doc, print),
            None => Ok(()),
        }
    }
}

/// One document of the parts `docs` (each with its step's place), as text; None if none.
pub fn joined(docs: Vec<(usize, Value)>) -> Option<String> {
    let mut all = Vec::new();
    let mut first = None;
    for (step, mut doc) in docs {
        if let Some(Value::Array(jobs)) = doc.get_mut("jobs").map(Value::take) {
            all.extend(jobs.into_iter().map(|mut j| {
                j["groupid"] = step.into();
                j
            }));
        }
        first.get_or_insert(doc);
    }
    let mut doc = first?;
    doc["jobs"] = Value::Array(all);
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn steps_jobs_follow_in_order_under_one_header() {
        let part = |time: &str, names: &[&str]| {
            let jobs: Vec<Value> = names
                .iter()
                .map(|n| json!({"jobname": n, "groupid": 0}))
                .collect();
            json!({"fio version": "dbio", "time": time, "jobs": jobs, "disk_util": []})
        };
        let text = joined(vec![
            (0, part("first", &["a", "b"])),
            (2, part("third", &["c"])),
        ])
        .unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["time"], "first");
        let jobs: Vec<(String, u64)> = doc["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| {
                (
                    j["jobname"].as_str().unwrap().into(),
                    j["groupid"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(jobs, [("a".into(), 0), ("b".into(), 0), ("c".into(), 2)]);
        assert_eq!(joined(Vec::new()), None);
    }

    #[test]
    fn only_several_fio_runs_to_one_file_are_joined() {
        assert!(FioParts::of(&[("fio", Some("x"))]).unwrap().is_none());
        assert!(FioParts::of(&[("fio", Some("x")), ("dbio", Some("x"))])
            .unwrap()
            .is_none());
        assert!(FioParts::of(&[("fio", None), ("fio", None)])
            .unwrap()
            .is_none());
        let p = FioParts::of(&[("fio", Some("-")), ("fio-group", Some("-"))])
            .unwrap()
            .unwrap();
        std::fs::write(p.part(1), r#"{"time": "t", "jobs": [{"jobname": "b"}]}"#).unwrap();
        let mut printed = String::new();
        p.join(|s| printed.push_str(s)).unwrap();
        let doc: Value = serde_json::from_str(&printed).unwrap();
        assert_eq!(doc["jobs"][0]["groupid"], 1);
    }
}
