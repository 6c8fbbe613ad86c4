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
use common::*;
use serde_json::Value;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Chromium binary; None (after a `skip` naming `test`) when it is not installed.
fn chromium(test: &str) -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join(name))
                    .find(|f| f.is_file())
            })
        });
    if found.is_none() {
        skip(
            test,
            "chromium (or chromium-browser, google-chrome) is not installed (.ci/run installs it)",
        );
    }
    found
}

/// Hosts Chromium itself talks to (time, updates, accounts) even with background networking
/// off: not requests of the page.
const BROWSER_OWN: [&str; 4] = ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"];

/// What the browser did with a page.
struct Loaded {
    /// The DOM after parsing (`--dump-dom`).
    dom: String,
    /// Console messages the page logged.
    console: Vec<String>,
    /// First lines of the HTTP requests the page made (through the counting proxy).
    requests: Vec<String>,
}

/// Loads `page` in headless Chromium with every request sent to a proxy that records it.
fn load(chrome: &Path, page: &Path, screenshot: Option<&Path>) -> Loaded {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(AtomicBool::new(false));
    let proxy = {
        let (seen, done) = (seen.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((mut c, _)) => {
                        c.set_nonblocking(false).unwrap();
                        c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                        let mut buf = [0u8; 512];
                        let n = c.read(&mut buf).unwrap_or(0);
                        let text = String::from_utf8_lossy(&buf[..n]);
                        let first = text.lines().next().unwrap_or("").to_string();
                        // Chromium may open a connection to the proxy ahead of need (a
                        // preconnect) and close it unused: only a request line is a request.
                        if !first.is_empty() {
                            seen.lock().unwrap().push(first);
                        }
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        })
    };
    let mut cmd = std::process::Command::new(chrome);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1280,1800",
        "--proxy-bypass-list=<-loopback>",
    ])
    .arg(format!("--proxy-server=http://127.0.0.1:{port}"))
    .arg(format!(
        "--user-data-dir={}",
        page.with_extension("profile").display()
    ));
    match screenshot {
        Some(s) => cmd.arg(format!("--screenshot={}", s.display())),
        None => cmd.arg("--dump-dom"),
    };
    let out = cmd
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("start chromium");
    done.store(true, Ordering::Relaxed);
    proxy.join().unwrap();
    assert!(
        out.status.success(),
        "chromium failed on {}: {}",
        page.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console = stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    let requests = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|r| {
            let target = r.split_whitespace().nth(1).unwrap_or("");
            let host = target
                .trim_start_matches("http://")
                .trim_start_matches("https://")
                .split(['/', ':'])
                .next()
                .unwrap_or("");
            !BROWSER_OWN
                .iter()
                .any(|own| host == *own || host.ends_with(&format!(".{own}")))
        })
        .cloned()
        .collect();
    Loaded {
        dom: String::from_utf8_lossy(&out.stdout).into_owned(),
        console,
        requests,
    }
}

/// Standard deviation of the grey level of a PNG screenshot, and the share of pixels that
/// differ from the top-left one.
fn png_spread(path: &Path) -> (f64, f64) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    assert!(px >= 3, "an RGB screenshot, got {:?}", info.color_type);
    let grey: Vec<f64> = buf[..info.buffer_size()]
        .chunks(px)
        .map(|p| (p[0] as f64 + p[1] as f64 + p[2] as f64) / 3.0)
        .collect();
    let n = grey.len() as f64;
    let mean = grey.iter().sum::<f64>() / n;
    let var = grey.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / n;
    let differ = grey.iter().filter(|g| **g != grey[0]).count() as f64 / n;
    (var.sqrt(), differ)
}

/// Every chart of a DOM: (data-chart, [(data-series, data-points)]), in page order.
fn charts(dom: &str) -> Vec<(String, Vec<(String, usize)>)> {
    let attr = |s: &str, name: &str| -> Option<String> {
        let at = s.find(&format!("{name}=\""))? + name.len() + 2;
        Some(s[at..at + s[at..].find('"')?].to_string())
    };
    dom.split("<svg ")
        .skip(1)
        .map(|chunk| {
            let svg = &chunk[..chunk.find("</svg>").expect("a closed svg")];
            let chart = attr(svg, "data-chart").expect("every svg names its chart");
            let series = svg
                .split("<g ")
                .skip(1)
                .filter_map(|g| {
                    Some((
                        attr(g, "data-series")?,
                        attr(g, "data-points")?.parse().unwrap(),
                    ))
                })
                .collect();
            (chart, series)
        })
        .collect()
}

/// Latency bins (10 per decade) from the first to the last non-empty HDR bucket.
fn histogram_bins(d: &Value) -> usize {
    let b = d["histogram"]["buckets"].as_array().unwrap();
    let bin = |v: &Value| (v[0].as_f64().unwrap().log10() * 10.0).floor() as i64;
    (bin(b.last().unwrap()) - bin(&b[0]) + 1) as usize
}

/// Points of the percentile curve: the percentiles 0, 50, 75, 90, 95, 99, 99.5, 99.9,
/// 99.95, 99.99, 99.999 that `ios` I/Os resolve (q needs at least 1/(1 − q) I/Os).
fn percentile_points(ios: u64) -> usize {
    let need = [1, 2, 4, 10, 20, 100, 200, 1000, 2000, 10_000, 100_000];
    need.iter().filter(|n| **n <= ios).count()
}

/// The charts the JSON of a run says its page must have.
fn expected_run_charts(r: &Value) -> Vec<(String, Vec<(String, usize)>)> {
    let dirs: Vec<(&str, &Value)> = ["read", "write", "flush"]
        .into_iter()
        .filter_map(|d| {
            dir_stats(r, d)
                .filter(|s| s["ios"].as_u64() > Some(0))
                .map(|s| (d, s))
        })
        .collect();
    let mut out = vec![
        (
            "latency-histogram".to_string(),
            dirs.iter()
                .map(|(n, d)| (n.to_string(), histogram_bins(d)))
                .collect(),
        ),
        (
            "percentiles".to_string(),
            dirs.iter()
                .map(|(n, d)| (n.to_string(), percentile_points(d["ios"].as_u64().unwrap())))
                .collect(),
        ),
    ];
    // Whole seconds of the measured window (a tail under half a second is not drawn).
    let secs = r["measured_secs"].as_f64().unwrap();
    let seconds = (secs.floor() + if secs.fract() >= 0.5 { 1.0 } else { 0.0 }) as usize;
    let iops: Vec<(String, usize)> = ["read", "write"]
        .into_iter()
        .filter(|d| dirs.iter().any(|(n, _)| n == d))
        .map(|d| (d.to_string(), seconds))
        .collect();
    if seconds == 0 {
        return out;
    }
    out.push(("iops-time".into(), iops));
    out.push(("mbs-time".into(), vec![("MB/s".into(), seconds)]));
    out.push(("p99-time".into(), vec![("p99".into(), seconds)]));
    out
}

/// The text of a warning as it stands in the DOM (text nodes escape &, < and >).
fn dom_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[track_caller]
fn assert_quiet(what: &str, l: &Loaded) {
    assert!(
        l.console.is_empty(),
        "{what}: console messages: {:#?}",
        l.console
    );
    assert!(
        l.requests.is_empty(),
        "{what}: network requests: {:#?}",
        l.requests
    );
}

#[track_caller]
fn assert_not_blank(chrome: &Path, page: &Path) {
    let shot = page.with_extension("png");
    load(chrome, page, Some(&shot));
    let (spread, differ) = png_spread(&shot);
    assert!(
        spread > 10.0 && differ > 0.02,
        "{}: the screenshot looks blank (grey level spread {spread:.1}, {:.2} % of pixels differ from the corner)",
        page.display(),
        differ * 100.0
    );
}

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
