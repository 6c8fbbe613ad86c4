//! The HTML page of the committed fixtures without a browser (the browser test is
//! crates/cli/tests/report_html.rs): self-contained, every chart the results call for with
//! the points counted by hand from the fixture JSON, the wait-event table, every warning.

use dbio_report::item::Item;
use std::path::PathBuf;

fn item(file: &str) -> Item {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(file);
    let json = std::fs::read_to_string(path).expect("the fixture is committed");
    Item::from_json(file, &json).expect("the fixture is a dbio result")
}

/// `data-chart` of every chart and `data-series=… data-points=…` of its series, in order.
fn charts(page: &str) -> Vec<(String, Vec<String>)> {
    page.split("<svg ")
        .skip(1)
        .map(|c| {
            let svg = &c[..c.find("</svg>").unwrap()];
            let id = svg.split('"').nth(1).unwrap().to_string();
            let series = svg
                .split("<g ")
                .skip(1)
                .filter(|g| g.contains("data-series"))
                .map(|g| g[g.find("data-series").unwrap()..g.find('>').unwrap()].to_string())
                .collect();
            (id, series)
        })
        .collect()
}

#[test]
fn page_is_self_contained_with_the_charts_of_each_result() {
    let items = [
        item("run.json"),
        item("session.json"),
        item("sweep-bs.json"),
    ];
    let page = dbio_report::html::page(&items);
    for banned in [
        "<script", "<link", "<img", "url(", "@import", " src=", "https:",
    ] {
        assert!(!page.contains(banned), "the page contains {banned}");
    }
    assert!(page.contains("@media print"));
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // run.json: 1400 reads and 600 writes in 0.19 s (no whole second: no time charts).
    // Its read buckets span 23.0 µs (bin 43) to 13.98 ms (bin 71): 29 bins; writes 24.6 µs
    // (bin 43) to 4.6 ms (bin 66): 24 bins. 1400 and 600 I/Os resolve the percentiles up
    // to 99.9 and 99.5: 8 and 7 points.
    // session.json: 400 reads, 52 writes in 0.05 s; reads 16.7 µs (bin 42) to 4.56 ms
    // (bin 66): 25 bins; writes 72.3 µs (bin 48) to 460 µs (bin 56): 9 bins; percentiles up
    // to 99.5 (400 I/Os) and 95 (52 I/Os): 7 and 5 points.
    // sweep-bs.json: 4 steps; bandwidth at 90 % of the best at 64k.
    let want = vec![
        (
            "latency-histogram".to_string(),
            s(&[
                r#"data-series="read" data-points="29""#,
                r#"data-series="write" data-points="24""#,
            ]),
        ),
        (
            "percentiles".to_string(),
            s(&[
                r#"data-series="read" data-points="8""#,
                r#"data-series="write" data-points="7""#,
            ]),
        ),
        (
            "latency-histogram".to_string(),
            s(&[
                r#"data-series="read" data-points="25""#,
                r#"data-series="write" data-points="9""#,
            ]),
        ),
        (
            "percentiles".to_string(),
            s(&[
                r#"data-series="read" data-points="7""#,
                r#"data-series="write" data-points="5""#,
            ]),
        ),
        (
            "latency-iops".to_string(),
            s(&[
                r#"data-series="p99" data-points="4""#,
                r#"data-series="mean" data-points="4""#,
            ]),
        ),
        (
            "bandwidth-bs".to_string(),
            s(&[r#"data-series="MB/s" data-points="4""#]),
        ),
    ];
    assert_eq!(charts(&page), want);
    assert!(page.contains(r#"data-mark="bandwidth-90""#));
    // The objective p99<2ms as a line at 2000 µs; the knee (bs=8k, the only step within it).
    assert!(page.contains(r#"data-limit="2000""#));
    assert!(page.contains("knee bs=8k"));
    assert!(page.contains("90 % of best at bs=64k"));
    // The session run's four wait events, each a row of the table.
    for e in [
        "db file sequential read",
        "log file sync",
        "log file parallel write",
        "db file parallel write",
    ] {
        assert!(
            page.contains(&format!("<tr><td class=\"l\">{e}</td>")),
            "{e}"
        );
    }
    for w in [
        "the host's CPUs were 100 % busy",
        "host-cpu-bound",
        "simulated: no device was measured",
    ] {
        assert!(page.contains(w), "warning {w}");
    }
}
