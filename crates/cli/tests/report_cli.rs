//! `dbio report --csv/--md` through the binary on a committed fixture sweep: the CSV rows
//! carry the JSON's own figures, the Markdown holds fragments written by hand from it.

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
fn markdown_to_a_file_holds_the_sweep_as_written_by_hand() {
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
    let text = std::fs::read_to_string(&md).unwrap();
    // Written by hand from the fixture's JSON: per step the I/Os, the seconds to 0.1, IOPS
    // to a whole number, MB/s to 0.1, mean and p99 latency in µs to 0.1 (p99 of the 8k step
    // is 314,367 ns); the knee, saturation and 90 %-of-best-bandwidth conclusions; the host
    // and engine; the simulated warning.
    let fragments = [
        "# dbio sweep ",
        "dss varying bs over 8k, 64k, 256k, 1m: read, 8 KiB, QD 4 × 4 threads, 500 I/Os on a SIMULATED device",
        "\n| bs | I/Os | s | IOPS | MB/s | mean µs | p99 µs |\n|---|--:|--:|--:|--:|--:|--:|\n",
        "\n| 8k | 500 | 0.0 | 206441 | 1691.2 | 73.4 | 314.4 |\n",
        "\n| 64k | 500 | 0.0 | 53092 | 3479.4 | 293.3 | 543.2 |\n",
        "\n| 256k | 500 | 0.0 | 13351 | 3499.8 | 1180.1 | 1423.4 |\n",
        "\n| 1m | 500 | 0.1 | 3338 | 3499.9 | 4720.7 | 4796.4 |\n",
        "\nKnee: bs=8k gives 206441 IOPS within p99<2ms.\n",
        "\nBandwidth reaches 90 % of its best at bs=64k (3479.4 MB/s).\n",
        "\n## Host and targets\n",
        "\n- engine sim (virtual-time), O_DIRECT; data: no data: the simulated device stores nothing\n",
        "\n## Warnings\n\n- simulated: no device was measured;",
    ];
    for f in fragments {
        assert!(text.contains(f), "the Markdown lacks {f:?}:\n{text}");
    }
    // The table rows come in step order, one per step, and nothing else is a table row.
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 5, "header and 4 steps: {rows:#?}");
    let firsts: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(" | ").next().unwrap())
        .collect();
    assert_eq!(firsts, ["| 8k", "| 64k", "| 256k", "| 1m"]);
    // `--md -` writes the same to stdout.
    let out = dbio_command()
        .args(["report", FIXTURE, "--md", "-"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
}
