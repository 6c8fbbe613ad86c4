//! Snapshot tests: committed fixture results (a real randrw run, a session run and a
//! simulated block-size sweep) rendered as text, Markdown and CSV must give the committed
//! expected files. Regenerate with `DBIO_BLESS=1 cargo test -p dbio-report --test snapshot`
//! after a change to the output that is meant, and read the diff before committing it.

use dbio_report::item::Item;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn item(file: &str) -> Item {
    let json = std::fs::read_to_string(dir().join(file)).expect("the fixture is committed");
    Item::from_json(file, &json).expect("the fixture is a dbio result")
}

fn check(expected: &str, got: String) {
    let path = dir().join(expected);
    if std::env::var_os("DBIO_BLESS").is_some() {
        // Blessing rewrites the expectation from the output: in CI it would make any
        // output pass.
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "DBIO_BLESS is refused under CI=true: it would rewrite the expected files from the output under test"
        );
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).expect("the expected output is committed");
    assert!(
        want == got,
        "tests/fixtures/{expected} differs from the output:\n{got}\nif the change is meant, run DBIO_BLESS=1 cargo test -p dbio-report --test snapshot"
    );
}

fn run_of(it: &Item) -> &dbio_model::RunResult {
    match &it.result {
        dbio_report::item::Result::Run(r) => r,
        _ => panic!("a run fixture"),
    }
}

#[test]
fn text_summary_of_a_run() {
    check(
        "run.txt",
        dbio_report::text::summary(run_of(&item("run.json"))),
    );
}

#[test]
fn text_summary_of_a_session_run() {
    check(
        "session.txt",
        dbio_report::text::summary(run_of(&item("session.json"))),
    );
}

#[test]
fn markdown_of_a_run_a_session_run_and_a_sweep() {
    let items = [
        item("run.json"),
        item("session.json"),
        item("sweep-bs.json"),
    ];
    check("report.md", dbio_report::markdown::report(&items));
}

#[test]
fn csv_of_a_run_and_a_sweep() {
    let items = [item("run.json"), item("sweep-bs.json")];
    check("report.csv", dbio_report::csv::report(&items));
}
