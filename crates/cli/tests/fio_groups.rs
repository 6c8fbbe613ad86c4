//! fio jobs that fio runs at the same time (no stonewall between them) become one `dbio
//! run` of streams, a stream per job with its settings held against a table written by hand
//! from fio's HOWTO; a stonewall starts the next run. A short real run reports each job, and
//! fio's JSON has an entry per job (and per clone of a job of numjobs=N), or one with
//! group_reporting. `rw=rw` and a job with neither runtime nor size go once over an
//! existing file, as fio does.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

/// A database's data and log jobs (fio's defaults: rwmixread 50, numjobs 1); `extra` goes
/// into [global], `log_extra` at the end of [log].
fn db_job(dir: &Path, extra: &str, log_extra: &str) -> String {
    let text = format!(
        "[global]\nioengine=libaio\ndirect=1\nruntime=60\ntime_based\n{extra}\n\
         [data]\nfilename=data.dat\nsize=8m\nrw=randrw\nbs=8k\niodepth=16\n\
         [log]\nfilename=log.dat\nsize=4m\nrw=write\nbs=60k\niodepth=1\nfsync=1\n{log_extra}\n"
    );
    let path = dir.join("db.fio");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The `dbio run` lines `dbio fio ARGS --dry-run` prints (it must succeed).
fn dry_runs(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["fio"];
    all.extend_from_slice(args);
    all.push("--dry-run");
    let (code, out, err) = dbio_in(dir, &all);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out.lines()
        .filter(|l| l.starts_with("dbio run "))
        .map(str::to_string)
        .collect()
}

/// By hand from fio's HOWTO: each job's rw, rwmixread (default 50), bs, iodepth, numjobs
/// (default 1), size and fsync as one stream's settings; runtime, the engine (libaio is
/// io_uring) and direct=1 (dbio's default) are the run's; each job's file is its role's.
const DATA: &str = r#"'{name = "data", target = "data", rw = "randrw", mix = 50, bs = "8k", qd = 16, threads = 1, size = "8m"}'"#;
const LOG: &str = r#"'{name = "log", target = "log", rw = "write", bs = "60k", qd = 1, threads = 1, size = "4m", sync = "fsync:1"}'"#;

#[test]
fn jobs_fio_runs_at_once_are_one_run_with_a_stream_each() {
    let dir = scratch();
    let job = db_job(dir.path(), "", "");
    let want = format!(
        "dbio run --stream {DATA} --stream {LOG} --duration 60s --engine uring \
         --target data=data.dat --target log=log.dat --label data+log"
    );
    assert_eq!(dry_runs(dir.path(), &[&job]), [want]);
    // A stonewall in [log] makes it the next run, each job a run of its own.
    let job = db_job(dir.path(), "", "stonewall");
    assert_eq!(
        dry_runs(dir.path(), &[&job]),
        [
            "dbio run --rw randrw --mix 50 --bs 8k --qd 16 --threads 1 --duration 60s --size 8m --engine uring --target data.dat --label data",
            "dbio run --rw write --bs 60k --qd 1 --threads 1 --duration 60s --size 4m --sync fsync:1 --engine uring --target log.dat --label log",
        ]
    );
}

/// What a stream cannot set on its own is refused by the job and option; a psync job beside
/// io_uring ones keeps one I/O at a time through io_uring, with a note.
#[test]
fn what_a_stream_cannot_carry_is_refused_by_job_and_option() {
    let dir = scratch();
    let refusal = |log_extra: &str, option: &str, why: &str| {
        let job = db_job(dir.path(), "", log_extra);
        let (code, _, err) = dbio_in(dir.path(), &["fio", &job, "--dry-run"]);
        assert_eq!(code, Some(2), "{log_extra}: {err}");
        let line = format!("dbio fio: {option}: refused: ");
        assert!(
            err.lines().any(|l| l.starts_with(&line) && l.contains(why)),
            "{log_extra}: {err}"
        );
    };
    refusal(
        "runtime=30",
        "[log] runtime",
        "--duration 60s and --duration 30s",
    );
    refusal(
        "direct=0",
        "[log] direct",
        "a dbio run has one use of the page cache",
    );
    let job = db_job(dir.path(), "", "ioengine=sync");
    let (code, out, err) = dbio_in(dir.path(), &["fio", &job, "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with(&format!(
            "dbio run --stream {DATA} --stream {LOG} --duration 60s --engine uring "
        )),
        "{out}"
    );
    assert!(
        out.contains("[log] ioengine: mapped, with a difference: a dbio run has one engine"),
        "{out}"
    );
}

/// The result labelled `label` in the history `db`, as `dbio export` writes it.
fn exported(dir: &std::path::Path, db: &std::path::Path, label: &str) -> Value {
    let db = db.to_str().unwrap();
    let export = ["export", label, "--db", db, "--json", "dbio.json"];
    let (code, _, err) = dbio_in(dir, &export);
    assert_eq!(code, Some(0), "{err}");
    serde_json::from_slice(&std::fs::read(dir.join("dbio.json")).unwrap()).unwrap()
}

/// The entries of fio's JSON: (jobname, read I/Os, write I/Os, flushes).
fn fio_entries(path: &Path) -> Vec<(String, u64, u64, u64)> {
    let doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let n = |j: &Value, p: &str| j.pointer(p).and_then(Value::as_u64).unwrap();
    doc["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            (
                j["jobname"].as_str().unwrap().to_string(),
                n(j, "/read/total_ios"),
                n(j, "/write/total_ios"),
                n(j, "/sync/total_ios"),
            )
        })
        .collect()
}

/// One second of the data and log jobs for real, on files dbio makes: both streams report
/// their own figures, and fio's JSON has one entry per job, named by it (fio without
/// group_reporting), or one for both named by the first (with group_reporting).
#[test]
fn a_short_run_reports_each_job_and_fio_json_has_an_entry_per_job() {
    let dir = scratch();
    let job = db_job(dir.path(), "", "");
    let out = dir.path().join("fio.json");
    let o = out.to_str().unwrap();
    let args = [
        "fio",
        &job,
        "--duration",
        "1s",
        "--no-store",
        "--json",
        o,
        "--json-format",
        "fio",
    ];
    let (code, stdout, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        stdout.contains("stream data on data.dat:") && stdout.contains("stream log on log.dat:"),
        "{stdout}"
    );
    let e = fio_entries(&out);
    let names: Vec<&str> = e.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(names, ["data", "log"]);
    let (data, log) = (&e[0], &e[1]);
    assert!(
        data.1 > 0 && data.2 > 0 && data.3 == 0,
        "randrw, no flushes: {data:?}"
    );
    assert!(log.1 == 0 && log.2 > 0, "writes only: {log:?}");
    assert_eq!(log.3, log.2, "fsync=1: a flush after every write");

    // The same file, now with group_reporting in [global].
    db_job(dir.path(), "group_reporting", "");
    let (code, stdout, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.contains("--json-format fio-group"), "{stdout}");
    let e = fio_entries(&out);
    assert_eq!(e.len(), 1, "{e:?}");
    let (name, reads, writes, flushes) = &e[0];
    assert_eq!(name, "data", "fio names a group after its first job");
    assert!(
        *reads > 0 && *flushes > 0 && writes > flushes,
        "both jobs' I/O: {e:?}"
    );
}

/// A job of numjobs=3 run for real for a second on a file dbio makes: fio's JSON has an
/// entry per clone, all named by the job, whose I/Os add up to dbio's own JSON of the run
/// (its history's copy) and are each thread's; with group_reporting, one entry.
#[test]
fn numjobs_without_group_reporting_is_an_entry_per_clone() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let job = |extra: &str| {
        let text = format!(
            "[clones]\nfilename=c.dat\nsize=4m\nrw=randrw\nbs=4k\nnumjobs=3\n\
             runtime=60\ntime_based\n{extra}\n"
        );
        std::fs::write(dir.path().join("c.fio"), text).unwrap();
    };
    let args = [
        "fio",
        "c.fio",
        "--duration",
        "1s",
        "--db",
        db.to_str().unwrap(),
        "--json",
        "fio.json",
        "--json-format",
        "fio",
    ];
    job("");
    let (code, _, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    let e = fio_entries(&dir.path().join("fio.json"));
    let names: Vec<&str> = e.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(names, ["clones"; 3]);
    let ours = exported(dir.path(), &db, "clones");
    let n = |p: &str| ours.pointer(p).and_then(Value::as_u64).unwrap();
    assert_eq!(e.iter().map(|x| x.1).sum::<u64>(), n("/read/ios"));
    assert_eq!(e.iter().map(|x| x.2).sum::<u64>(), n("/write/ios"));
    for (i, (_, reads, writes, _)) in e.iter().enumerate() {
        assert!(*reads > 0 && *writes > 0, "clone {i}: {e:?}");
        assert_eq!(
            (*reads, *writes),
            (
                n(&format!("/threads/{i}/read/ios")),
                n(&format!("/threads/{i}/write/ios"))
            )
        );
    }
    // Jobs at once, [log] of numjobs=2: its clones follow [data]'s one entry, their writes
    // and flushes the log stream's; a stream of one thread keeps no histogram of its own.
    db_job(dir.path(), "", "numjobs=2");
    let mut at_once = args;
    at_once[1] = "db.fio";
    let (code, _, err) = dbio_in(dir.path(), &at_once);
    assert_eq!(code, Some(0), "{err}");
    let e = fio_entries(&dir.path().join("fio.json"));
    let names: Vec<&str> = e.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(names, ["data", "log", "log"]);
    let ours = exported(dir.path(), &db, "data+log");
    let n = |p: &str| ours.pointer(p).and_then(Value::as_u64).unwrap();
    assert_eq!(e[1].2 + e[2].2, n("/streams/1/write/ios"));
    assert_eq!(e[1].3 + e[2].3, n("/streams/1/flush/ios"));
    assert!(e[1].3 > 0 && e[2].3 > 0, "each clone's own flushes: {e:?}");
    assert!(ours.pointer("/threads/0/read/histogram").is_none());
    assert!(ours.pointer("/threads/1/write/histogram").is_some());

    job("group_reporting");
    let (code, stdout, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.contains("--json-format fio-group"), "{stdout}");
    let e = fio_entries(&dir.path().join("fio.json"));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].1 > 0 && e[0].2 > 0, "{e:?}");
}

/// `[j]` over `file` with `body`, run for real: the dbio JSON result.
fn one_pass(dir: &Path, file: &Path, body: &str) -> Value {
    let job = dir.join("pass.fio");
    std::fs::write(
        &job,
        format!("[j]\nfilename={}\nbs=4k\n{body}\n", file.display()),
    )
    .unwrap();
    let json = dir.join("pass.json");
    let args = [
        "fio",
        job.to_str().unwrap(),
        "--no-store",
        "-q",
        "--json",
        json.to_str().unwrap(),
    ];
    let (code, _, err) = dbio_in(dir, &args);
    assert_eq!(code, Some(0), "{body}: {err}");
    serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap()
}

/// fio goes once over an existing file when a job gives neither runtime nor size: exactly
/// the file's bytes, read in order for rw=read; for rw=rw (sequential reads and writes, 50 %
/// by default) the reads and the writes share them half and half.
#[test]
fn rw_rw_and_a_job_without_runtime_or_size_go_once_over_the_file() {
    let dir = scratch();
    let file = dbio_file(dir.path(), "f.dat", "400k");
    let r = one_pass(dir.path(), &file, "rw=read");
    assert_eq!((bytes(&r, "read"), bytes(&r, "write")), (409_600, 0));
    assert_eq!(r["job"]["stop"]["bytes"], 409_600);
    let r = one_pass(dir.path(), &file, "rw=rw");
    assert_eq!(r["job"]["rw"], "readwrite");
    assert_eq!((bytes(&r, "read"), bytes(&r, "write")), (204_800, 204_800));
    let r = one_pass(dir.path(), &file, "rw=readwrite\nrwmixread=75");
    assert_eq!((bytes(&r, "read"), bytes(&r, "write")), (307_200, 102_400));
    // A file that is not there has no whole to go over: fio asks for a size, and so does dbio.
    let gone = dir.path().join("gone.dat");
    std::fs::write(
        dir.path().join("gone.fio"),
        format!("[j]\nfilename={}\n", gone.display()),
    )
    .unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", "gone.fio", "--dry-run"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("[j] no runtime and no size: refused: ")
            && err.contains("does not exist; give size="),
        "{err}"
    );
    assert!(!gone.exists());
}
