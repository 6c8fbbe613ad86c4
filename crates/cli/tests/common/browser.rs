//! Pages checked in a real browser: headless Chromium loads an HTML file with every request
//! sent to a proxy that counts it, and gives back the DOM and the console; the charts of a
//! DOM, the charts a run's JSON calls for, and a screenshot that must not be blank.

use super::{dir_stats, skip};
use serde_json::Value;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Chromium binary; None (after a `skip` naming `test`) when it is not installed.
pub fn chromium(test: &str) -> Option<PathBuf> {
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
pub const BROWSER_OWN: [&str; 4] = ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"];

/// What the browser did with a page.
pub struct Loaded {
    /// The DOM after parsing (`--dump-dom`).
    pub dom: String,
    /// Console messages the page logged.
    pub console: Vec<String>,
    /// First lines of the HTTP requests the page made (through the counting proxy).
    pub requests: Vec<String>,
}

/// Loads `page` in headless Chromium with every request sent to a proxy that records it.
pub fn load(chrome: &Path, page: &Path, screenshot: Option<&Path>) -> Loaded {
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
pub fn png_spread(path: &Path) -> (f64, f64) {
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
pub fn charts(dom: &str) -> Vec<(String, Vec<(String, usize)>)> {
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
pub fn histogram_bins(d: &Value) -> usize {
    let b = d["histogram"]["buckets"].as_array().unwrap();
    let bin = |v: &Value| (v[0].as_f64().unwrap().log10() * 10.0).floor() as i64;
    (bin(b.last().unwrap()) - bin(&b[0]) + 1) as usize
}

/// Points of the percentile curve: the percentiles 0, 50, 75, 90, 95, 99, 99.5, 99.9,
/// 99.95, 99.99, 99.999 that `ios` I/Os resolve (q needs at least 1/(1 − q) I/Os).
pub fn percentile_points(ios: u64) -> usize {
    let need = [1, 2, 4, 10, 20, 100, 200, 1000, 2000, 10_000, 100_000];
    need.iter().filter(|n| **n <= ios).count()
}

/// The charts the JSON of a run says its page must have.
pub fn expected_run_charts(r: &Value) -> Vec<(String, Vec<(String, usize)>)> {
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
pub fn dom_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[track_caller]
pub fn assert_quiet(what: &str, l: &Loaded) {
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
pub fn assert_not_blank(chrome: &Path, page: &Path) {
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
