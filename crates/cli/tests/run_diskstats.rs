//! The kernel as the oracle: on a loop device of our own (direct I/O, over a temp file),
//! the /proc/diskstats deltas of a run match what dbio says it did: the number of reads
//! and writes, the bytes, and the block-size distribution solved from sectors per request.
//! Requests counted are completed plus merged (each merge folds one I/O into another).

#![forbid(unsafe_code)]

mod common;
use common::*;

const MIB: usize = 1 << 20;

/// A loop device over a 64 MiB file of zeros (sparse until written).
fn loop_dev(test: &str) -> Option<LoopDev> {
    LoopDev::attach(test, &vec![0u8; 64 * MIB])
}

#[test]
fn random_reads_counted_by_the_kernel() {
    let Some(lo) = loop_dev("diskstats random reads") else {
        return;
    };
    let dir = scratch();
    let before = DiskStats::of(&lo.name);
    let r = run_ok(
        dir.path(),
        &[
            "--target", &lo.dev, "--rw", "randread", "--ops", "50000", "--bs", "4k",
        ],
    );
    let d = DiskStats::of(&lo.name).since(before);
    assert_eq!(ios(&r, "read"), 50_000);
    // Plus the 4 KiB reads that sampled the device's content before the run.
    let sampled = sampled_blocks(&r, &lo.dev);
    assert_eq!(sampled, 256);
    assert_near(
        "reads seen by the kernel",
        (d.reads + d.reads_merged) as f64,
        50_000.0 + sampled as f64,
        1.0,
    );
    assert_near(
        "sectors read",
        d.sectors_read as f64,
        (50_000.0 + sampled as f64) * 8.0,
        1.0,
    );
    assert!(d.writes <= 5, "a read run wrote {} requests", d.writes);
}

#[test]
fn random_writes_counted_by_the_kernel() {
    let Some(lo) = loop_dev("diskstats random writes") else {
        return;
    };
    let dir = scratch();
    let before = DiskStats::of(&lo.name);
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            &lo.dev,
            "--rw",
            "randwrite",
            "--ops",
            "50000",
            "--bs",
            "4k",
            "--destroy-data",
        ],
    );
    let d = DiskStats::of(&lo.name).since(before);
    assert_eq!(ios(&r, "write"), 50_000);
    assert_near(
        "writes seen by the kernel",
        (d.writes + d.writes_merged) as f64,
        50_000.0,
        1.0,
    );
    assert_near(
        "sectors written",
        d.sectors_written as f64,
        50_000.0 * 8.0,
        1.0,
    );
}

#[test]
fn block_size_distribution_seen_by_the_kernel() {
    let Some(lo) = loop_dev("diskstats block-size distribution") else {
        return;
    };
    let dir = scratch();
    let before = DiskStats::of(&lo.name);
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            &lo.dev,
            "--rw",
            "randread",
            "--bs",
            "4k:70,64k:30",
            "--ops",
            "50000",
        ],
    );
    let d = DiskStats::of(&lo.name).since(before);
    // The run's own reads, without the 4 KiB reads that sampled the content before it.
    let sampled = sampled_blocks(&r, &lo.dev) as f64;
    // n4 + n64 = requests, 8·n4 + 128·n64 = sectors.
    let n = (d.reads + d.reads_merged) as f64 - sampled;
    let n64 = (d.sectors_read as f64 - 8.0 * sampled - 8.0 * n) / 120.0;
    let n4 = n - n64;
    assert_near("requests", n, 50_000.0, 1.0);
    assert!(
        (n4 / n - 0.70).abs() <= 0.01 && (n64 / n - 0.30).abs() <= 0.01,
        "kernel saw {n4:.0} reads of 4 KiB and {n64:.0} of 64 KiB; expected a 70/30 split ± 1 %"
    );
}
