//! `dbio merge FILE…`: the results read from files, each named by its host.

use super::host::HostResult;
use super::{given_once, host_name};
use crate::error::AnalyzeError;
use dbio_model::RunResult;

/// The results read from `files` (one each, in order), each named by its host (its label
/// where it has one), and also by its file when an earlier host has that name. One run given
/// twice is refused here, named by its files: two hosts' names may be one.
pub fn hosts(files: &[String], results: Vec<RunResult>) -> Result<Vec<HostResult>, AnalyzeError> {
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    given_once(&results.iter().collect::<Vec<_>>(), &names)?;
    let mut hosts: Vec<HostResult> = Vec::new();
    for (f, r) in files.iter().zip(results) {
        let mut name = host_name(r.label.as_deref(), &r);
        if hosts.iter().any(|h| h.name == name) {
            name = format!("{name} ({f})");
        }
        hosts.push(HostResult { name, result: r });
    }
    Ok(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result of host `host` measuring from `start`, labelled `label`.
    fn result(host: &str, start: u64, label: Option<&str>) -> RunResult {
        let mut r: RunResult =
            serde_json::from_str(include_str!("../../../report/tests/fixtures/run.json"))
                .expect("the fixture is a run");
        r.host.hostname = host.into();
        r.started_unix_ns = start;
        r.label = label.map(str::to_string);
        r
    }

    fn files(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("h{i}.json")).collect()
    }

    #[test]
    fn hosts_go_by_label_or_host_name_and_a_repeated_name_adds_its_file() {
        let results = vec![
            result("db1", 1, None),
            result("db2", 1, Some("array-a")),
            result("db1", 2, None),
        ];
        let names: Vec<String> = hosts(&files(3), results)
            .expect("three runs")
            .into_iter()
            .map(|h| h.name)
            .collect();
        assert_eq!(names, ["db1", "array-a", "db1 (h3.json)"]);
    }

    #[test]
    fn one_run_given_twice_is_named_by_its_files() {
        let results = vec![result("db1", 1, None), result("db1", 1, Some("copy"))];
        match hosts(&files(2), results) {
            Err(AnalyzeError::GivenTwice { later, earlier, .. }) => {
                assert_eq!((later.as_str(), earlier.as_str()), ("h2.json", "h1.json"))
            }
            other => panic!("refused as given twice, got {:?}", other.map(|h| h.len())),
        }
    }
}
