//! DiskSpd's results as `dbio run --output-format diskspd|diskspd-xml` and `dbio diskspd
//! -Rxml` write them, read as DiskSpd's readers read them (the XML with an XML parser) and
//! held against dbio's JSON of the same run: every thread's counts, bytes and latency, the
//! totals and the percentiles. The element tree itself is held against DiskSpd's writer in
//! dbio-report's `tests/diskspd_xml.rs`.

#![forbid(unsafe_code)]

mod common;
use common::*;
use roxmltree::{Document, Node};
use serde_json::Value;
use std::path::Path;

fn run_in(dir: &Path, args: &[&str]) -> (String, String) {
    let (code, out, err) = dbio_in(dir, args);
    assert_eq!(code, Some(0), "dbio {args:?}: {err}");
    (out, err)
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn child<'a>(n: Node<'a, 'a>, name: &str) -> Node<'a, 'a> {
    n.children()
        .find(|c| c.has_tag_name(name))
        .unwrap_or_else(|| panic!("<{}> has no <{name}>", n.tag_name().name()))
}

fn text<'a>(n: Node<'a, 'a>, name: &str) -> &'a str {
    child(n, name).text().unwrap_or("")
}

fn number(n: Node, name: &str) -> u64 {
    text(n, name).parse().unwrap()
}

fn ms(ns: &Value) -> String {
    format!("{:.3}", ns.as_f64().unwrap() / 1e6)
}

/// The `Target`s of each `Thread` of the results' time span, thread by thread.
fn thread_targets<'a>(span: Node<'a, 'a>) -> Vec<Node<'a, 'a>> {
    span.children()
        .filter(|c| c.has_tag_name("Thread"))
        .flat_map(|t| t.children().filter(|c| c.has_tag_name("Target")))
        .collect()
}

#[test]
fn diskspd_xml_holds_each_thread_and_the_totals_of_dbio_s_json() {
    let dir = scratch();
    let (xml, _) = run_in(
        dir.path(),
        &[
            "run",
            "--engine",
            "sim",
            "--rw",
            "randrw",
            "--mix",
            "70",
            "--bs",
            "8k",
            "--qd",
            "4",
            "--threads",
            "3",
            "--ops",
            "30000",
            "--no-store",
            "--json",
            "r.json",
            "--output-format",
            "diskspd-xml",
        ],
    );
    let r = json(&dir.path().join("r.json"));
    let doc = Document::parse(&xml).expect("stdout is the XML document alone");
    assert!(doc.root_element().has_tag_name("Results"));
    let span = child(doc.root_element(), "TimeSpan");
    assert_eq!(number(span, "ThreadCount"), 3);
    let targets = thread_targets(span);
    let threads = r["threads"].as_array().expect("the JSON has each thread");
    assert_eq!(targets.len(), 3);
    assert_eq!(threads.len(), 3);
    for (t, j) in targets.iter().zip(threads) {
        for (el, dir) in [("Read", &j["read"]), ("Write", &j["write"])] {
            assert_eq!(
                number(*t, &format!("{el}Count")),
                dir["ios"].as_u64().unwrap()
            );
            assert_eq!(
                number(*t, &format!("{el}Bytes")),
                dir["bytes"].as_u64().unwrap()
            );
            let avg = format!("Average{el}LatencyMilliseconds");
            assert_eq!(text(*t, &avg), ms(&dir["mean_ns"]));
            assert_eq!(text(*t, &format!("{el}LatencyStdev")), ms(&dir["stdev_ns"]));
        }
    }
    let sum = |name: &str| targets.iter().map(|t| number(*t, name)).sum::<u64>();
    for (el, key) in [("Read", "read"), ("Write", "write")] {
        assert_eq!(sum(&format!("{el}Count")), r[key]["ios"].as_u64().unwrap());
        assert_eq!(
            sum(&format!("{el}Bytes")),
            r[key]["bytes"].as_u64().unwrap()
        );
    }
    assert_eq!(sum("IOCount"), 30_000);
    let secs = r["measured_secs"].as_f64().unwrap();
    assert_eq!(text(span, "TestTimeSeconds"), format!("{secs:.2}"));
    let latency = child(span, "Latency");
    let bucket = |p: &str, cell: &str| {
        let b = latency
            .children()
            .find(|b| b.has_tag_name("Bucket") && text(*b, "Percentile") == p)
            .unwrap();
        text(b, cell).to_string()
    };
    for (cell, key) in [("ReadMilliseconds", "read"), ("WriteMilliseconds", "write")] {
        let l = &r[key]["latency_ns"];
        for (p, k) in [
            ("0", "min"),
            ("50", "p50"),
            ("99", "p99"),
            ("99.9", "p99_9"),
            ("100", "max"),
        ] {
            assert_eq!(bucket(p, cell), ms(&l[k]), "{cell} at {p}");
        }
    }
}

/// `dbio diskspd` as typed: -t1 over two files (dbio's pool of two threads spread over
/// both), -Sh on a read run, -c1M files dbio creates; the null engine does no I/O, and the
/// run is cut to 300 ms by dbio's own --duration.
const DISKSPD: &[&str] = &[
    "diskspd", "-c1M", "-b4K", "-r", "-t1", "-o2", "-d1", "-W0", "-Sh", "a.dat", "b.dat",
];

/// `dbio diskspd` with DiskSpd's words `theirs` after [`DISKSPD`], then dbio's `ours`.
fn diskspd(dir: &Path, theirs: &[&str], ours: &[&str]) -> (String, String) {
    let mut args = DISKSPD.to_vec();
    args.extend(theirs);
    args.extend(["--engine", "null", "--duration", "300ms", "--no-store"]);
    args.extend(ours);
    run_in(dir, &args)
}

#[test]
fn diskspd_rxml_prints_the_xml_alone_with_the_settings_typed() {
    let dir = scratch();
    let (xml, err) = diskspd(dir.path(), &["-Rxml"], &["--json", "r.json"]);
    assert!(
        err.starts_with("dbio run --rw randread ") && err.contains("--output-format diskspd-xml"),
        "the dbio run line goes to stderr: {err}"
    );
    assert!(xml.starts_with("<Results>\n"), "{xml}");
    let doc = Document::parse(&xml).expect("stdout is the XML document alone");
    let results = doc.root_element();
    let profile = child(child(child(results, "Profile"), "TimeSpans"), "TimeSpan");
    assert_eq!(number(profile, "ThreadCount"), 2, "a pool of two threads");
    let targets: Vec<Node> = child(profile, "Targets")
        .children()
        .filter(|c| c.has_tag_name("Target"))
        .collect();
    let paths: Vec<&str> = targets.iter().map(|t| text(*t, "Path")).collect();
    assert_eq!(paths, ["a.dat", "b.dat"]);
    for t in &targets {
        assert_eq!(text(*t, "DisableOSCache"), "true");
        assert_eq!(text(*t, "WriteThrough"), "true", "-Sh on a read run");
        assert_eq!(text(*t, "WriteRatio"), "0");
        assert_eq!(number(*t, "BlockSize"), 4096);
        assert_eq!(number(*t, "FileSize"), 1 << 20);
    }
    let r = json(&dir.path().join("r.json"));
    let span = child(results, "TimeSpan");
    let reads: u64 = thread_targets(span)
        .iter()
        .map(|t| number(*t, "ReadCount"))
        .sum();
    assert_eq!(reads, r["read"]["ios"].as_u64().unwrap());
    let paths: Vec<&str> = thread_targets(span)
        .iter()
        .map(|t| text(*t, "Path"))
        .collect();
    assert_eq!(
        paths,
        ["a.dat", "b.dat", "a.dat", "b.dat"],
        "each thread, each target"
    );
    // A CPU element per cpuN line of /proc/stat, each with its own shares of its time.
    let stat = std::fs::read_to_string("/proc/stat").unwrap();
    let online = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && !l.starts_with("cpu "))
        .count();
    let cpus: Vec<Node> = child(span, "CpuUtilization")
        .children()
        .filter(|c| c.has_tag_name("CPU"))
        .collect();
    assert_eq!(cpus.len(), online);
    assert!(!xml.contains("dbio did not measure each CPU"));
    for c in cpus {
        let f = |name| text(c, name).parse::<f64>().unwrap();
        let (usage, user, kernel, idle) = (
            f("UsagePercent"),
            f("UserPercent"),
            f("KernelPercent"),
            f("IdlePercent"),
        );
        assert!((usage + idle - 100.0).abs() < 0.02, "{usage} + {idle}");
        assert!(user + kernel <= usage + 0.02, "{user} + {kernel} > {usage}");
    }
}

#[test]
fn diskspd_text_has_a_row_per_thread_and_the_command_line_typed() {
    let dir = scratch();
    let ours = ["--output-format", "diskspd", "--json", "r.json"];
    let (text, _) = diskspd(dir.path(), &[], &ours);
    let r = json(&dir.path().join("r.json"));
    let typed = format!("{DBIO} {}", DISKSPD.join(" "));
    assert!(
        text.starts_with("dbio run --rw randread"),
        "the run line first: {text}"
    );
    assert!(
        text.contains(&format!("\nCommand Line: {typed} --engine null")),
        "{text}"
    );
    assert!(text.contains("\tthread pool with 2 threads\n"), "{text}");
    assert!(text.contains("\t\thardware write cache disabled, writethrough on\n"));
    let start = text.find("\nRead IO\n").unwrap();
    let rows: Vec<Vec<&str>> = text[start..]
        .lines()
        .skip(4)
        .take_while(|l| !l.starts_with("----"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    let threads = r["threads"].as_array().unwrap();
    assert_eq!(rows.len(), threads.len() * 2, "a row per thread and target");
    let cells = threads.iter().enumerate().flat_map(|(i, t)| {
        let on = t["targets"].as_array().expect("each thread's targets");
        [("a.dat", &on[0]), ("b.dat", &on[1])].map(|(path, d)| (i, path, d))
    });
    for (row, (i, path, t)) in rows.iter().zip(cells) {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[1], t["read"]["bytes"].to_string());
        assert_eq!(row[2], t["read"]["ios"].to_string());
        assert_eq!(row[5], ms(&t["read"]["mean_ns"]));
        assert_eq!(row[7], format!("{path} (1MiB)"));
    }
}

/// Two threads spread over two files (psync, O_DIRECT, so each I/O is a system call):
/// each thread's reads and writes on each file, in the JSON and as DiskSpd's XML `Target`
/// of each `Thread`, are the pread64/pwrite64 calls strace saw that thread make on it.
#[test]
fn each_thread_counts_its_io_on_each_target_as_strace_sees_it() {
    let test = "each_thread_counts_its_io_on_each_target_as_strace_sees_it";
    let dir = scratch();
    let args = [
        "diskspd",
        "-c4M",
        "-b4K",
        "-r",
        "-t1",
        "-o1",
        "-d1",
        "-W0",
        "-w30",
        "-Sh",
        "-Rxml",
        "a.dat",
        "b.dat",
        "--engine",
        "psync",
        "--no-store",
        "--json",
        "r.json",
    ];
    let Some((xml, _)) = dbio_traced(test, dir.path(), &args) else {
        return;
    };
    // Each traced thread's 4 KiB reads and writes on a.dat and on b.dat (the prefill's
    // 1 MiB writes and the main thread's look at the files left out).
    let counts = |file: &str| -> Vec<(usize, usize)> {
        strace_ios(dir.path(), "trace", file)
            .iter()
            .map(|t| {
                let n = |w: bool| t.iter().filter(|i| i.write == w && i.len == 4096).count();
                (n(false), n(true))
            })
            .collect()
    };
    let (a, b) = (counts("a.dat"), counts("b.dat"));
    let mut traced: Vec<[(usize, usize); 2]> = a
        .into_iter()
        .zip(b)
        .map(|(a, b)| [a, b])
        .filter(|[a, b]| a.1 + b.1 > 0)
        .collect();
    traced.sort();
    let r = json(&dir.path().join("r.json"));
    let doc = Document::parse(&xml).expect("stdout is the XML document alone");
    let span = child(doc.root_element(), "TimeSpan");
    let xml_cells = thread_targets(span);
    let mut ours: Vec<[(usize, usize); 2]> = Vec::new();
    for (i, t) in r["threads"].as_array().unwrap().iter().enumerate() {
        let on = t["targets"].as_array().expect("each thread's targets");
        let cell = |k: usize| {
            let n = |d: &str| on[k][d]["ios"].as_u64().unwrap() as usize;
            let x = xml_cells[i * 2 + k];
            assert_eq!(text(x, "Path"), ["a.dat", "b.dat"][k]);
            assert_eq!(number(x, "ReadCount") as usize, n("read"));
            assert_eq!(number(x, "WriteCount") as usize, n("write"));
            (n("read"), n("write"))
        };
        ours.push([cell(0), cell(1)]);
    }
    ours.sort();
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert_eq!(ours, traced, "dbio's counts against strace's");
    assert!(ours.iter().flatten().all(|&(r, w)| r > 0 && w > 0));
}
