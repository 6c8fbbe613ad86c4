//! The bytes on the target, read back by the test: a file dbio creates is prefilled with
//! data that has no zero, repeated-byte or duplicate 4 KiB block; writes keep it that way;
//! `--offset`/`--range` confine writes to their region; a sequential write starts at the
//! region's start and covers exactly the blocks it counted; blocks stay unique across runs;
//! and fio, reading the file back, finds the pattern or the zeros `--data` asked for.

#![forbid(unsafe_code)]

mod common;
use common::*;

const MIB: usize = 1 << 20;

#[track_caller]
fn assert_no_block_faults(what: &str, data: &[u8]) {
    let f = block_faults(data);
    assert!(
        f.repeated_byte.is_empty(),
        "{what}: {} blocks of one repeated byte, first at block {:?}",
        f.repeated_byte.len(),
        f.repeated_byte.first()
    );
    assert!(
        f.duplicates.is_empty(),
        "{what}: {} blocks equal to an earlier block, first at block {:?}",
        f.duplicates.len(),
        f.duplicates.first()
    );
}

/// Indexes of the 4 KiB blocks that differ between `a` and `b`.
fn changed_blocks(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len(), "the file changed size");
    a.chunks_exact(BLOCK)
        .zip(b.chunks_exact(BLOCK))
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn a_created_file_is_prefilled_with_unique_blocks() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let data = std::fs::read(&f).unwrap();
    assert_eq!(data.len(), 64 * MIB);
    assert_no_block_faults("prefilled file", &data);
}

#[test]
fn random_writes_keep_every_block_unique() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "64MiB");
    let before = std::fs::read(&f).unwrap();
    let r = run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randwrite",
            "--bs",
            "64k",
            "--ops",
            "2000",
        ],
    );
    assert_eq!(r["data"]["kind"], "random");
    assert_eq!(bytes(&r, "write"), 2000 * 65536);
    let after = std::fs::read(&f).unwrap();
    // 2000 writes of 16 blocks over 16384 blocks: most of the file is rewritten.
    let changed = changed_blocks(&before, &after).len();
    assert!(
        changed > 8192,
        "only {changed} of 16384 blocks were rewritten"
    );
    assert_no_block_faults("file after random writes", &after);
}

#[test]
fn writes_stay_inside_offset_and_range() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    let before = std::fs::read(&f).unwrap();
    run_ok(
        dir.path(),
        &[
            "--target",
            f.to_str().unwrap(),
            "--rw",
            "randwrite",
            "--offset",
            "8MiB",
            "--range",
            "4MiB",
            "--ops",
            "5000",
            "--bs",
            "4k",
        ],
    );
    let after = std::fs::read(&f).unwrap();
    let region = (8 * MIB / BLOCK)..(12 * MIB / BLOCK);
    let changed = changed_blocks(&before, &after);
    let outside: Vec<usize> = changed
        .iter()
        .copied()
        .filter(|i| !region.contains(i))
        .collect();
    assert!(
        outside.is_empty(),
        "{} blocks outside [8 MiB, 12 MiB) changed, first at byte {}",
        outside.len(),
        outside[0] * BLOCK
    );
    // 5000 random writes over 1024 blocks leave about 1024·(1-1/1024)^5000 ≈ 8 untouched.
    assert!(
        changed.len() >= 950,
        "only {} of the 1024 blocks in the region changed",
        changed.len()
    );
}

#[test]
fn sequential_write_covers_the_blocks_from_the_region_start() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    let p = f.to_str().unwrap();
    let before = std::fs::read(&f).unwrap();
    run_ok(
        dir.path(),
        &[
            "--target", p, "--rw", "write", "--ops", "1000", "--bs", "4k",
        ],
    );
    let after = std::fs::read(&f).unwrap();
    let want: Vec<usize> = (0..1000).collect();
    assert_eq!(changed_blocks(&before, &after), want, "blocks 0..1000");

    run_ok(
        dir.path(),
        &[
            "--target", p, "--rw", "write", "--ops", "500", "--bs", "8k", "--offset", "16MiB",
        ],
    );
    let last = std::fs::read(&f).unwrap();
    let first = 16 * MIB / BLOCK;
    let want: Vec<usize> = (first..first + 1000).collect();
    assert_eq!(
        changed_blocks(&after, &last),
        want,
        "1000 blocks from 16 MiB"
    );
}

#[test]
fn a_second_run_writes_blocks_not_already_on_the_target() {
    let dir = scratch();
    let f = dbio_file(dir.path(), "t.dat", "32MiB");
    let p = f.to_str().unwrap();
    let args = [
        "--target", p, "--rw", "write", "--ops", "500", "--bs", "4k", "--qd", "1",
    ];
    run_ok(dir.path(), &args);
    run_ok(dir.path(), &[&args[..], &["--offset", "16MiB"]].concat());
    let data = std::fs::read(&f).unwrap();
    // Blocks 4096.. written by the second run must not repeat blocks 0..500 of the first:
    // an array that dedupes would store the second run's writes for free.
    assert_no_block_faults("file after two write runs", &data);
}

#[test]
fn files_created_by_separate_runs_share_no_block() {
    let dir = scratch();
    let a = std::fs::read(dbio_file(dir.path(), "a.dat", "8MiB")).unwrap();
    let b = std::fs::read(dbio_file(dir.path(), "b.dat", "8MiB")).unwrap();
    assert_no_block_faults("two prefilled files side by side", &[a, b].concat());
}

/// fio reads `file` whole and checks every byte against `pattern` (its own verify, block by
/// block from offset 0); Ok(bytes fio read), or fio's complaint.
fn fio_verify(fio: &std::path::Path, file: &std::path::Path, pattern: &str) -> Result<u64, String> {
    let size = std::fs::metadata(file).unwrap().len();
    let out = std::process::Command::new(fio)
        .args([
            "--name=verify",
            "--rw=read",
            "--bs=64k",
            "--direct=1",
            "--ioengine=psync",
            "--verify=pattern",
            "--verify_only",
            "--output-format=json",
        ])
        .arg(format!("--verify_pattern={pattern}"))
        .arg(format!("--size={size}"))
        .arg(format!("--filename={}", file.display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = text
        .find('{')
        .and_then(|i| serde_json::from_str(&text[i..]).ok())
        .unwrap_or(serde_json::Value::Null);
    let job = &report["jobs"][0];
    if out.status.success() && job["error"] == 0 {
        Ok(job["read"]["io_bytes"].as_u64().unwrap())
    } else {
        Err(format!(
            "{}{}",
            text.lines().next().unwrap_or(""),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn fio_finds_the_pattern_and_the_zeros_dbio_wrote() {
    // fio as the oracle: `--data pattern:0xDEADBEEF` is those bytes repeated in phase with
    // the file offset, prefill and writes alike, and `--data zeros` is zeros.
    let test = "fio_finds_the_pattern_and_the_zeros_dbio_wrote";
    let Some(fio) = require_tool(test, "fio") else {
        return;
    };
    let dir = scratch();
    for (data, pattern) in [("pattern:0xDEADBEEF", "0xDEADBEEF"), ("zeros", "0x00")] {
        let f = dir.path().join("p.dat");
        let _ = std::fs::remove_file(&f);
        run_ok(
            dir.path(),
            &[
                "--target",
                f.to_str().unwrap(),
                "--size",
                "16MiB",
                "--data",
                data,
                "--rw",
                "randrw",
                "--bs",
                "4k:50,12k:50",
                "--ops",
                "2000",
            ],
        );
        assert_eq!(
            fio_verify(&fio, &f, pattern),
            Ok(16 << 20),
            "--data {data}: fio's verify of the whole file"
        );
    }
    // The controls: fio notices one flipped bit, and the pattern a byte out of phase.
    let f = dir.path().join("p.dat");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[5000] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    assert!(
        fio_verify(&fio, &f, "0x00").is_err(),
        "a flipped bit passed"
    );
    let shifted: Vec<u8> = [0xADu8, 0xBE, 0xEF, 0xDE].repeat(4 * MIB);
    std::fs::write(&f, shifted).unwrap();
    assert!(
        fio_verify(&fio, &f, "0xDEADBEEF").is_err(),
        "a pattern out of phase passed"
    );
}
