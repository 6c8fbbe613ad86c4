//! DiskSpd's XML results as dbio writes them, read with an XML parser (roxmltree) and held
//! against an element tree written by hand from DiskSpd's own writer (microsoft/diskspd:
//! `XmlResultParser/XmlResultParser.cpp` for `Results` and `TimeSpan`, `Common/Common.h`
//! `SystemInformation::GetXml` for `System`, `Common/Common.cpp` `Profile`, `TimeSpan` and
//! `Target::GetXml` for `Profile`); and its figures against dbio's JSON of the same run.

use dbio_model::RunResult;
use dbio_report::diskspd_xml::to_diskspd_xml;
use roxmltree::{Document, Node};
use std::collections::BTreeMap;

/// The committed fixture run: random 70/30 reads and writes of 4 KiB on one file, direct,
/// measured to 2000 I/Os.
fn run() -> RunResult {
    let text = include_str!("fixtures/run.json");
    serde_json::from_str(text).expect("the fixture run")
}

/// Each element with element children, by its path, and the names of its children in
/// order (a run of one name, e.g. the `Bucket`s or `CPU`s, written once), for a run like
/// the fixture: one target, random, the OS cache off, reads and writes, latency measured,
/// no IOPS deviation, no ETW, not verbose. Taken from DiskSpd's writer, in its order.
const TREE: &[(&str, &[&str])] = &[
    ("Results", &["System", "Profile", "TimeSpan"]),
    (
        "Results/System",
        &[
            "ComputerName",
            "Tool",
            "RunTime",
            "PowerScheme",
            "ProcessorTopology",
        ],
    ),
    ("Results/System/Tool", &["Version", "VersionDate"]),
    ("Results/System/ProcessorTopology", &["Group"]),
    (
        "Results/Profile",
        &["Progress", "ResultFormat", "Verbose", "TimeSpans"],
    ),
    ("Results/Profile/TimeSpans", &["TimeSpan"]),
    (
        "Results/Profile/TimeSpans/TimeSpan",
        &[
            "CompletionRoutines",
            "MeasureLatency",
            "CalculateIopsStdDev",
            "DisableAffinity",
            "Duration",
            "Warmup",
            "Cooldown",
            "ThreadCount",
            "RequestCount",
            "IoBucketDuration",
            "RandSeed",
            "Targets",
        ],
    ),
    ("Results/Profile/TimeSpans/TimeSpan/Targets", &["Target"]),
    (
        "Results/Profile/TimeSpans/TimeSpan/Targets/Target",
        &[
            "Path",
            "BlockSize",
            "BaseFileOffset",
            "SequentialScan",
            "RandomAccess",
            "TemporaryFile",
            "UseLargePages",
            "DisableOSCache",
            "WriteBufferContent",
            "ParallelAsyncIO",
            "FileSize",
            "Random",
            "ThreadStride",
            "MaxFileSize",
            "RequestCount",
            "WriteRatio",
            "Throughput",
            "ThreadsPerFile",
            "IOPriority",
            "Weight",
        ],
    ),
    (
        "Results/Profile/TimeSpans/TimeSpan/Targets/Target/WriteBufferContent",
        &["Pattern"],
    ),
    (
        "Results/TimeSpan",
        &[
            "TestTimeSeconds",
            "ThreadCount",
            "RequestCount",
            "ProcCount",
            "CpuUtilization",
            "Latency",
            "Thread",
        ],
    ),
    ("Results/TimeSpan/CpuUtilization", &["CPU", "Average"]),
    (
        "Results/TimeSpan/CpuUtilization/CPU",
        &[
            "Socket",
            "Node",
            "Group",
            "Core",
            "EfficiencyClass",
            "Id",
            "UsagePercent",
            "UserPercent",
            "KernelPercent",
            "IdlePercent",
        ],
    ),
    (
        "Results/TimeSpan/CpuUtilization/Average",
        &[
            "UsagePercent",
            "UserPercent",
            "KernelPercent",
            "IdlePercent",
        ],
    ),
    (
        "Results/TimeSpan/Latency",
        &[
            "AverageReadMilliseconds",
            "ReadLatencyStdev",
            "AverageWriteMilliseconds",
            "WriteLatencyStdev",
            "AverageTotalMilliseconds",
            "LatencyStdev",
            "Bucket",
        ],
    ),
    (
        "Results/TimeSpan/Latency/Bucket",
        &[
            "Percentile",
            "ReadMilliseconds",
            "WriteMilliseconds",
            "TotalMilliseconds",
        ],
    ),
    ("Results/TimeSpan/Thread", &["Id", "Target"]),
    (
        "Results/TimeSpan/Thread/Target",
        &[
            "Path",
            "BytesCount",
            "FileSize",
            "IOCount",
            "ReadBytes",
            "ReadCount",
            "WriteBytes",
            "WriteCount",
            "AverageReadLatencyMilliseconds",
            "ReadLatencyStdev",
            "AverageWriteLatencyMilliseconds",
            "WriteLatencyStdev",
            "AverageLatencyMilliseconds",
            "LatencyStdev",
        ],
    ),
];

/// The percentiles of DiskSpd's latency buckets, as its writer prints them: 0 (min), 1 to
/// 99, 99.9 to 99.9999999 (`%.*f`, no trailing zeros), 100 (max).
fn bucket_percentiles() -> Vec<String> {
    let mut v = vec!["0".to_string()];
    v.extend((1..=99).map(|p| p.to_string()));
    for nines in 1..=7 {
        v.push(format!("99.{}", "9".repeat(nines)));
    }
    v.push("100".into());
    v
}

fn path_of(n: Node) -> String {
    let mut names: Vec<&str> = n
        .ancestors()
        .filter(Node::is_element)
        .map(|a| a.tag_name().name())
        .collect();
    names.reverse();
    names.join("/")
}

/// Every element with element children: its path and its children's names, runs of one
/// name written once; an element whose children differ between two of its occurrences
/// fails.
fn tree(doc: &Document) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for n in doc.descendants().filter(|n| n.is_element()) {
        let mut kids: Vec<String> = n
            .children()
            .filter(Node::is_element)
            .map(|c| c.tag_name().name().to_string())
            .collect();
        kids.dedup();
        if kids.is_empty() {
            continue;
        }
        let path = path_of(n);
        if let Some(seen) = out.get(&path) {
            assert_eq!(
                seen, &kids,
                "{path}: its children differ between occurrences"
            );
        }
        out.insert(path, kids);
    }
    out
}

fn child<'a>(n: Node<'a, 'a>, name: &str) -> Node<'a, 'a> {
    n.children()
        .find(|c| c.has_tag_name(name))
        .unwrap_or_else(|| panic!("{} has no {name}", path_of(n)))
}

fn text<'a>(n: Node<'a, 'a>, name: &str) -> &'a str {
    child(n, name).text().unwrap_or("")
}

fn ms(ns: f64) -> String {
    format!("{:.3}", ns / 1e6)
}

#[test]
fn the_elements_are_named_and_nested_as_diskspd_writes_them() {
    let xml = to_diskspd_xml(&run());
    let doc = Document::parse(&xml).expect("well-formed XML");
    let got = tree(&doc);
    let want: BTreeMap<String, Vec<String>> = TREE
        .iter()
        .map(|(p, kids)| (p.to_string(), kids.iter().map(|k| k.to_string()).collect()))
        .collect();
    for (path, kids) in &want {
        assert_eq!(got.get(path), Some(kids), "children of {path}");
    }
    let extra: Vec<&String> = got.keys().filter(|p| !want.contains_key(*p)).collect();
    assert!(
        extra.is_empty(),
        "elements DiskSpd does not nest: {extra:?}"
    );
    let root = doc.root_element();
    let span = child(root, "TimeSpan");
    let latency = child(span, "Latency");
    for attr in ["ReadHistoBuckets", "WriteHistoBuckets", "TotalHistoBuckets"] {
        let n: u64 = latency.attribute(attr).expect(attr).parse().expect(attr);
        assert!(n > 0, "{attr}");
    }
    let percentiles: Vec<&str> = latency
        .children()
        .filter(|c| c.has_tag_name("Bucket"))
        .map(|b| text(b, "Percentile"))
        .collect();
    assert_eq!(percentiles, bucket_percentiles());
    let cpus = child(span, "CpuUtilization")
        .children()
        .filter(|c| c.has_tag_name("CPU"))
        .count();
    assert_eq!(cpus, 2, "one CPU element per processor of the host");
    // Fixed formats: seconds and percentages with two decimals, milliseconds with three.
    assert_eq!(
        text(span, "TestTimeSeconds"),
        format!("{:.2}", run().measured_secs)
    );
    let avg = child(child(span, "CpuUtilization"), "Average");
    assert_eq!(text(avg, "UsagePercent"), "100.00");
}

#[test]
fn its_totals_and_percentiles_are_dbio_s_json() {
    let r = run();
    let json: serde_json::Value = serde_json::from_str(include_str!("fixtures/run.json")).unwrap();
    let xml = to_diskspd_xml(&r);
    let doc = Document::parse(&xml).unwrap();
    let span = child(doc.root_element(), "TimeSpan");
    let targets: Vec<Node> = span
        .children()
        .filter(|c| c.has_tag_name("Thread"))
        .map(|t| child(t, "Target"))
        .collect();
    let sum = |name: &str| -> u64 {
        targets
            .iter()
            .map(|t| text(*t, name).parse::<u64>().unwrap())
            .sum()
    };
    let (read, write) = (&json["read"], &json["write"]);
    assert_eq!(sum("ReadCount"), read["ios"].as_u64().unwrap());
    assert_eq!(sum("ReadBytes"), read["bytes"].as_u64().unwrap());
    assert_eq!(sum("WriteCount"), write["ios"].as_u64().unwrap());
    assert_eq!(sum("WriteBytes"), write["bytes"].as_u64().unwrap());
    let ios = read["ios"].as_u64().unwrap() + write["ios"].as_u64().unwrap();
    assert_eq!(sum("IOCount"), ios);
    // IOPS as scripts make it: the I/Os over the test time written (two decimals).
    let secs: f64 = text(span, "TestTimeSeconds").parse().unwrap();
    let iops = read["iops"].as_f64().unwrap() + write["iops"].as_f64().unwrap();
    let err = (sum("IOCount") as f64 / secs - iops).abs() / iops;
    assert!(
        err <= 0.005 / secs,
        "IOPS {iops} against {secs} s: off {err}"
    );
    let latency = child(span, "Latency");
    let buckets: Vec<Node> = latency
        .children()
        .filter(|c| c.has_tag_name("Bucket"))
        .collect();
    let at = |p: &str, cell: &str| {
        let b = buckets
            .iter()
            .find(|b| text(**b, "Percentile") == p)
            .unwrap();
        text(*b, cell).to_string()
    };
    for (dir, cell, avg) in [
        (read, "ReadMilliseconds", "AverageReadMilliseconds"),
        (write, "WriteMilliseconds", "AverageWriteMilliseconds"),
    ] {
        let l = &dir["latency_ns"];
        let ns = |k: &str| l[k].as_f64().unwrap();
        assert_eq!(text(latency, avg), ms(ns("mean")));
        for (p, k) in [
            ("0", "min"),
            ("50", "p50"),
            ("90", "p90"),
            ("95", "p95"),
            ("99", "p99"),
            ("99.9", "p99_9"),
            ("99.99", "p99_99"),
            ("100", "max"),
        ] {
            assert_eq!(at(p, cell), ms(ns(k)), "{cell} at {p}");
        }
    }
}

/// Each `CPU` carries its own processor's shares (figures by hand), `Average` their mean;
/// a result without them gives every CPU the host's busy share.
#[test]
fn each_cpu_element_is_that_processor_s_own() {
    let mut r = run();
    r.cpu.per_cpu = [(0, 10.0, 5.0, 85.0), (1, 30.0, 20.0, 50.0)]
        .map(
            |(id, user_pct, kernel_pct, idle_pct)| dbio_model::CpuShare {
                id,
                user_pct,
                kernel_pct,
                idle_pct,
            },
        )
        .into();
    let xml = to_diskspd_xml(&r);
    let doc = Document::parse(&xml).unwrap();
    let cpu = child(child(doc.root_element(), "TimeSpan"), "CpuUtilization");
    let figures = |n: Node| {
        [
            "UsagePercent",
            "UserPercent",
            "KernelPercent",
            "IdlePercent",
        ]
        .map(|f| text(n, f).to_string())
    };
    let each: Vec<_> = cpu
        .children()
        .filter(|c| c.has_tag_name("CPU"))
        .map(|c| (text(c, "Id").to_string(), figures(c)))
        .collect();
    assert_eq!(
        each,
        [
            (
                "0".into(),
                ["15.00", "10.00", "5.00", "85.00"].map(String::from)
            ),
            (
                "1".into(),
                ["50.00", "30.00", "20.00", "50.00"].map(String::from)
            ),
        ]
    );
    assert_eq!(
        figures(child(cpu, "Average")),
        ["32.50", "20.00", "12.50", "67.50"]
    );
    // Without them: the host's busy share on every CPU, and a comment saying so.
    r.cpu.per_cpu.clear();
    r.cpu.host_busy_pct = 40.0;
    let xml = to_diskspd_xml(&r);
    assert!(xml.contains("dbio did not measure each CPU"), "{xml}");
    let doc = Document::parse(&xml).unwrap();
    let cpu = child(child(doc.root_element(), "TimeSpan"), "CpuUtilization");
    let usage: Vec<&str> = cpu
        .children()
        .filter(|c| c.has_tag_name("CPU"))
        .map(|c| text(c, "UsagePercent"))
        .collect();
    assert_eq!(usage.len() as u32, r.host.cpus.max(1));
    assert!(usage.iter().all(|u| *u == "40.00"), "{usage:?}");
}

#[test]
fn paths_with_xml_s_special_characters_are_escaped() {
    let mut r = run();
    r.job.targets = vec!["/mnt/a&b/<x>.dat".into()];
    r.targets[0].path = r.job.targets[0].clone();
    let xml = to_diskspd_xml(&r);
    let doc = Document::parse(&xml).expect("well-formed XML");
    let profile_target = doc
        .descendants()
        .find(|n| n.has_tag_name("Targets"))
        .map(|t| child(t, "Target"))
        .unwrap();
    assert_eq!(text(profile_target, "Path"), "/mnt/a&b/<x>.dat");
}
