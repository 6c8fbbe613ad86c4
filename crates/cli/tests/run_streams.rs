//! Multi-stream profiles end to end: streams run at once in one window, each on its own
//! target role; flags override every stream; role mistakes are one-line errors; Ctrl-C
//! keeps a partial result for every stream; results validate against the schema.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::time::Duration;

/// A user profile with two streams: reads on "data", sequential 16 KiB writes on "log".
const TWO: &str = "threads = 1\nqd = 8\nduration = \"2s\"\n\n[[stream]]\nname = \"reader\"\ntarget = \"data\"\nrw = \"randread\"\nbs = \"4k\"\n\n[[stream]]\nname = \"logger\"\ntarget = \"log\"\nrw = \"write\"\nbs = \"16k\"\nqd = 1\nsync = \"dsync\"\n";

fn streams(r: &Value) -> &Vec<Value> {
    r["streams"].as_array().expect("streams is an array")
}

#[test]
fn streams_run_together_on_their_own_targets_and_flags_override_every_stream() {
    let dir = scratch();
    let p = dir.path().join("two.toml");
    std::fs::write(&p, TWO).unwrap();
    let (d, l) = (dir.path().join("d.dat"), dir.path().join("l.dat"));
    let args = [
        "--profile",
        p.to_str().unwrap(),
        "--target",
        &format!("data={}", d.display()),
        "--target",
        &format!("log={}", l.display()),
        "--size",
        "32MiB",
        "--duration",
        "1s",
        "--threads",
        "2",
    ];
    let r = run_ok(dir.path(), &args);
    assert_valid(&schema("run-result.v1.json"), "a multi-stream result", &r);
    let s = streams(&r);
    assert_eq!(s.len(), 2);
    let (reader, logger) = (&s[0], &s[1]);
    assert_eq!(
        (reader["name"].as_str(), reader["role"].as_str()),
        (Some("reader"), Some("data"))
    );
    assert_eq!(reader["job"]["targets"][0], d.to_str().unwrap());
    assert_eq!(logger["job"]["targets"][0], l.to_str().unwrap());
    // Flags win over both streams; a stream's own key wins over the top level.
    for st in s {
        assert_eq!(st["job"]["threads"], 2, "--threads applies to every stream");
        assert_eq!(st["job"]["stop"]["seconds"], 1.0);
    }
    assert_eq!(reader["job"]["qd"], 8, "the top level's qd");
    assert_eq!(logger["job"]["qd"], 1, "the stream's own qd");
    // Each stream did only its own I/O, of its own size, on its own file.
    assert!(ios(reader, "read") > 0 && dir_stats(reader, "write").is_none());
    assert!(ios(logger, "write") > 0 && dir_stats(logger, "read").is_none());
    assert_eq!(bytes(reader, "read"), ios(reader, "read") * 4096);
    assert_eq!(bytes(logger, "write"), ios(logger, "write") * 16384);
    assert_eq!(logger["job"]["sync"]["mode"], "dsync");
    // The totals are the sums of the streams.
    assert_eq!(ios(&r, "read"), ios(reader, "read"));
    assert_eq!(ios(&r, "write"), ios(logger, "write"));
    assert_eq!(
        num(&r, "/read/latency_ns/max"),
        num(reader, "/read/latency_ns/max")
    );
    // One window: each stream measured at least the asked second, within the run's window.
    let secs = num(&r, "/measured_secs");
    for st in s {
        let own = num(st, "/measured_secs");
        assert!(
            (1.0..=secs).contains(&own),
            "{}: {own} s in a run of {secs} s",
            st["name"]
        );
    }
    // Its text summary has a table per stream and the total.
    let out = dbio_command().arg("run").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for needle in [
        "stream reader on ",
        "stream logger on ",
        "total of all streams:",
    ] {
        assert!(text.contains(needle), "summary lacks {needle:?}:\n{text}");
    }
}

#[test]
fn a_plain_target_puts_every_other_role_beside_it_and_says_so() {
    let dir = scratch();
    let f = dir.path().join("t.dat");
    let out = dbio_command()
        .args(["run", "oltp-mix", "--target"])
        .arg(&f)
        .args(["--size", "16MiB", "--ops", "100"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let log = format!("{}.log", f.display());
    assert!(stderr.contains(&format!("log stream on {log}")), "{stderr}");
    assert_eq!(std::fs::metadata(&log).unwrap().len(), 16 << 20);
}

#[test]
fn role_mistakes_are_refused_with_the_roles() {
    let dir = scratch();
    let t = dir.path().join("t.dat");
    let t = t.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["oltp-mix", "--target", &format!("redo={t}")],
            &["--target redo=", "no role 'redo'", "data, log"],
        ),
        (
            &["oltp-mix", "--target", &format!("data={t}")],
            &["no target for role log", "--target log=PATH", "data, log"],
        ),
        (
            &["oltp", "--target", &format!("log={t}")],
            &["profile oltp has one stream", "--target PATH"],
        ),
        (&["oltp-mix", "--target", t, "--qd", "0"], &["--qd 0"]),
    ];
    for (args, needles) in cases {
        let mut all = args.to_vec();
        all.extend(["--ops", "10"]);
        assert_one_line_error(&dbio_run(dir.path(), &all), needles);
    }
    // A mistake inside a stream names the profile and the stream.
    let p = dir.path().join("bad.toml");
    std::fs::write(&p, TWO.replace("bs = \"16k\"", "bs = \"16q\"")).unwrap();
    let ran = dbio_run(
        dir.path(),
        &[
            "--profile",
            p.to_str().unwrap(),
            "--target",
            t,
            "--ops",
            "10",
        ],
    );
    assert_one_line_error(&ran, &["stream logger", "bs", "unknown unit"]);
    assert!(
        !std::path::Path::new(t).exists(),
        "a refused run creates nothing"
    );
    // sweep runs one stream.
    let out = dbio_command()
        .args(["sweep", "oltp-mix", "--vary", "qd=1,2", "--target", t])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("oltp-mix runs 2 streams"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn ctrl_c_keeps_a_partial_result_for_every_stream() {
    let dir = scratch();
    let json = dir.path().join("out.json");
    // Both files prefilled beforehand, so measuring starts at once.
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    dbio_file(dir.path(), "t.dat.log", "32MiB");
    let child = dbio_command()
        .args([
            "run",
            "oltp-mix",
            "--size",
            "32MiB",
            "--duration",
            "600s",
            "-q",
        ])
        .arg("--target")
        .arg(&f)
        .arg("--json")
        .arg(&json)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Measuring has begun once the log writer's writes change its (prefilled) file, and
    // the data stream has written once the data file changes too.
    wait_for_change(&dir.path().join("t.dat.log"), Duration::from_secs(120));
    wait_for_change(&f, Duration::from_secs(120));
    interrupt(&child);
    let status = wait_bounded(child, Duration::from_secs(60)).status;
    assert_eq!(status.code(), Some(130));
    let r: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_valid(
        &schema("run-result.v1.json"),
        "an interrupted multi-stream result",
        &r,
    );
    assert_eq!(r["partial"], true);
    assert_eq!(r["outcome"]["status"], "interrupted");
    let s = streams(&r);
    assert_eq!(s.len(), 2);
    assert!(
        ios(&s[0], "read") > 0 && ios(&s[0], "write") > 0,
        "data stream"
    );
    assert!(ios(&s[1], "write") > 0, "log stream");
    assert_eq!(ios(&r, "write"), ios(&s[0], "write") + ios(&s[1], "write"));
    for st in s {
        let secs = num(st, "/measured_secs");
        assert!(secs > 0.0 && secs < 600.0, "{}: {secs} s", st["name"]);
    }
}

#[test]
fn a_paced_stream_that_falls_behind_is_named_in_the_warning() {
    // The reader keeps an easy 5 IOPS (a schedule that forgives 200 ms of lag); the logger
    // cannot make 1,000,000 durable writes a
    // second one at a time.
    let dir = scratch();
    let p = dir.path().join("paced.toml");
    std::fs::write(
        &p,
        "threads = 1\nqd = 1\nduration = \"1s\"\n\n[[stream]]\nname = \"reader\"\ntarget = \"data\"\nrw = \"randread\"\nbs = \"4k\"\nrate = 5\n\n[[stream]]\nname = \"logger\"\ntarget = \"log\"\nrw = \"write\"\nbs = \"16k\"\nsync = \"dsync\"\nrate = 1000000\n",
    )
    .unwrap();
    let (d, l) = (dir.path().join("d.dat"), dir.path().join("l.dat"));
    let r = run_ok(
        dir.path(),
        &[
            "--profile",
            p.to_str().unwrap(),
            "--target",
            &format!("data={}", d.display()),
            "--target",
            &format!("log={}", l.display()),
            "--size",
            "32MiB",
        ],
    );
    let behind: Vec<&str> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "rate-not-kept")
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert_eq!(behind.len(), 1, "{behind:?}");
    assert!(
        behind[0].starts_with("stream logger: could not keep the requested rate of 1000000 IOPS"),
        "{behind:?}"
    );
}
