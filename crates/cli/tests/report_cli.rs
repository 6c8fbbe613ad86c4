//! `dbio report --csv/--md` through the binary on a committed fixture sweep: the CSV rows
//! carry the JSON's own figures, the Markdown is the report crate's rendering of it.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../report/tests/fixtures/sweep-bs.json"
);

#[test]
fn csv_rows_hold_the_figures_of_the_json() {
    let out = dbio_command()
        .args(["report", FIXTURE, "--csv", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).unwrap();
    let sweep: Value = serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let steps = sweep["steps"].as_array().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    // A read-only sweep: one row per step.
    assert_eq!(lines.len(), 1 + steps.len());
    let col = |row: &[&str], name: &str| -> f64 {
        row[header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    for (i, (line, step)) in lines[1..].iter().zip(steps).enumerate() {
        let row: Vec<&str> = line.split(',').collect();
        assert_eq!(row[1], i.to_string());
        assert_eq!(
            row[2],
            format!("bs={}", sweep["values"][i].as_str().unwrap())
        );
        assert_eq!(row[3], "read");
        let r = &step["read"];
        assert_eq!(col(&row, "ios"), r["ios"].as_f64().unwrap());
        assert_near(
            "iops",
            col(&row, "iops"),
            r["iops"].as_f64().unwrap(),
            0.001,
        );
        assert_eq!(
            (col(&row, "p99_us") * 1000.0).round(),
            r["latency_ns"]["p99"].as_f64().unwrap()
        );
        assert_eq!(
            (col(&row, "max_us") * 1000.0).round(),
            r["latency_ns"]["max"].as_f64().unwrap()
        );
    }
}

#[test]
fn markdown_to_a_file_is_the_report_crates_rendering() {
    let dir = scratch();
    let md = dir.path().join("sweep.md");
    let out = dbio_command()
        .args(["report", FIXTURE, "--md", md.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let item =
        dbio_report::item::Item::from_json(FIXTURE, &std::fs::read_to_string(FIXTURE).unwrap())
            .unwrap();
    assert_eq!(
        std::fs::read_to_string(&md).unwrap(),
        dbio_report::markdown::report(&[item])
    );
}
