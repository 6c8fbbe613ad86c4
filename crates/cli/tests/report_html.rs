//! `dbio report` and `--html` checked in a real browser: a real run, a session run and a
//! simulated block-size sweep are written as HTML and loaded in headless Chromium. The page
//! must draw (a screenshot that is not blank), log nothing to the console, request nothing
//! from the network (every request goes to a proxy the test counts), and each chart's SVG
//! must hold the series and points the JSON result says it should. Control pages show the
//! harness does catch a console error, a network request and a blank page.
//! Skips (with common's `skip`, a failure under CI=true) only when Chromium is not installed;
//! `.ci/run` installs it.

#![forbid(unsafe_code)]

mod common;
use common::browser::*;
use common::*;
use serde_json::Value;
use std::path::Path;

#[test]
fn the_harness_catches_console_errors_network_requests_and_blank_pages() {
    let Some(chrome) =
        chromium("the_harness_catches_console_errors_network_requests_and_blank_pages")
    else {
        return;
    };
    let dir = scratch();
    let bad = dir.path().join("control.html");
    std::fs::write(
        &bad,
        r#"<!DOCTYPE html><html><body><img src="http://dbio-control.example/x.png"><script>console.error("dbio-control")</script></body></html>"#,
    )
    .unwrap();
    let l = load(&chrome, &bad, None);
    assert_eq!(l.console.len(), 1, "{:#?}", l.console);
    assert!(l.console[0].contains("dbio-control"));
    assert!(
        l.requests
            .iter()
            .any(|r| r.contains("dbio-control.example")),
        "the proxy saw {:#?}",
        l.requests
    );
    let blank = dir.path().join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").unwrap();
    let shot = dir.path().join("blank.png");
    load(&chrome, &blank, Some(&shot));
    assert_eq!(png_spread(&shot), (0.0, 0.0));
}

#[test]
fn run_sweep_and_report_pages_draw_their_charts_offline_in_chromium() {
    let Some(chrome) = chromium("run_sweep_and_report_pages_draw_their_charts_offline_in_chromium")
    else {
        return;
    };
    let dir = scratch();
    let d = dir.path();
    let db = d.join("history.db");
    let db = db.to_str().unwrap();
    let file = |n: &str| d.join(n).to_str().unwrap().to_string();

    // A real 2 s randrw run, written as HTML by `dbio run --html` and stored with a label.
    let run_html = file("run.html");
    let run = run_ok(
        d,
        &[
            "--rw",
            "randrw",
            "--bs",
            "4k",
            "--qd",
            "4",
            "--duration",
            "2s",
            "--target",
            &file("data"),
            "--size",
            "16MiB",
            "--html",
            &run_html,
            "--db",
            db,
            "--label",
            "html-test",
        ],
    );
    // A session run (wait events) kept as JSON only.
    let session = run_ok(
        d,
        &[
            "slob",
            "--sessions",
            "2",
            "--work-unit",
            "4",
            "--update-pct",
            "20",
            "--duration",
            "1s",
            "--target",
            &file("sess"),
            "--size",
            "16MiB",
            "--no-store",
        ],
    );
    let session_json = file("result-session.json");
    std::fs::write(&session_json, session.to_string()).unwrap();
    // A simulated block-size sweep, written as HTML by `dbio sweep --html`.
    let sweep_json = file("sweep.json");
    let sweep_html = file("sweep.html");
    let out = dbio_command()
        .current_dir(d)
        .args([
            "sweep",
            "dss",
            "--engine",
            "sim",
            "--vary",
            "bs=8k,64k,256k",
            "--slo",
            "p99<2ms",
            "--ops",
            "2000",
            "--no-store",
            "-q",
            "--json",
            &sweep_json,
            "--html",
            &sweep_html,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sweep: Value =
        serde_json::from_str(&std::fs::read_to_string(&sweep_json).unwrap()).unwrap();
    // All three on one page, the run named by its label in the history.
    let all_html = file("all.html");
    let out = dbio_command()
        .args([
            "report",
            "html-test",
            &session_json,
            &sweep_json,
            "--db",
            db,
            "--html",
            &all_html,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    for page in [&run_html, &sweep_html, &all_html] {
        let text = std::fs::read_to_string(page).unwrap();
        for banned in [
            "<script", "<link", "<img", "<iframe", "url(", "@import", " src=",
        ] {
            assert!(!text.contains(banned), "{page} contains {banned}");
        }
        let l = load(&chrome, Path::new(page), None);
        assert_quiet(page, &l);
        assert!(l.dom.contains("</svg>"), "{page}: no chart in the DOM");
        assert_not_blank(&chrome, Path::new(page));
    }

    // The run's own page: the charts its JSON calls for, every warning in its words.
    let l = load(&chrome, Path::new(&run_html), None);
    assert_eq!(charts(&l.dom), expected_run_charts(&run));
    for w in run["warnings"].as_array().unwrap() {
        assert!(
            l.dom.contains(&dom_text(w["message"].as_str().unwrap())),
            "warning {w} missing"
        );
    }

    // The sweep's page: latency against IOPS (p99 and mean, a point per step) with the knee
    // and saturation the JSON names, and bandwidth against I/O size.
    let l = load(&chrome, Path::new(&sweep_html), None);
    let steps = sweep["steps"].as_array().unwrap().len();
    assert_eq!(steps, 3);
    assert_eq!(
        charts(&l.dom),
        vec![
            (
                "latency-iops".to_string(),
                vec![("p99".to_string(), steps), ("mean".to_string(), steps)]
            ),
            (
                "bandwidth-bs".to_string(),
                vec![("MB/s".to_string(), steps)]
            ),
        ]
    );
    for (mark, key) in [
        ("knee", "knee"),
        ("saturation", "saturation"),
        ("bandwidth-90", "bandwidth_90"),
    ] {
        assert_eq!(
            l.dom.contains(&format!("data-mark=\"{mark}\"")),
            !sweep[key].is_null(),
            "{mark}: JSON says {}",
            sweep[key]
        );
    }
    assert!(
        !sweep["bandwidth_90"].is_null(),
        "3.5 GB/s is reached at 64 KiB on nvme-gen3"
    );
    // The objective p99<2ms drawn as a line at 2000 µs.
    assert!(l.dom.contains(r#"data-limit="2000""#));

    // The report of all three: each result's charts in order, the wait-event table of the
    // session run with one row per event plus DB CPU.
    let l = load(&chrome, Path::new(&all_html), None);
    let mut want = expected_run_charts(&run);
    want.extend(expected_run_charts(&session));
    want.extend(charts(&std::fs::read_to_string(&sweep_html).unwrap()));
    assert_eq!(charts(&l.dom), want);
    let table = l
        .dom
        .split("data-table=\"wait-events\"")
        .nth(1)
        .expect("a wait-event table");
    let rows = table[..table.find("</table>").unwrap()]
        .matches("<tr>")
        .count();
    let events = session["session"]["events"].as_array().unwrap();
    assert_eq!(
        rows,
        1 + events.len() + 1,
        "header, one row per event, DB CPU"
    );
    for e in events {
        assert!(l.dom.contains(&dom_text(e["name"].as_str().unwrap())));
    }
}

#[test]
fn report_refuses_bad_input_in_one_line() {
    let dir = scratch();
    let d = dir.path();
    let db = d.join("h.db");
    let db = db.to_str().unwrap();
    let report = |args: &[&str]| {
        let out = dbio_command().args(["report"]).args(args).output().unwrap();
        Ran {
            code: out.status.code(),
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            json: None,
            args: args.iter().map(|s| s.to_string()).collect(),
        }
    };
    assert_one_line_error(&report(&["1", "--db", db]), &["--html", "--md", "--csv"]);
    // The history was never made: it is named as missing, not created empty.
    assert_one_line_error(
        &report(&["7", "--db", db, "--md", "-"]),
        &["7: no such run", "no history there"],
    );
    assert!(!d.join("h.db").exists());
    assert_one_line_error(
        &report(&["x.json", "--html", "-", "--db", db]),
        &["--html", "file"],
    );
    let junk = d.join("junk.json");
    std::fs::write(&junk, "{\"a\": 1}").unwrap();
    assert_one_line_error(
        &report(&[junk.to_str().unwrap(), "--md", "-", "--db", db]),
        &["junk.json: not a dbio result"],
    );
}
