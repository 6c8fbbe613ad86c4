//! The verdict's wording on runs built from the report's fixture with one thing changed: the
//! engine (psync, null), a rate kept or not, and several streams. The end-to-end verdicts on
//! simulated and real runs are in the CLI's tests.

use dbio_analyze::verdict::verdict;
use dbio_model::RunResult;
use serde_json::{json, Value};

/// The fixture run (2 outstanding I/Os on uring) with its CPU figures made unremarkable, so
/// the verdict comes from the queue, the rate or the engine.
fn base() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../report/tests/fixtures/run.json"
    );
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    r["cpu"]["host_busy_pct"] = json!(20.0);
    r["cpu"]["cpus_allowed"] = json!(2);
    r["warnings"] = json!([]);
    r
}

fn judge(r: Value) -> (String, String) {
    let r: RunResult = serde_json::from_value(r).unwrap();
    let v = verdict(&r).expect("a complete run has a verdict");
    (v.limit, v.message)
}

#[test]
fn outstanding_ios_count_queue_depth_times_threads() {
    let mut r = base();
    r["job"]["qd"] = json!(32);
    r["job"]["threads"] = json!(2);
    let (limit, msg) = judge(r);
    assert_eq!(limit, "queue-depth");
    assert!(msg.contains("64 outstanding I/Os"), "{msg}");
}

#[test]
fn psync_keeps_one_io_outstanding_per_thread_whatever_the_queue_depth() {
    let mut r = base();
    r["job"]["qd"] = json!(32);
    r["job"]["threads"] = json!(2);
    r["engine"]["name"] = json!("psync");
    let (limit, msg) = judge(r);
    assert_eq!(limit, "queue-depth");
    assert!(msg.contains("2 outstanding I/Os"), "{msg}");
}

#[test]
fn every_stream_counts_towards_the_outstanding_ios() {
    let mut r = base();
    let stream = |name: &str, qd: u32| {
        let mut job = r["job"].clone();
        job["qd"] = json!(qd);
        json!({
            "name": name, "role": name, "job": job, "targets": [], "measured_secs": 1.0,
            "read": r["read"].clone(), "write": null, "flush": null
        })
    };
    let streams = json!([stream("data", 16), stream("log", 1)]);
    r["streams"] = streams;
    let (limit, msg) = judge(r);
    assert_eq!(limit, "queue-depth");
    assert!(msg.contains("17 outstanding I/Os"), "{msg}");
}

#[test]
fn a_rate_is_held_only_when_it_was_kept() {
    let mut r = base();
    r["job"]["rate"] = json!(1000);
    let (limit, msg) = judge(r.clone());
    assert_eq!(limit, "rate");
    assert!(msg.contains("held at the asked rate"), "{msg}");
    assert!(msg.contains("after its scheduled start"), "{msg}");

    r["job"]["rate"] = json!(400_000);
    r["warnings"] = json!([{"code": "rate-not-kept", "message": "could not keep the rate"}]);
    let (limit, msg) = judge(r);
    assert_eq!(limit, "rate-not-kept");
    assert!(msg.contains("of 400000 IOPS"), "{msg}");
    assert!(!msg.contains("held"), "{msg}");
}

#[test]
fn the_null_engine_is_named_as_doing_no_io() {
    let mut r = base();
    r["engine"]["name"] = json!("null");
    r["job"]["rate"] = json!(1000);
    let (limit, msg) = judge(r);
    assert_eq!(limit, "no-io");
    assert!(msg.contains("no I/O was done"), "{msg}");
    assert!(!msg.contains("storage answered"), "{msg}");
}

#[test]
fn a_busy_worker_is_the_verdict_only_on_a_run_of_a_second_or_more() {
    let mut r = base();
    r["cpu"]["workers"][0]["busy_pct"] = json!(97.0);
    r["measured_secs"] = json!(0.2);
    let (limit, msg) = judge(r.clone());
    assert_ne!(limit, "load-generator", "start-up dominates 0.2 s: {msg}");
    r["measured_secs"] = json!(2.0);
    let (limit, msg) = judge(r);
    assert_eq!(limit, "load-generator", "{msg}");
}
