//! The history through the binary: a run is stored whole, `dbio export` gives back the JSON
//! `--json` wrote byte for byte, `dbio show` prints what was printed, labels name runs,
//! several dbio processes storing at once lose nothing, and a bad history stops a run
//! before any I/O.

#![forbid(unsafe_code)]

mod common;
use common::*;

#[test]
fn a_run_is_stored_whole_and_given_back_exactly() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    let json = dir.path().join("r.json");
    let (code, printed, _) = dbio_in(
        dir.path(),
        &[
            "run",
            "--engine",
            "null",
            "--rw",
            "randread",
            "--ops",
            "20000",
            "--target",
            "t.dat",
            "--size",
            "16MiB",
            "--db",
            db,
            "--label",
            "before",
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0));
    let (code, exported, _) = dbio_in(dir.path(), &["export", "before", "--db", db, "--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        exported.as_bytes(),
        std::fs::read(&json).unwrap(),
        "byte for byte"
    );
    let (_, shown, _) = dbio_in(dir.path(), &["show", "1", "--db", db]);
    assert_eq!(shown, printed, "dbio show prints what dbio run printed");
    let (_, listed, _) = dbio_in(dir.path(), &["history", "--db", db]);
    let row = listed.lines().nth(1).expect("one row");
    assert!(
        row.contains("before") && row.contains("oltp") && row.contains("t.dat"),
        "{row}"
    );
    // A JSON file names a result too.
    let (code, from_file, _) = dbio_in(dir.path(), &["export", json.to_str().unwrap(), "--db", db]);
    assert_eq!(
        (code, from_file.as_bytes()),
        (Some(0), &std::fs::read(&json).unwrap()[..])
    );
}

#[test]
fn concurrent_dbio_processes_lose_no_run() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let children: Vec<_> = (0..4)
        .map(|i| {
            dbio_command()
                .current_dir(dir.path())
                .args([
                    "run",
                    "--engine",
                    "null",
                    "--rw",
                    "randread",
                    "--ops",
                    "5000",
                    "-q",
                    "--target",
                    &format!("t{i}.dat"),
                    "--size",
                    "8MiB",
                    "--db",
                    db.to_str().unwrap(),
                ])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let (_, listed, _) = dbio_in(dir.path(), &["history", "--db", db.to_str().unwrap()]);
    assert_eq!(listed.lines().count(), 1 + 4, "{listed}");
}

#[test]
fn unknown_runs_and_bad_histories_are_refused_clearly() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db_s = db.to_str().unwrap();
    for _ in 0..3 {
        let (code, _, _) = dbio_in(
            dir.path(),
            &[
                "run", "--engine", "null", "--ops", "1000", "-q", "--target", "t.dat", "--size",
                "8MiB", "--db", db_s,
            ],
        );
        assert_eq!(code, Some(0));
    }
    let (code, _, err) = dbio_in(dir.path(), &["show", "9", "--db", db_s]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no run 9; nearby ids are 1, 2, 3"), "{err}");
    let (code, _, err) = dbio_in(dir.path(), &["export", "nosuchlabel", "--db", db_s]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no run is labelled 'nosuchlabel'"), "{err}");

    // Not a history: the run stops before any I/O (no target file) and the file is untouched.
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database at all, just text").unwrap();
    let before = std::fs::read(&junk).unwrap();
    let ran = dbio_run(
        dir.path(),
        &["--target", "new.dat", "--db", junk.to_str().unwrap()],
    );
    assert_one_line_error(&ran, &["junk.db", "not a dbio history"]);
    assert!(!dir.path().join("new.dat").exists());
    assert_eq!(std::fs::read(&junk).unwrap(), before);

    // The default history lives under XDG_DATA_HOME; --no-store leaves it uncreated.
    let xdg = dir.path().join("xdg");
    let default_db = xdg.join("dbio").join("history.db");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run", "--engine", "null", "--ops", "1000", "-q", "--target", "t.dat",
        ];
        args.extend(extra);
        let st = dbio_command()
            .current_dir(dir.path())
            .env("XDG_DATA_HOME", &xdg)
            .args(&args)
            .status()
            .unwrap();
        assert!(st.success());
    };
    run(&["--no-store"]);
    assert!(!default_db.exists(), "--no-store created the history");
    run(&[]);
    assert!(default_db.exists(), "the default history was not created");
}

#[test]
fn a_sweep_is_stored_as_one_result() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db_s = db.to_str().unwrap();
    let (code, printed, _) = dbio_in(
        dir.path(),
        &[
            "sweep",
            "--vary",
            "qd=1,4",
            "--engine",
            "sim",
            "--sim",
            "channels=2,service=100us,dist=const,bw=none",
            "--ops",
            "2000",
            "--db",
            db_s,
            "--label",
            "ramp",
        ],
    );
    assert_eq!(code, Some(0));
    let (_, listed, _) = dbio_in(dir.path(), &["history", "--db", db_s, "--label", "ramp"]);
    let row = listed.lines().nth(1).unwrap();
    assert!(
        row.contains("sweep") && row.contains("20000"),
        "the busiest step's IOPS: {row}"
    );
    let (_, shown, _) = dbio_in(dir.path(), &["show", "ramp", "--db", db_s]);
    assert_eq!(shown, printed);
    let (_, json, _) = dbio_in(dir.path(), &["export", "ramp", "--db", db_s]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["steps"].as_array().unwrap().len(), 2);
}

#[test]
fn a_reduce_estimate_is_stored_too() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    let f = dir.path().join("data.bin");
    std::fs::write(&f, pseudo_random(1 << 20, 7)).unwrap();
    let (code, printed, _) = dbio_in(
        dir.path(),
        &["reduce", f.to_str().unwrap(), "--db", db, "--label", "est"],
    );
    assert_eq!(code, Some(0));
    let (_, listed, _) = dbio_in(dir.path(), &["history", "--db", db]);
    assert!(
        listed.lines().nth(1).unwrap().contains("reduce"),
        "{listed}"
    );
    let (_, shown, _) = dbio_in(dir.path(), &["show", "est", "--db", db]);
    assert_eq!(shown, printed);
}

#[test]
fn reading_a_missing_history_creates_nothing_and_bad_ages_and_dates_are_refused() {
    let dir = scratch();
    // A mistyped --db is named, not created as an empty history.
    for args in [
        vec!["history", "--db", "nodir/x.db"],
        vec!["show", "1", "--db", "nodir/x.db"],
        vec!["export", "1", "--db", "nodir/x.db"],
    ] {
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("--db nodir/x.db: no history there"),
            "{args:?}: {err}"
        );
    }
    assert!(!dir.path().join("nodir").exists(), "the folder was created");
    // A label of digits would be read back as a run id; an empty one names nothing.
    for label in ["3", " "] {
        let (code, _, err) = dbio_in(
            dir.path(),
            &[
                "run", "--engine", "sim", "--ops", "10", "--label", label, "--db", "l.db",
            ],
        );
        assert_eq!(code, Some(2), "--label {label:?}: {err}");
        assert!(err.contains("--label"), "{err}");
    }
    assert!(!dir.path().join("l.db").exists());

    let db = dir.path().join("h.db");
    let db_s = db.to_str().unwrap();
    let (code, _, err) = dbio_in(
        dir.path(),
        &["run", "--engine", "sim", "--ops", "100", "-q", "--db", db_s],
    );
    assert_eq!(code, Some(0), "{err}");
    // An age reaching back before 1970 lists everything (it used to panic).
    let (code, out, err) = dbio_in(dir.path(), &["history", "--db", db_s, "--since", "21000d"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 2, "header and the one run: {out}");
    for bad in [
        "2026-02-30",
        "2026-13-45",
        "2026-11-01T25:00:00Z",
        "2026-11-22x",
        "1e300d",
    ] {
        let (code, _, err) = dbio_in(dir.path(), &["history", "--db", db_s, "--since", bad]);
        assert_eq!(code, Some(2), "--since {bad}: {err}");
        assert!(err.contains(&format!("--since {bad}")), "{err}");
    }
}
