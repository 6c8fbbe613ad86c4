//! Access skew end to end, with the file's own bytes as the oracle: a hot spot that takes
//! every write leaves the cold part of the region untouched, and skew on a sequential
//! pattern is refused.

#![forbid(unsafe_code)]

mod common;
use common::*;

#[test]
fn a_hotspot_taking_all_writes_leaves_the_cold_region_untouched() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "40MiB");
    let before = std::fs::read(&f).unwrap();
    let target = f.to_str().unwrap();
    let args = [
        "--target",
        target,
        "--rw",
        "randwrite",
        "--bs",
        "4k",
        "--ops",
        "3000",
    ];
    run_ok(
        dir.path(),
        &[&args[..], &["--skew", "hotspot:100/10"]].concat(),
    );
    let after = std::fs::read(&f).unwrap();
    let hot_end = 4 << 20; // 10 % of 40 MiB
    assert_eq!(
        first_difference(&before[hot_end..], &after[hot_end..]),
        None,
        "a write landed outside the hot 10 %"
    );
    let changed = (0..hot_end / 4096)
        .filter(|b| before[b * 4096..(b + 1) * 4096] != after[b * 4096..(b + 1) * 4096])
        .count();
    assert!(
        changed > 500,
        "only {changed} of 1024 hot blocks were written"
    );
}

#[test]
fn skew_on_a_sequential_pattern_is_refused() {
    let dir = scratch();
    let f = dir.path().join("t.dat");
    let ran = dbio_run(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "read",
            "--skew",
            "zipf:1.2",
            "--ops",
            "10",
        ],
    );
    assert_one_line_error(&ran, &["--skew", "sequential"]);
}
