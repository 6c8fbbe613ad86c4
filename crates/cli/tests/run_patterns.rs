//! `dbio run` does the I/O it was asked for, held against what the I/O left behind rather
//! than against dbio's own JSON: the kernel's counters of a loop device for each access
//! pattern, `--ops` across threads and the `--mix` read quota; the bytes a sequential write
//! left in a file of zeros for the `--bs` size distribution; the blocks a random write
//! marked with a pattern for `--seed` (the same seed writes the same offsets on either
//! engine, another seed other offsets); and the null engine at a million I/Os.

#![forbid(unsafe_code)]

mod common;
use common::*;

/// 4 KiB blocks a content sample reads before a run that reads (README: 256 blocks of 4 KiB).
const SAMPLED: u64 = 256;

/// A loop device over 64 MiB of zeros.
fn loop_dev(test: &str) -> Option<LoopDev> {
    LoopDev::attach(test, &vec![0u8; 64 << 20])
}

/// Requests the kernel completed on the device (a merge folds one request into another).
fn requests(d: &DiskStats) -> (u64, u64) {
    (d.reads + d.reads_merged, d.writes + d.writes_merged)
}

/// Checks the reads the kernel saw against `want` 4 KiB reads: dbio's signature probe of
/// a device reads 128 KiB through the page cache, which readahead may make up to 512 KiB,
/// and the kernel counts each page-sized bio of it that was merged (up to 128 here; 17
/// were seen on one kernel, at most 16 on another): the sectors bound is the tight one.
#[track_caller]
fn assert_reads(what: &str, d: &DiskStats, want: u64) {
    let (reads, _) = requests(d);
    assert!(
        (want..=want + 128).contains(&reads),
        "{what}: the kernel saw {reads} reads, dbio was to do {want}"
    );
    assert!(
        (want * 8..=want * 8 + 1024).contains(&d.sectors_read),
        "{what}: the kernel read {} sectors, dbio was to read {}",
        d.sectors_read,
        want * 8
    );
}

#[test]
fn each_pattern_does_exactly_the_ops_asked_in_the_right_directions() {
    let Some(lo) = loop_dev("each_pattern_does_exactly_the_ops_asked_in_the_right_directions")
    else {
        return;
    };
    let dir = scratch();
    // (pattern, reads expected, writes expected); randrw uses the default 70 % read quota.
    let cases = [
        ("read", 20_000, 0),
        ("write", 0, 20_000),
        ("randread", 20_000, 0),
        ("randwrite", 0, 20_000),
        ("randrw", 14_000, 6_000),
    ];
    for (rw, want_r, want_w) in cases {
        let before = DiskStats::of(&lo.name);
        let r = run_ok(
            dir.path(),
            &[
                "--target",
                &lo.dev,
                "--rw",
                rw,
                "--ops",
                "20000",
                "--bs",
                "4k",
                "--destroy-data",
            ],
        );
        let d = DiskStats::of(&lo.name).since(before);
        assert_eq!(r["outcome"]["status"], "complete", "{rw}");
        assert_eq!(requests(&d).1, want_w, "{rw}: writes the kernel saw");
        assert_eq!(d.sectors_written, want_w * 8, "{rw}: sectors written");
        // A run that reads samples the content first; a write-only run does not.
        let sampled = if want_r > 0 { SAMPLED } else { 0 };
        assert_reads(rw, &d, want_r + sampled);
        // And the result says the same.
        assert_eq!(
            (ios(&r, "read"), ios(&r, "write")),
            (want_r, want_w),
            "{rw}"
        );
        assert!(
            dir_stats(&r, "flush").is_none(),
            "{rw}: no flush without --sync"
        );
    }
}

#[test]
fn ops_are_totals_across_threads_and_mix_is_an_exact_read_quota() {
    let Some(lo) = loop_dev("ops_are_totals_across_threads_and_mix_is_an_exact_read_quota") else {
        return;
    };
    let dir = scratch();
    let run = |args: &[&str]| {
        let before = DiskStats::of(&lo.name);
        let mut all = vec!["--target", lo.dev.as_str(), "--destroy-data", "--bs", "4k"];
        all.extend_from_slice(args);
        let r = run_ok(dir.path(), &all);
        (r, DiskStats::of(&lo.name).since(before))
    };
    // 20,001 writes over 3 threads: the total, not per thread.
    let (r, d) = run(&["--rw", "randwrite", "--ops", "20001", "--threads", "3"]);
    assert_eq!(requests(&d).1, 20_001);
    let per_worker: u64 = r["cpu"]["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["ios"].as_u64().unwrap())
        .sum();
    assert_eq!(per_worker, 20_001, "the workers' I/Os add up to the total");
    // --bytes 8MiB of 4 KiB reads over 2 threads: 2048 reads.
    let (_, d) = run(&["--rw", "randread", "--bytes", "8MiB", "--threads", "2"]);
    assert_reads("--bytes 8MiB", &d, 2048 + SAMPLED);
    // An exact quota of 70 reads per 100 I/Os.
    let (_, d) = run(&["--rw", "randrw", "--mix", "70", "--ops", "20000"]);
    assert_reads("--mix 70", &d, 14_000 + SAMPLED);
    assert_eq!(requests(&d).1, 6_000, "--mix 70: writes");
}

#[test]
fn block_size_distribution_on_a_file() {
    // 1000 sequential writes of 4k:70,64k:30 (an exact quota per 100) from offset 0 of a
    // file of zeros: 700 × 4 KiB + 300 × 64 KiB = 22,528,000 bytes, so the first 5500
    // blocks of 4 KiB now hold data and every later one is still zero.
    let dir = scratch();
    let f = dir.path().join("zeros.dat");
    std::fs::write(&f, vec![0u8; 64 << 20]).unwrap();
    run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "write",
            "--bs",
            "4k:70,64k:30",
            "--ops",
            "1000",
            "--destroy-data",
        ],
    );
    let data = std::fs::read(&f).unwrap();
    let written: Vec<bool> = data
        .chunks_exact(BLOCK)
        .map(|b| b.iter().any(|&x| x != 0))
        .collect();
    let n = written.iter().filter(|&&w| w).count();
    assert_eq!(n, 5500, "blocks written");
    assert!(
        written[..5500].iter().all(|&w| w),
        "a gap in the first 22,528,000 bytes"
    );
}

/// The 4 KiB blocks of `file` that hold the pattern 0xDEADBEEF; fails on any block that is
/// neither that nor zeros.
fn pattern_blocks(file: &std::path::Path) -> Vec<usize> {
    let pattern: Vec<u8> = [0xDEu8, 0xAD, 0xBE, 0xEF].repeat(BLOCK / 4);
    let data = std::fs::read(file).unwrap();
    let mut out = Vec::new();
    for (i, b) in data.chunks_exact(BLOCK).enumerate() {
        if b == &pattern[..] {
            out.push(i);
        } else {
            assert!(
                b.iter().all(|&x| x == 0),
                "block {i} is neither pattern nor zeros"
            );
        }
    }
    out
}

#[test]
fn the_same_seed_writes_the_same_offsets_on_either_engine() {
    let dir = scratch();
    // Each run writes 2000 random 4 KiB blocks of a pattern into 64 MiB of zeros: the blocks
    // it wrote are the ones that hold the pattern.
    let written = |engine: &str, seed: &str| {
        let f = dir.path().join(format!("{engine}-{seed}.dat"));
        std::fs::write(&f, vec![0u8; 64 << 20]).unwrap();
        let r = run_ok(
            dir.path(),
            &[
                "--target",
                f.to_str().unwrap(),
                "--engine",
                engine,
                "--rw",
                "randwrite",
                "--bs",
                "4k",
                "--ops",
                "2000",
                "--seed",
                seed,
                "--data",
                "pattern:0xDEADBEEF",
                "--destroy-data",
            ],
        );
        assert_eq!(r["engine"]["name"], engine, "{engine} ran (not a fallback)");
        pattern_blocks(&f)
    };
    let a = written("uring", "7");
    // 2000 draws from 16,384 blocks cover about 1880 of them.
    assert!(
        (1700..=2000).contains(&a.len()),
        "{} blocks written",
        a.len()
    );
    assert_eq!(written("uring", "7"), a, "the same seed, other offsets");
    assert_eq!(written("psync", "7"), a, "psync wrote other offsets");
    assert_ne!(written("uring", "8"), a, "another seed, the same offsets");
}

#[test]
fn null_engine_runs_a_million_ios() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "16MiB");
    let before = std::fs::read(&f).unwrap();
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--engine",
            "null",
            "--ops",
            "1000000",
        ],
    );
    assert_eq!(r["engine"]["name"], "null");
    assert_eq!(ios(&r, "read") + ios(&r, "write"), 1_000_000);
    assert_eq!(ios(&r, "read"), 700_000, "default 70 % read quota");
    let after = std::fs::read(&f).unwrap();
    assert!(
        first_difference(&before, &after).is_none(),
        "the null engine must not write to the target"
    );
}
