//! `dbio suite` against hand-computed answers on a simulated device (4 channels, constant
//! 100 µs, no bandwidth cap: latency = max(1, outstanding / 4) × 100 µs, IOPS = min(outstanding,
//! 4) / 100 µs), and one quick assessment on real temporary files whose parts, targets
//! and scorecard are checked against the README's description and the parts' own figures.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

const SIM: &str = "channels=4,service=100us,dist=const,bw=none";

fn score(s: &Value, check: &str) -> (f64, bool) {
    let c = s["scorecard"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == check)
        .unwrap_or_else(|| panic!("no check {check:?}"));
    (c["value"].as_f64().unwrap(), c["pass"].as_bool().unwrap())
}

#[test]
fn the_scorecard_of_a_simulated_device_matches_the_hand_computed_one() {
    let dir = scratch();
    let t = dir.path().join("t.toml");
    std::fs::write(
        &t,
        "data_read_p99 = \"150us\"\nlog_write_p99 = \"150us\"\ntempdb_p99 = \"500us\"\nknee_iops = 30000\ndss_mb_s = 50000\n",
    )
    .unwrap();
    let json = dir.path().join("s.json");
    let html = dir.path().join("s.html");
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "suite",
            "--quick",
            "--engine",
            "sim",
            "--sim",
            SIM,
            "--thresholds",
            t.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "-q",
            "--no-store",
            "--html",
            html.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(&schema("suite-result.v1.json"), "suite", &s);
    // Ramp qd 1, 4, 16, 64: 100, 100, 400, 1600 µs; only qd 1 and 4 meet 150 µs; qd 4 has more IOPS.
    assert_eq!(s["oltp_read"]["knee"]["value"], "4");
    let near = |got: f64, want: f64| (got - want).abs() <= want * 0.01;
    let (v, pass) = score(&s, "data read p99 at the knee");
    assert!(near(v, 100.0) && pass, "{v}");
    let (v, pass) = score(&s, "IOPS at the knee");
    assert!(near(v, 40_000.0) && pass, "{v}");
    assert_eq!(
        s["oltp_at_knee"]["job"]["qd"], 4,
        "oltp runs at the knee's queue depth"
    );
    let (v, pass) = score(&s, "OLTP read p99");
    assert!(near(v, 100.0) && pass, "{v}");
    // Log writers at QD 1: 1 writer 100 µs; 8 writers on 4 channels 200 µs, over 150 µs.
    let (v, pass) = score(&s, "log write p99, 1 writer");
    assert!(near(v, 100.0) && pass, "{v}");
    let (v, pass) = score(&s, "log write p99, 8 writers");
    assert!(near(v, 200.0) && !pass, "{v}");
    // TempDB: QD 16 on 4 channels, 400 µs.
    let (v, pass) = score(&s, "TempDB p99");
    assert!(near(v, 400.0) && pass, "{v}");
    // DSS: 4 threads × QD 4 keep 4 channels busy: 40,000 IOPS × 1 MiB = 41,943 MB/s < 50,000.
    let (v, pass) = score(&s, "DSS bandwidth, best");
    assert!(near(v, 40_000.0 * 1_048_576.0 / 1e6) && !pass, "{v}");
    assert_eq!(s["partial"], false);
    // The page: the scorecard (a header and 8 checks), then the five parts, each with charts.
    let page = std::fs::read_to_string(&html).unwrap();
    let card = &page[page.find("data-table=\"scorecard\"").unwrap()..];
    let card = &card[..card.find("</table>").unwrap()];
    assert_eq!(card.matches("<tr>").count(), 1 + 8);
    assert_eq!(card.matches("FAIL").count(), 2, "log 8 writers and DSS");
    assert!(page.matches("<h3>").count() >= 5);
    assert!(page.matches("<svg").count() >= 5);
    // dbio report renders the stored JSON too.
    let md = dbio_command()
        .args(["report", json.to_str().unwrap(), "--md", "-"])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.starts_with("# dbio suite") && md.contains("6 of 8 checks pass"),
        "{md}"
    );
}

#[test]
fn a_quick_assessment_on_files_runs_every_part_and_is_stored() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let f = dir.path().join("d.dat");
    let json = dir.path().join("s.json");
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "suite",
            "--quick",
            "--target",
            f.to_str().unwrap(),
            "--size",
            "16MiB",
            "--db",
            db.to_str().unwrap(),
            "--label",
            "quick",
            "--json",
            json.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for part in [
        "part 1/5",
        "part 2/5",
        "part 3/5",
        "part 4/5",
        "part 5/5",
        "== scorecard",
    ] {
        assert!(text.contains(part), "missing {part}");
    }
    // The log and TempDB went beside the data file, each of the asked size.
    for name in ["d.dat", "d.dat.log", "d.dat.tempdb"] {
        let len = std::fs::metadata(dir.path().join(name)).map(|m| m.len());
        assert_eq!(len.ok(), Some(16 << 20), "{name}");
    }
    let s: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(&schema("suite-result.v1.json"), "suite", &s);
    let values = |part: &str| -> Vec<String> {
        s[part]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    // What the README says the suite runs: an oltp-read concurrency ramp on the data target,
    // oltp at the knee's queue depth, log commits with 1, 2, 4 and 8 writers on the log
    // target, tempdb on the TempDB target, and a dss I/O-size sweep.
    let path = |r: &Value| r["targets"][0]["path"].as_str().unwrap().to_string();
    let target = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    assert_eq!(s["oltp_read"]["vary"], "qd");
    for step in s["oltp_read"]["steps"].as_array().unwrap() {
        assert_eq!(step["job"]["profile"], "oltp-read");
        assert_eq!(path(step), target("d.dat"));
    }
    let knee_qd = s["oltp_at_knee"]["job"]["qd"].to_string();
    assert_eq!(s["oltp_at_knee"]["job"]["profile"], "oltp");
    match s["oltp_read"]["knee"]["value"].as_str() {
        Some(knee) => assert_eq!(knee_qd, knee, "oltp at the knee's queue depth"),
        None => assert!(values("oltp_read").contains(&knee_qd), "{knee_qd}"),
    }
    assert_eq!(values("log"), ["1", "2", "4", "8"]);
    for (step, writers) in s["log"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .zip([1, 2, 4, 8])
    {
        assert_eq!(step["job"]["profile"], "log");
        assert_eq!(step["job"]["threads"], writers);
        assert_eq!(path(step), target("d.dat.log"));
    }
    assert_eq!(s["tempdb"]["job"]["profile"], "tempdb");
    assert_eq!(path(&s["tempdb"]), target("d.dat.tempdb"));
    assert_eq!(s["dss"]["vary"], "bs");
    // The scorecard holds the parts' own figures, each judged against its threshold.
    let p99_us = |r: &Value, dir: &str| num(r, &format!("/{dir}/latency_ns/p99")) / 1000.0;
    let log_steps = s["log"]["steps"].as_array().unwrap();
    let best_dss = s["dss"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| num(r, "/read/mb_s"))
        .fold(0.0, f64::max);
    let expected = [
        ("OLTP read p99", p99_us(&s["oltp_at_knee"], "read")),
        ("OLTP write p99", p99_us(&s["oltp_at_knee"], "write")),
        ("log write p99, 1 writer", p99_us(&log_steps[0], "write")),
        ("log write p99, 8 writers", p99_us(&log_steps[3], "write")),
        ("DSS bandwidth, best", best_dss),
    ];
    for (check, want) in expected {
        let (value, pass) = score(&s, check);
        assert!(
            (value - want).abs() <= want * 1e-9,
            "{check}: {value}, the part says {want}"
        );
        let c = s["scorecard"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == check)
            .unwrap();
        let limit = c["limit"].as_f64().unwrap();
        let at_most = c["at_most"].as_bool().unwrap();
        let ok = if at_most {
            value <= limit
        } else {
            value >= limit
        };
        assert_eq!(pass, ok, "{check}: {value} against {limit}");
    }
    let listed = dbio_command()
        .args(["history", "--db", db.to_str().unwrap(), "--label", "quick"])
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert_eq!(
        listed.lines().filter(|l| l.contains("suite")).count(),
        1,
        "one suite stored: {listed}"
    );
}

#[test]
fn bad_thresholds_are_refused_in_one_line() {
    let dir = scratch();
    let t = dir.path().join("bad.toml");
    std::fs::write(&t, "knee_iops = 100\nlog_latency = \"1ms\"\n").unwrap();
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "suite",
            "--quick",
            "--engine",
            "sim",
            "--thresholds",
            t.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.toml, line 2") && err.contains("log_latency"),
        "{err}"
    );
}

#[test]
fn a_size_too_small_for_the_dss_part_is_refused_before_any_part_runs() {
    let dir = scratch();
    let out = dbio_command()
        .current_dir(dir.path())
        .args([
            "suite",
            "--quick",
            "--size",
            "512k",
            "--target",
            "q1",
            "--no-store",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--size 512k") && err.contains("1 MiB"),
        "{err}"
    );
    assert!(!dir.path().join("q1").exists(), "a part ran first");
}

/// A captured workload as a sixth part: fio's own iolog imported, made a profile, and run by
/// a quick suite on the simulated device at 1x, 2x and 4x the rate the profile took from it.
#[test]
fn a_captured_profile_runs_at_one_two_and_four_times_its_rate() {
    let test = "a_captured_profile_runs_at_one_two_and_four_times_its_rate";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    let d = dir.path();
    let out = std::process::Command::new(fio)
        .current_dir(d)
        .args([
            "--name=load",
            "--filename=f.dat",
            "--size=16m",
            "--rw=randread",
            "--bs=8k",
        ])
        .args([
            "--direct=1",
            "--ioengine=psync",
            "--number_ios=600",
            "--rate_iops=2000",
        ])
        .args(["--write_iolog=job.iolog", "--output-format=json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    for args in [
        &["capture", "--import", "job.iolog", "--out", "t.trace", "-q"][..],
        &["capture", "--profile", "p.toml", "--from", "t.trace"],
    ] {
        let (code, _, err) = dbio_in(d, args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
    let toml = std::fs::read_to_string(d.join("p.toml")).unwrap();
    let rate: f64 = toml
        .lines()
        .find_map(|l| l.strip_prefix("rate = "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no rate in {toml}"));
    let args = [
        "suite",
        "--quick",
        "--engine",
        "sim",
        "--sim",
        SIM,
        "--profile",
        "p.toml",
    ];
    let (code, text, err) = dbio_in(
        d,
        &[&args[..], &["--json", "s.json", "--no-store"]].concat(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("part 6/6: the captured workload"), "{text}");
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
    let steps = s["captured"]["steps"].as_array().unwrap();
    assert_eq!(
        s["captured"]["values"],
        serde_json::json!(["1x", "2x", "4x"])
    );
    for (step, times) in steps.iter().zip([1.0, 2.0, 4.0]) {
        assert_eq!(step["job"]["rate"].as_f64(), Some(rate * times), "{step}");
        assert_eq!(step["job"]["read_pct"], 100, "the profile's reads");
        let iops = step["read"]["iops"].as_f64().unwrap();
        assert!(
            (iops - rate * times).abs() <= rate * times * 0.05,
            "{iops} at {times}x of {rate}"
        );
    }
}
