//! `--invalidate`: a buffered run starts with its target's pages dropped from the page cache
//! (fio's invalidate=1), checked against util-linux's `fincore` (the kernel's own count of a
//! file's resident pages).

mod common;
use common::*;

/// The resident bytes of `path` as fincore counts them.
fn resident_pages(path: &std::path::Path) -> u64 {
    let out = std::process::Command::new("fincore")
        .args(["--bytes", "--noheadings", "--output", "PAGES"])
        .arg(path)
        .output()
        .expect("fincore (util-linux) runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("a page count")
}

#[test]
fn a_buffered_run_with_invalidate_starts_cold_and_one_without_keeps_the_cache() {
    let dir = scratch();
    let f = dir.path().join("cached.dat");
    let target = f.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--target",
            &target,
            "--size",
            "16m",
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--ops",
            "8",
            "--buffered",
            "-q",
            "--no-store",
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(0), "{err}");
    };
    run(&[]);
    std::fs::read(&f).expect("read the whole file into the page cache");
    let all = resident_pages(&f);
    assert_eq!(
        all,
        16 << 20 >> 12,
        "the whole file is cached after reading it"
    );
    run(&[]);
    assert_eq!(
        resident_pages(&f),
        all,
        "without --invalidate the cache is kept"
    );
    run(&["--invalidate"]);
    let left = resident_pages(&f);
    assert!(
        left <= 8,
        "{left} pages resident after --invalidate and 8 reads of 4 KiB"
    );
    let (code, _, err) = dbio_in(
        dir.path(),
        &[
            "run",
            "--target",
            &target,
            "--ops",
            "1",
            "--invalidate",
            "--no-store",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--invalidate drops the page cache before a --buffered run"),
        "{err}"
    );
}

/// As fio's invalidate=1 in a time-based job, the pages are dropped again after each pass
/// over the region: two passes and 16 reads (one at a time, so that none of the pass before is
/// still in flight at the drop) leave little more than those 16 reads cached (16 here), where
/// without --invalidate the whole file stays cached (its prefill and the reads).
#[test]
fn invalidate_drops_the_cache_again_after_each_pass() {
    let dir = scratch();
    let f = dir.path().join("passes.dat");
    let target = f.to_string_lossy().into_owned();
    let blocks = 4u64 << 20 >> 12;
    let ops = (2 * blocks + 16).to_string();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--target",
            &target,
            "--size",
            "4m",
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--ops",
            &ops,
            "--qd",
            "1",
            "--buffered",
            "-q",
            "--no-store",
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(0), "{err}");
        resident_pages(&f)
    };
    let kept = run(&[]);
    assert!(
        kept > blocks / 2,
        "{kept} of {blocks} pages cached without --invalidate"
    );
    let left = run(&["--invalidate"]);
    assert!(
        left <= blocks / 16,
        "{left} pages resident after two passes and 16 reads with --invalidate"
    );
}
