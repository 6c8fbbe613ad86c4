//! Bad input, refused as the README and the help promise: each row is the command line, the
//! exit status and the words the one-line message must hold. Nothing runs and nothing is
//! stored for any of them. Then the name that is both a file and a label (`dbio compare c1
//! c2` in a folder holding a file c1 while c1 is also a label): the stated rule decides, and
//! a file that is not a dbio result is named as such.

#![forbid(unsafe_code)]

mod common;
use common::*;

/// (arguments, exit status, words the message holds). `F` stands for a scratch file.
const TABLE: &[(&[&str], i32, &[&str])] = &[
    (&["run", "--bs", "8q"], 2, &["--bs", "unknown unit"]),
    (&["run", "--bs", "8k:x"], 2, &["--bs", "weight"]),
    (
        &["run", "--duration", "5x"],
        2,
        &["--duration", "unknown unit"],
    ),
    (
        &["run", "--skew", "lumpy"],
        2,
        &["--skew lumpy", "unknown skew"],
    ),
    (&["run", "--skew", "zipf:0"], 2, &["--skew zipf:0"]),
    (
        &["run", "--sync", "sometimes"],
        2,
        &["--sync sometimes", "unknown mode"],
    ),
    (
        &["run", "--engine", "sim", "--sim", "nonsense"],
        2,
        &["--sim nonsense", "unknown preset"],
    ),
    (
        &[
            "run", "--rw", "randread", "--offset", "10GiB", "--target", "F",
        ],
        2,
        &["--offset", "beyond the end"],
    ),
    (
        &[
            "sweep",
            "oltp-read",
            "--vary",
            "qd=1,2",
            "--slo",
            "p99<<1ms",
        ],
        2,
        &["--slo", "expected a number"],
    ),
    (
        &["run", "--rw", "randread", "--verify", "--target", "F"],
        2,
        &["--verify", "only reads"],
    ),
    (
        &[
            "run",
            "--rw",
            "randwrite",
            "--bs",
            "512",
            "--buffered",
            "--verify",
            "--target",
            "F",
        ],
        2,
        &["--verify", "multiples of 4k"],
    ),
    (
        &[
            "run",
            "--rw",
            "randwrite",
            "--data",
            "dedupe:2",
            "--verify",
            "--target",
            "F",
        ],
        2,
        &["--verify", "dedupe"],
    ),
    (
        &["run", "--rw", "randwrite", "--engine", "null", "--verify"],
        2,
        &["--verify", "does no I/O"],
    ),
    (
        &[
            "run",
            "--rw",
            "randwrite",
            "--verify-journal",
            "F",
            "--target",
            "F",
        ],
        2,
        &["--verify-journal", "a target of the run"],
    ),
    (
        &[
            "run",
            "--sessions",
            "2",
            "--update-pct",
            "50",
            "--verify",
            "--target",
            "F",
        ],
        2,
        &["--verify", "session mode"],
    ),
    (
        &["verify", "--journal", "F"],
        2,
        &["not a dbio verify journal"],
    ),
    (
        &["verify", "--journal", "/nonexistent/journal"],
        2,
        &["/nonexistent/journal"],
    ),
];

#[test]
fn every_refusal_has_its_message_and_exit_status() {
    let dir = scratch();
    let f = dir.path().join("F");
    std::fs::write(&f, vec![7u8; 1 << 20]).unwrap();
    let fp = f.to_str().unwrap();
    for (args, code, words) in TABLE {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "F" { fp } else { a })
            .collect();
        let mut all = args.clone();
        if matches!(args[0], "run" | "sweep") {
            all.extend(["--no-store", "-q"]);
        }
        let (got, out, err) = dbio_in(dir.path(), &all);
        assert_eq!(got, Some(*code), "dbio {args:?}: stderr {err}");
        assert!(out.is_empty(), "dbio {args:?} printed on stdout: {out}");
        let line = err.trim();
        assert_eq!(
            line.lines().count(),
            1,
            "dbio {args:?}: not one line: {err}"
        );
        for w in *words {
            assert!(line.contains(w), "dbio {args:?}: {line:?} lacks {w:?}");
        }
    }
    // Nothing was written over the file the refusals named.
    assert_eq!(std::fs::read(&f).unwrap(), vec![7u8; 1 << 20]);
}

#[test]
fn a_name_that_is_both_a_file_and_a_label_follows_the_stated_rule() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let db = db.to_str().unwrap();
    for label in ["c1", "c2"] {
        let (code, _, err) = dbio_in(
            dir.path(),
            &[
                "run", "--engine", "sim", "--ops", "2000", "--label", label, "--db", db, "-q",
            ],
        );
        assert_eq!(code, Some(0), "{err}");
    }
    // A file named c1 in the folder, left by an earlier test: not a dbio result at all.
    std::fs::write(dir.path().join("c1"), [0xffu8, 0xfe, 0x00, 0x81]).unwrap();
    // A name without a '/' and not ending in .json is the history's label first.
    let (code, out, err) = dbio_in(dir.path(), &["compare", "c1", "c2", "--db", db]);
    assert_eq!(code, Some(0), "compare c1 c2: {err}");
    assert!(!out.is_empty());
    // Written as a path, it is the file, and the file is named as not a dbio result.
    let (code, _, err) = dbio_in(dir.path(), &["compare", "./c1", "c2", "--db", db]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("./c1: not a dbio result"), "{err}");
    assert!(!err.contains("UTF-8"), "{err}");
    // A file with no such label is read as a file, and refused as one.
    std::fs::write(dir.path().join("notes"), "plain words").unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["compare", "notes", "c2", "--db", db]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("notes: not a dbio result (not JSON"), "{err}");
    std::fs::write(dir.path().join("other.json"), r#"{"hello": 1}"#).unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["show", "other.json", "--db", db]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("without a dbio schema"), "{err}");
}
