//! fio's outputs of a whole job file, read by fio's own tools: a job file of two
//! stonewalled steps writes one fio JSON document whose jobs[] are the steps' jobs in order
//! (converted by `fio_jsonplus_clat2csv` without error), `percentile_list` gives exactly its
//! keys, `time`/`timestamp` are in fio's form, and the `write_*_log` files are read by
//! `fio2gnuplot` with the same averages as the JSON's. Short real runs on temporary files.
//! Under CI=true a missing fio tool fails the test.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The two-step job file: a random read job with the three logs, then a sequential write.
fn two_steps(dir: &Path) -> String {
    let job = dir.join("two.fio");
    let text = format!(
        "[global]\nsize=1m\npercentile_list=99:99.9:99.99\n\
         [r]\nfilename={d}/a.dat\nrw=randread\nbs=4k\nwrite_lat_log=lat\nwrite_bw_log=bw\nwrite_iops_log=io\nlog_avg_msec=1000\n\
         [w]\nstonewall\nfilename={d}/b.dat\nrw=write\nbs=8k\n",
        d = dir.display()
    );
    std::fs::write(&job, text).unwrap();
    job.to_str().unwrap().to_string()
}

/// fio2gnuplot's average of the log files `pattern` in `dir` (its `*.global` file).
fn fio2gnuplot_avg(tool: &Path, dir: &Path, args: &[&str], global: &str) -> f64 {
    let out = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "fio2gnuplot {args:?}: {out:?}");
    let text = std::fs::read_to_string(dir.join(global)).unwrap();
    let avg = text.lines().find_map(|l| l.strip_prefix("avg="));
    avg.expect("an avg= line").parse().unwrap()
}

#[test]
fn a_job_file_of_two_steps_is_one_fio_document_and_its_logs_read_by_fio_s_tools() {
    let test = "a_job_file_of_two_steps_is_one_fio_document_and_its_logs_read_by_fio_s_tools";
    let Some(clat2csv) = require_tool(test, "fio_jsonplus_clat2csv") else {
        return;
    };
    let Some(gnuplot) = require_tool(test, "fio2gnuplot") else {
        return;
    };
    let dir = scratch();
    let job = two_steps(dir.path());
    let args = [
        "fio",
        &job,
        "--duration",
        "2s",
        "--no-store",
        "--json",
        "out.json",
        "--json-format",
        "fio",
    ];
    let (code, _, err) = dbio_in(dir.path(), &args);
    assert_eq!(code, Some(0), "{err}");
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
            .unwrap();
    let jobs = doc["jobs"].as_array().unwrap();
    let order: Vec<(&str, u64)> = jobs
        .iter()
        .map(|j| {
            (
                j["jobname"].as_str().unwrap(),
                j["groupid"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(order, [("r", 0), ("w", 1)], "fio's groups, one a stonewall");
    // percentile_list: exactly its keys, in fio's %f form, for both steps.
    for (j, d) in [(&jobs[0], "read"), (&jobs[1], "write")] {
        let p = j[d]["clat_ns"]["percentile"].as_object().unwrap();
        let keys: Vec<&str> = p.keys().map(String::as_str).collect();
        assert_eq!(keys, ["99.000000", "99.900000", "99.990000"]);
        assert_eq!(j["iodepth_level"]["1"], 100.0, "qd 1 all the time");
        for k in [
            "iodepth_submit",
            "iodepth_complete",
            "latency_depth",
            "latency_target",
            "latency_percentile",
            "latency_window",
        ] {
            assert!(!j[k].is_null(), "{k}");
        }
    }
    // fio's time: ctime's "Www Mmm dd hh:mm:ss yyyy"; timestamp_ms the same second.
    let time = doc["time"].as_str().unwrap();
    let w: Vec<&str> = time.split_whitespace().collect();
    assert_eq!(w.len(), 5, "{time}");
    assert!(
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains(&w[0]),
        "{time}"
    );
    assert!(w[3].len() == 8 && w[4].len() == 4, "{time}");
    assert_eq!(
        doc["timestamp_ms"].as_u64(),
        doc["timestamp"].as_u64().map(|s| s * 1000)
    );

    // fio's own converter reads the document: a CSV per job.
    let out = Command::new("python3")
        .arg(&clat2csv)
        .args(["out.json", "clat.csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    for n in ["clat_job0.csv", "clat_job1.csv"] {
        let csv = std::fs::read_to_string(dir.path().join(n)).unwrap();
        assert!(csv.lines().count() > 1, "{n}: {csv}");
    }

    // The logs, each read by fio2gnuplot in a folder of its own: its averages are the
    // JSON's per-second means (rounded to whole KiB/s and IOPS), and the latency's is
    // lat_ns.mean within the seconds' two significant digits.
    let read = &jobs[0]["read"];
    let logs = [
        (
            "bw_bw.1.log",
            vec!["-b"],
            "result.global",
            read["bw_mean"].as_f64().unwrap(),
            1.0,
        ),
        (
            "io_iops.1.log",
            vec!["-i"],
            "result.global",
            read["iops_mean"].as_f64().unwrap(),
            1.0,
        ),
        (
            "lat_lat.1.log",
            vec!["-p", "lat_lat.1.log"],
            "lat_lat.1.global",
            read["lat_ns"]["mean"].as_f64().unwrap(),
            0.0,
        ),
    ];
    for (file, args, global, want, within) in logs {
        let sub = dir.path().join(file.replace('.', "_"));
        std::fs::create_dir(&sub).unwrap();
        std::fs::copy(dir.path().join(file), sub.join(file)).unwrap();
        let got = fio2gnuplot_avg(&gnuplot, &sub, &args, global);
        if within > 0.0 {
            assert!(
                (got - want).abs() <= within,
                "{file}: fio2gnuplot {got}, JSON {want}"
            );
        } else {
            assert_near(file, got, want, 5.0);
        }
    }
    let clat = std::fs::read_to_string(dir.path().join("lat_clat.1.log")).unwrap();
    assert_eq!(
        clat,
        std::fs::read_to_string(dir.path().join("lat_lat.1.log")).unwrap()
    );
    assert_eq!(
        clat.lines().count(),
        2,
        "one line a second of a 2 s run: {clat}"
    );
}

/// fio's options dbio cannot give as fio does are refused by name, before anything runs.
#[test]
fn log_windows_dbio_does_not_keep_are_refused_by_name() {
    let dir = scratch();
    let job = dir.path().join("bad.fio");
    std::fs::write(
        &job,
        "[r]\nfilename=a.dat\nsize=1m\nwrite_bw_log=bw\nlog_avg_msec=500\n",
    )
    .unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", job.to_str().unwrap(), "--dry-run"]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("log_avg_msec=500") && err.contains("multiple of 1000"),
        "{err}"
    );
    std::fs::write(
        &job,
        "[r]\nfilename=a.dat\nsize=1m\nrw=randrw\nwrite_lat_log=l\n",
    )
    .unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", job.to_str().unwrap(), "--dry-run"]);
    assert_ne!(code, Some(0));
    assert!(
        err.contains("write_lat_log") && err.contains("reads and writes"),
        "{err}"
    );
    // Without log_avg_msec fio logs every I/O: dbio logs each second, and says so.
    std::fs::write(&job, "[r]\nfilename=a.dat\nsize=1m\nwrite_iops_log=io\n").unwrap();
    let (code, out, err) = dbio_in(dir.path(), &["fio", job.to_str().unwrap(), "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    let said = format!("{out}{err}");
    assert!(said.contains("--fio-log iops=io,avg=1000"), "{said}");
    assert!(
        said.contains(
            "log_avg_msec (fio's default: 0): mapped, with a difference: fio would log every I/O"
        ),
        "{said}"
    );
}
