//! dbio destroys nothing it was not clearly given: writes to a file it did not create, or to
//! a block device (a loop device over a temp file), are refused without `--destroy-data`
//! and leave every byte as it was, reads are allowed; with the flag the write happens and
//! is flagged. Bad input exits 2 with a one-line message naming the flag, without a panic
//! and without creating the target.

#![forbid(unsafe_code)]

mod common;
use common::*;

const MIB: usize = 1 << 20;

#[track_caller]
fn assert_unchanged(what: &str, before: &[u8], path: &std::path::Path) {
    let now = std::fs::read(path).unwrap();
    if let Some(at) = first_difference(before, &now) {
        panic!("{what}: {} changed at byte {at}", path.display());
    }
}

/// A user who does not own a file still reads it: O_NOATIME, which the kernel grants only to
/// the owner (and root), is dropped for anyone else instead of the run being refused. The file
/// is root's, read by `nobody`.
#[test]
fn a_file_the_user_does_not_own_is_read() {
    let test = "a_file_the_user_does_not_own_is_read";
    if !running_as_root() {
        skip(
            test,
            "run as root, which owns the file that an unprivileged user then reads",
        );
        return;
    }
    if require_tool(test, "setpriv").is_none() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = shared_scratch("dbio-it-owner-");
    let path = dir.path().join("theirs.db");
    std::fs::write(&path, pseudo_random(MIB, 7)).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let p = path.to_str().unwrap();
    let out = dbio_unprivileged(
        dir.path(),
        &[
            "run",
            "--target",
            p,
            "--rw",
            "randread",
            "--ops",
            "50",
            "--no-store",
            "--json",
            "-",
            "-q",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ios(&r, "read"), 50);
}

#[test]
fn a_foreign_file_is_read_but_not_written_without_destroy_data() {
    let dir = scratch();
    let path = dir.path().join("precious.db");
    let p = path.to_str().unwrap();
    let before = pseudo_random(16 * MIB, 42);
    std::fs::write(&path, &before).unwrap();

    for rw in ["randwrite", "write", "randrw"] {
        let ran = dbio_run(dir.path(), &["--target", p, "--rw", rw, "--ops", "100"]);
        assert_one_line_error(&ran, &[p, "dbio did not create it", "--destroy-data"]);
        assert_unchanged(rw, &before, &path);
    }
    let r = run_ok(
        dir.path(),
        &["--target", p, "--rw", "randread", "--ops", "100"],
    );
    assert_eq!(ios(&r, "read"), 100);
    assert_unchanged("randread", &before, &path);

    // With the flag the write happens, and the result says so.
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            p,
            "--rw",
            "randwrite",
            "--ops",
            "100",
            "--destroy-data",
        ],
    );
    assert_eq!(ios(&r, "write"), 100);
    assert!(
        warning_codes(&r).contains(&"destroying-data".to_string()),
        "no destroying-data warning: {}",
        r["warnings"]
    );
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after.len(), before.len(), "the file kept its size");
    assert!(
        first_difference(&before, &after).is_some(),
        "--destroy-data wrote nothing"
    );
}

#[test]
fn a_foreign_file_is_not_resized() {
    let dir = scratch();
    let path = dir.path().join("precious.db");
    let p = path.to_str().unwrap();
    let before = pseudo_random(8 * MIB, 7);
    std::fs::write(&path, &before).unwrap();
    let ran = dbio_run(
        dir.path(),
        &[
            "--target", p, "--rw", "randread", "--size", "64MiB", "--ops", "10",
        ],
    );
    assert_one_line_error(&ran, &[p, "--size"]);
    assert_unchanged("read with --size", &before, &path);
}

#[test]
fn a_block_device_is_read_but_not_written_without_destroy_data() {
    let image = pseudo_random(16 * MIB, 99);
    let Some(lo) = LoopDev::attach("block-device safety", &image) else {
        return;
    };
    let dir = scratch();
    let ran = dbio_run(
        dir.path(),
        &["--target", &lo.dev, "--rw", "randwrite", "--ops", "100"],
    );
    assert_one_line_error(
        &ran,
        &[
            "refusing to write to block device",
            &lo.dev,
            "--destroy-data",
        ],
    );
    assert_unchanged("refused write", &image, &lo.backing);

    let r = run_ok(
        dir.path(),
        &["--target", &lo.dev, "--rw", "randread", "--ops", "100"],
    );
    assert_eq!(ios(&r, "read"), 100);
    assert_eq!(r["targets"][0]["kind"], "block");
    assert_eq!(r["targets"][0]["size_bytes"], 16 * MIB as u64);
    assert_eq!(r["targets"][0]["device"], lo.name.as_str());
    assert_unchanged("read", &image, &lo.backing);
}

/// Bad input found while validating the flags: exit 2, one line naming the flag (and
/// what else the user needs), nothing created.
#[test]
fn bad_flags_exit_2_with_a_one_line_message() {
    let dir = scratch();
    let target = dir.path().join("never-created.dat");
    let t = target.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--qd", "0", "--ops", "10"], &["--qd"]),
        (&["--mix", "101", "--ops", "10"], &["--mix", "101"]),
        (&["--bs", "8q", "--ops", "10"], &["--bs", "8q"]),
        (&["--size", "4k", "--bs", "8k", "--ops", "10"], &["--size"]),
        (&["--duration", "0"], &["--duration"]),
        (&["--sync", "fdatasync:0", "--ops", "10"], &["--sync"]),
        (
            &["--rw", "randread", "--sync", "dsync", "--ops", "10"],
            &["--sync", "randread"],
        ),
        (&["--rate", "0", "--ops", "10"], &["--rate"]),
        (&["--range", "0", "--ops", "10"], &["--range"]),
        // io_uring's rings hold 32768 entries: half of them for the I/Os, half for flushes.
        (&["--qd", "16385", "--ops", "10"], &["--qd 16385", "16384"]),
        (
            &["--rw", "randread", "--mix", "50", "--ops", "10"],
            &["--mix", "randrw"],
        ),
        (&["--target", t, "--ops", "10"], &["given twice"]),
        (
            &["--target", "data=", "--ops", "10"],
            &["--target data=", "data=PATH"],
        ),
    ];
    for (args, needles) in cases {
        let ran = dbio_run(dir.path(), &[&["--target", t], *args].concat());
        assert_one_line_error(&ran, needles);
        assert!(!target.exists(), "{args:?} created the target");
    }
    let ran = dbio_run(
        dir.path(),
        &["--target", "/nonexistent-dir-xyz/f", "--ops", "10"],
    );
    assert_one_line_error(&ran, &["/nonexistent-dir-xyz", "--target"]);
    assert!(!std::path::Path::new("/nonexistent-dir-xyz").exists());
}

#[test]
fn a_profile_with_an_unknown_access_pattern_is_refused_not_run_as_the_default_mix() {
    let dir = scratch();
    let target = dir.path().join("never-created.dat");
    for rw in ["bogus", "READ", "", "randread "] {
        let profile = dir.path().join("p.toml");
        std::fs::write(&profile, format!("rw = \"{rw}\"\nbs = \"8k\"\n")).unwrap();
        let ran = dbio_run(
            dir.path(),
            &[
                "--profile",
                profile.to_str().unwrap(),
                "--target",
                target.to_str().unwrap(),
                "--ops",
                "10",
            ],
        );
        assert_one_line_error(&ran, &[&format!("rw = \"{rw}\""), "randrw"]);
        assert!(!target.exists(), "rw = {rw:?} ran");
    }
}

#[test]
fn block_size_not_a_multiple_of_the_logical_block_size_is_refused() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "8MiB");
    let before = std::fs::read(&f).unwrap();
    let ran = dbio_run(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--bs",
            "1000",
            "--ops",
            "10",
        ],
    );
    assert_one_line_error(&ran, &["--bs 1000", "logical block size"]);
    assert_unchanged("refused run", &before, &f);
}

#[test]
fn a_run_refused_for_its_target_creates_no_file() {
    let dir = scratch();
    let cases: &[(&[&str], &str)] = &[
        (&["--bs", "1000"], "logical block size"),
        (&["--offset", "32MiB"], "--offset"),
        // One aligned position would make every random read the same block.
        (
            &["--rw", "randread", "--align", "8MiB"],
            "only one aligned position",
        ),
    ];
    for (args, needle) in cases {
        let target = dir.path().join("new.dat");
        let t = target.to_str().unwrap();
        let base = ["--target", t, "--size", "8MiB", "--ops", "10"];
        let ran = dbio_run(dir.path(), &[&base[..], args].concat());
        assert_one_line_error(&ran, &[needle]);
        assert!(!target.exists(), "{args:?} was refused but created {t}");
    }
}
