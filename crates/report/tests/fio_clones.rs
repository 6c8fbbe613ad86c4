//! fio's JSON of a run of several threads: without group_reporting, an entry per thread as
//! fio writes each clone of a job of `numjobs=N` (the same name and job options, the
//! thread's own figures, held against latencies chosen by hand), and one with it.

use dbio_model::histogram::{encode_compact, new_histogram};
use dbio_model::*;
use dbio_report::fio_json::{to_fio_json, FioJobs};
use serde_json::Value;

/// Latencies exact in dbio's histogram (each the lowest value of its bucket) and the
/// bucket's width there: 102,400 ns in one of 64 ns, 1,638,400 ns in one of 1,024 ns.
const FAST: (u64, u64) = (102_400, 64);
const SLOW: (u64, u64) = (1_638_400, 1_024);

/// A thread's direction: `fast` I/Os at FAST and `slow` at SLOW, of 4 KiB each.
fn dir(fast: u64, slow: u64) -> ThreadDir {
    let mut h = new_histogram();
    h.record_n(FAST.0, fast).unwrap();
    h.record_n(SLOW.0, slow).unwrap();
    let n = fast + slow;
    ThreadDir {
        ios: n,
        bytes: n * 4096,
        mean_ns: (fast * FAST.0 + slow * SLOW.0) as f64 / n as f64,
        stdev_ns: 0.0,
        histogram: (n > 0).then(|| encode_compact(&h)),
    }
}

/// The fixture as a run of 3 threads: reads 700 / 400 / 300, writes 300 / 200 / 100
/// (the fixture's 1,400 and 600), each a tenth or more at SLOW; CPU 1+2, 3+4, 5+6 s.
fn three_threads() -> RunResult {
    let mut r: RunResult = serde_json::from_str(include_str!("fixtures/run.json")).unwrap();
    r.job.threads = 3;
    r.threads = [
        ((600, 100), (270, 30)),
        ((360, 40), (180, 20)),
        ((0, 300), (100, 0)),
    ]
    .map(|(rd, wr)| ThreadStats {
        read: dir(rd.0, rd.1),
        write: dir(wr.0, wr.1),
        ..ThreadStats::default()
    })
    .into();
    r.cpu.workers = [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]
        .map(|(user_s, sys_s)| WorkerCpu {
            user_s,
            sys_s,
            busy_pct: 0.0,
            ios: 0,
        })
        .into();
    r
}

/// The `jobs[]` entries of `r` in fio's JSON, written as `how` says.
fn jobs(r: &RunResult, how: FioJobs) -> Vec<Value> {
    let doc: Value = serde_json::from_str(&to_fio_json(r, how, &[])).unwrap();
    doc["jobs"].as_array().unwrap().clone()
}

/// The value at `key` of `j` as u64.
fn n(j: &Value, key: &str) -> u64 {
    j.pointer(key).and_then(Value::as_u64).unwrap()
}

#[test]
fn each_thread_is_an_entry_as_fio_writes_each_clone() {
    let r = three_threads();
    let each = jobs(&r, FioJobs::PerJob);
    assert_eq!(each.len(), 3);
    let reads: Vec<u64> = each.iter().map(|j| n(j, "/read/total_ios")).collect();
    let writes: Vec<u64> = each.iter().map(|j| n(j, "/write/total_ios")).collect();
    assert_eq!((reads, writes), (vec![700, 400, 300], vec![300, 200, 100]));
    assert_eq!(r.total_ios(), 2_000, "the entries add up to the run");
    let secs = r.measured_secs;
    for (i, j) in each.iter().enumerate() {
        // fio's clones differ only in their figures.
        assert_eq!(j["jobname"], each[0]["jobname"]);
        assert_eq!(j["job options"], each[0]["job options"]);
        assert_eq!(j["job options"]["numjobs"], "3");
        assert_eq!(j["groupid"], 0);
        let t = &r.threads[i].read;
        assert_eq!(n(j, "/read/io_bytes"), t.bytes);
        assert_eq!(j["read"]["iops"].as_f64(), Some(t.ios as f64 / secs));
        assert_eq!(n(j, "/read/clat_ns/N"), t.ios);
        assert_eq!(j["read"]["clat_ns"]["mean"].as_f64(), Some(t.mean_ns));
        let cpu = (1.0 + 2.0 * i as f64, 2.0 + 2.0 * i as f64);
        assert_eq!(j["usr_cpu"].as_f64(), Some(cpu.0 / secs * 100.0));
        assert_eq!(j["sys_cpu"].as_f64(), Some(cpu.1 / secs * 100.0));
    }
    // Thread 0's reads, 600 fast then 100 slow: its min and median in FAST's bucket, its
    // 90th percentile (the 630th) and max in SLOW's; thread 2's reads are all slow.
    let within = |v: u64, (low, width): (u64, u64)| (low..low + width).contains(&v);
    let p = |j: &Value, k: &str| n(j, &format!("/read/clat_ns/percentile/{k}"));
    assert!(within(n(&each[0], "/read/clat_ns/min"), FAST));
    assert!(within(p(&each[0], "50.000000"), FAST));
    assert!(within(p(&each[0], "80.000000"), FAST), "the 560th");
    assert!(within(p(&each[0], "90.000000"), SLOW));
    assert!(within(n(&each[0], "/read/clat_ns/max"), SLOW));
    assert!(within(n(&each[2], "/read/clat_ns/min"), SLOW));
    assert!(within(p(&each[2], "1.000000"), SLOW));
    // Every list present and in order; the bins hold the thread's I/Os.
    for j in &each {
        for d in ["read", "write"] {
            let mut by_pct: Vec<(f64, u64)> = j[d]["clat_ns"]["percentile"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(k, v)| (k.parse().unwrap(), v.as_u64().unwrap()))
                .collect();
            by_pct.sort_by(|a, b| a.0.total_cmp(&b.0));
            let list: Vec<u64> = by_pct.iter().map(|p| p.1).collect();
            assert_eq!(list.len(), 17, "{d}");
            assert!(list.windows(2).all(|w| w[0] <= w[1]), "{d}: {list:?}");
            let bins: u64 = j[d]["clat_ns"]["bins"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_u64().unwrap())
                .sum();
            assert_eq!(bins, n(j, &format!("/{d}/total_ios")));
        }
    }
}

#[test]
fn grouped_or_without_kept_histograms_the_threads_are_one_entry() {
    let r = three_threads();
    let group = jobs(&r, FioJobs::Group);
    assert_eq!(group.len(), 1);
    assert_eq!(
        (
            n(&group[0], "/read/total_ios"),
            n(&group[0], "/write/total_ios")
        ),
        (1_400, 600)
    );
    // A result from before threads kept histograms: one entry, as then.
    let mut old = r.clone();
    old.threads[1].write.histogram = None;
    assert_eq!(jobs(&old, FioJobs::PerJob), group);
    // A thread without reads needs no histogram of them.
    let mut idle = r.clone();
    idle.threads[2].read = ThreadDir::default();
    assert_eq!(jobs(&idle, FioJobs::PerJob).len(), 3);
}

#[test]
fn a_stream_of_several_threads_is_an_entry_per_thread() {
    let r3 = three_threads();
    let mut r = r3.clone();
    let stream = |name: &str, threads, read: Option<DirStats>, write: Option<DirStats>| {
        let mut job = r3.job.clone();
        job.threads = threads;
        StreamResult {
            name: name.into(),
            role: name.into(),
            job,
            targets: Vec::new(),
            measured_secs: 10.0,
            read,
            write,
            flush: None,
        }
    };
    r.streams = vec![
        stream("data", 2, r3.read.clone(), r3.write.clone()),
        stream("log", 1, None, r3.write.clone()),
    ];
    let each = jobs(&r, FioJobs::PerJob);
    let names: Vec<&str> = each
        .iter()
        .map(|j| j["jobname"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["data", "data", "log"]);
    assert_eq!(n(&each[1], "/read/total_ios"), 400);
    assert_eq!(n(&each[1], "/write/total_ios"), 200);
    assert_eq!(
        each[1]["usr_cpu"].as_f64(),
        Some(30.0),
        "its own worker: 3 s of 10"
    );
    // The log stream (one thread) is the stream's own figures: no reads.
    assert_eq!(n(&each[2], "/read/total_ios"), 0);
    assert_eq!(n(&each[2], "/write/total_ios"), 600);
}
