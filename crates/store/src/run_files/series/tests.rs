//! The two-pass read against the whole read: the same result, the same refusals.

use super::*;

/// The fixture run with `n` seconds, each with a histogram's text.
fn run(n: usize) -> RunResult {
    let mut r: RunResult =
        serde_json::from_str(include_str!("../../../../report/tests/fixtures/run.json"))
            .expect("the fixture is a run");
    let p = r.timeseries[0].clone();
    r.timeseries = (0..n)
        .map(|k| TimePoint {
            t: k as f64 + 1.0,
            read_iops: 1_234.567_891_234 * (k as f64 + 1.0),
            mb_s: 1e-7 * k as f64,
            hist: Some(format!("HISTFAAAA{}", "x".repeat(k % 200)).into()),
            ..p.clone()
        })
        .collect();
    r
}

/// Writes `text` to a file of `dir` and returns its path.
fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn the_head_is_the_result_without_its_seconds_and_the_seconds_come_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(300);
    let compact = serde_json::to_string(&r).unwrap();
    let pretty = serde_json::to_string_pretty(&r).unwrap();
    for (name, text) in [("c.json", compact), ("p.json", pretty)] {
        let path = file(&dir, name, &text);
        let head = read_head(&path).unwrap();
        assert!(head.seconds.span.is_some(), "{name} is read in two passes");
        // As the whole read gives them (serde_json's numbers may differ from the written
        // ones in their last bit, but alike for both reads).
        let whole = read_result(&path).unwrap();
        assert_eq!(whole.timeseries.len(), r.timeseries.len());
        assert_eq!(head.result, without(&whole), "{name}");
        assert!(seconds(&head) == whole.timeseries, "{name}: other seconds");
    }
}

/// Every damage read_result refuses, read_head refuses with its message; a file laid out
/// otherwise (keys escaped) still reads.
#[test]
fn what_the_whole_read_refuses_the_head_refuses_alike() {
    let dir = tempfile::tempdir().unwrap();
    let good = serde_json::to_string(&run(3)).unwrap();
    let damaged = [
        good.replacen("\"t\":2.0", "\"t\":\"2\"", 1),
        good.replacen("\"hist\":\"HISTFAAAAx\"", "\"hist\":7", 1),
        good.replacen("\"p99_us\"", "\"p98_us\"", 1),
        good.replacen("\"timeseries\"", "\"timeseriez\"", 1),
        good.replacen("\"schema\":\"dbio.run/1\"", "\"schema\":\"dbio.run/9\"", 1),
        good.replacen("\"HISTFAAAAxx\"", "\"HIST\\ud800\"", 1),
        format!("{good} trailing"),
        good[..good.len() / 2].to_string(),
        "[1, 2]".into(),
    ];
    for (i, text) in damaged.iter().enumerate() {
        assert_ne!(text, &good, "damage {i} applies");
        let path = file(&dir, &format!("d{i}.json"), text);
        let whole = read_result(&path)
            .map(|_| ())
            .expect_err(&format!("damage {i}"))
            .to_string();
        let head = read_head(&path).map(|_| ()).unwrap_err().to_string();
        assert_eq!(head, whole, "damage {i}");
    }
    let twice = good.replacen("\"timeseries\":[", "\"timeseries\":[],\"timeseries\":[", 1);
    let escaped = good.replacen("\"timeseries\"", "\"time\\u0073eries\"", 1);
    for (name, text) in [("twice.json", twice), ("escaped.json", escaped)] {
        let path = file(&dir, name, &text);
        let head = read_head(&path).unwrap();
        let whole = read_result(&path).unwrap();
        assert_eq!(head.result, without(&whole), "{name}");
        assert!(seconds(&head) == whole.timeseries, "{name}: other seconds");
    }
}

/// `r` without its seconds.
fn without(r: &RunResult) -> RunResult {
    let mut r = r.clone();
    r.timeseries.clear();
    r
}

/// The seconds `head` hands on.
fn seconds(head: &RunHead) -> Vec<TimePoint> {
    let mut points = Vec::new();
    head.seconds.each(&mut |p| points.push(p.clone())).unwrap();
    points
}
