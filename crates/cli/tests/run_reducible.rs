//! `--data` read back from the target by the test: reducible data dedupes by R (a hash set
//! of the units, against the count the exact quota gives) and its unique units compress by C
//! with the `lz4` and `zstd -1` command-line tools, each unit compressed on its own; a
//! pattern is that pattern; bad values are one-line errors; existing content that looks
//! reducible earns a warning, and a dbio-prefilled random file does not; `dbio reduce`
//! estimates what `dbio run --data` wrote.

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

const MIB: usize = 1 << 20;

/// Runs a compression tool on `files`; panics with what to install when it is missing.
fn tool(name: &str, args: &[&str], files: &[String]) {
    let st = Command::new(name)
        .args(args)
        .args(files)
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run {name} ({e}): install it (apt-get install lz4 zstd; .ci/run does)")
        });
    assert!(st.success(), "{name} {args:?} failed");
}

/// Compressed bytes of each of `blocks` on its own, by `lz4 -1` and by `zstd -1`, with each
/// tool's frame overhead (measured on an incompressible block of the same size, which both
/// store raw) taken off: what an array compressing the block would store.
fn cli_compressed(dir: &Path, blocks: &[&[u8]]) -> (u64, u64) {
    let work = dir.join("blocks");
    std::fs::create_dir_all(&work).unwrap();
    let len = blocks[0].len();
    let mut files = Vec::new();
    let mut write = |name: String, b: &[u8]| {
        let p = work.join(name);
        std::fs::write(&p, b).unwrap();
        files.push(p.to_str().unwrap().to_string());
    };
    write("calibrate".into(), &pseudo_random(len, 99));
    for (i, b) in blocks.iter().enumerate() {
        write(format!("u{i}"), b);
    }
    tool("lz4", &["-q", "-f", "-1", "-m", "--no-frame-crc"], &files);
    tool("zstd", &["-q", "-f", "-1", "--no-check"], &files);
    let size = |f: &String, ext: &str| std::fs::metadata(format!("{f}.{ext}")).unwrap().len();
    let (lz_frame, zs_frame) = (
        size(&files[0], "lz4") - len as u64,
        size(&files[0], "zst") - len as u64,
    );
    let (mut lz, mut zs) = (0, 0);
    for f in &files[1..] {
        lz += size(f, "lz4") - lz_frame;
        zs += size(f, "zst") - zs_frame;
    }
    std::fs::remove_dir_all(&work).unwrap();
    (lz, zs)
}

/// (units, unique units, LZ4 ratio, zstd ratio) of `data` at `unit`.
fn measure(dir: &Path, data: &[u8], unit: usize) -> (usize, usize, f64, f64) {
    let units: Vec<&[u8]> = data.chunks_exact(unit).collect();
    let mut seen = HashSet::new();
    let unique: Vec<&[u8]> = units.iter().copied().filter(|u| seen.insert(*u)).collect();
    let (lz, zs) = cli_compressed(dir, &unique);
    let raw = (unique.len() * unit) as f64;
    (units.len(), unique.len(), raw / lz as f64, raw / zs as f64)
}

#[track_caller]
fn assert_ratios(what: &str, data: &[u8], dir: &Path, unit: usize, r: f64, c: f64, unique: usize) {
    let (n, u, lz, zs) = measure(dir, data, unit);
    eprintln!(
        "{what}: {n} units, {u} unique (dedupe {:.3}), lz4 {lz:.3}, zstd {zs:.3}",
        n as f64 / u as f64
    );
    assert_eq!(u, unique, "{what}: unique units (the exact quota)");
    assert_near(
        &format!("{what}: dedupe ratio"),
        n as f64 / u as f64,
        r,
        5.0,
    );
    assert_near(&format!("{what}: lz4 ratio"), lz, c, 5.0);
    assert_near(&format!("{what}: zstd -1 ratio"), zs, c, 5.0);
}

/// Unique units the exact quota gives `writers` writers of `units` units each.
fn quota(writers: usize, units: usize, r: f64) -> usize {
    writers * (units as f64 / r).ceil() as usize
}

#[test]
fn threads_writing_reducible_data_hit_both_ratios_by_the_cli_tools() {
    for (r, c, unit, threads) in [(3.0, 2.0, 8, 3), (2.0, 4.0, 16, 2), (4.0, 1.5, 128, 4)] {
        let dir = scratch();
        let f = dir.path().join("t.dat");
        let p = f.to_str().unwrap();
        let data_arg = format!("dedupe:{r},compress:{c},unit:{unit}k");
        let size = 24 * MIB;
        let res = run_ok(
            dir.path(),
            &[
                "--target",
                p,
                "--size",
                "24MiB",
                "--rw",
                "write",
                "--bs",
                "128k",
                "--threads",
                &threads.to_string(),
                "--bytes",
                "24MiB",
                "--data",
                &data_arg,
            ],
        );
        assert_eq!(bytes(&res, "write"), size as u64);
        assert_eq!(res["data"]["kind"], "reducible");
        assert_eq!(num(&res, "/data/dedupe_ratio"), r);
        assert_eq!(num(&res, "/data/compress_ratio"), c);
        assert_eq!(num(&res, "/data/unit_bytes"), (unit * 1024) as f64);
        // The sequential write covered every byte the prefill wrote: the file is the
        // workers' stream, each thread its own slice.
        let data = std::fs::read(&f).unwrap();
        let u = unit * 1024;
        let per_thread = size / threads / u;
        assert_ratios(
            &data_arg,
            &data,
            dir.path(),
            u,
            r,
            c,
            quota(threads, per_thread, r),
        );
    }
}

#[test]
fn a_prefill_is_reducible_data_too() {
    let dir = scratch();
    let f = dir.path().join("t.dat");
    let p = f.to_str().unwrap();
    run_ok(
        dir.path(),
        &[
            "--target",
            p,
            "--size",
            "16MiB",
            "--rw",
            "randread",
            "--bs",
            "32k",
            "--ops",
            "10",
            "--data",
            "dedupe:2.5,compress:3,unit:32k",
        ],
    );
    let data = std::fs::read(&f).unwrap();
    assert_ratios(
        "prefill",
        &data,
        dir.path(),
        32768,
        2.5,
        3.0,
        quota(1, 512, 2.5),
    );
}

#[test]
fn random_writes_of_reducible_data_add_no_unit_the_prefill_had() {
    let dir = scratch();
    let f = dir.path().join("t.dat");
    let p = f.to_str().unwrap();
    let args = [
        "--target",
        p,
        "--size",
        "16MiB",
        "--rw",
        "randwrite",
        "--bs",
        "8k",
        "--ops",
        "3000",
        "--threads",
        "2",
        "--data",
        "dedupe:3,compress:2",
    ];
    let before_run = run_ok(
        dir.path(),
        &[
            "--target",
            p,
            "--size",
            "16MiB",
            "--rw",
            "randread",
            "--ops",
            "1",
            "--data",
            "dedupe:3,compress:2",
            "--bs",
            "8k",
        ],
    );
    assert_eq!(
        before_run["data"]["prefill"][0],
        "prefilled by dbio with reducible data"
    );
    let before = std::fs::read(&f).unwrap();
    run_ok(dir.path(), &args);
    let after = std::fs::read(&f).unwrap();
    let old: HashSet<&[u8]> = before.chunks_exact(8192).collect();
    let changed: Vec<&[u8]> = before
        .chunks_exact(8192)
        .zip(after.chunks_exact(8192))
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b)
        .collect();
    assert!(
        changed.len() > 1000,
        "only {} units rewritten",
        changed.len()
    );
    // Writers' ids are their own: nothing written repeats a unit of the prefill.
    assert!(changed.iter().all(|u| !old.contains(u)));
}

#[test]
fn a_pattern_is_written_exactly_in_phase_with_the_file() {
    for (hex, bytes_) in [
        ("0xDEADBEEF", vec![0xDE, 0xAD, 0xBE, 0xEF]),
        ("0xABCDEF", vec![0xAB, 0xCD, 0xEF]),
    ] {
        let dir = scratch();
        let f = dir.path().join("t.dat");
        let p = f.to_str().unwrap();
        let arg = format!("pattern:{hex}");
        let r = run_ok(
            dir.path(),
            &[
                "--target",
                p,
                "--size",
                "4MiB",
                "--rw",
                "randwrite",
                "--bs",
                "4k",
                "--ops",
                "500",
                "--data",
                &arg,
            ],
        );
        assert_eq!(r["data"]["kind"], "pattern");
        assert!(warning_codes(&r).contains(&"pattern-data".to_string()));
        let data = std::fs::read(&f).unwrap();
        assert_eq!(data.len(), 4 * MIB);
        let bad = data
            .iter()
            .enumerate()
            .position(|(i, &b)| b != bytes_[i % bytes_.len()]);
        assert_eq!(bad, None, "{hex}: first wrong byte");
    }
}

#[test]
fn bad_data_values_are_one_line_errors() {
    let dir = scratch();
    let p = dir.path().join("t.dat");
    let p = p.to_str().unwrap();
    for (v, needle) in [
        ("dedupe:0", "dedupe ratio"),
        ("compress:0.5", "compression ratio"),
        ("dedupe:2,unit:3k", "unit 3k"),
        ("lumpy", "unknown kind"),
        ("pattern:0xABC", "hex digits"),
    ] {
        let ran = dbio_run(dir.path(), &["--target", p, "--data", v, "--ops", "1"]);
        assert_one_line_error(&ran, &[&format!("--data {v}"), needle]);
    }
    let ran = dbio_run(
        dir.path(),
        &[
            "--target", p, "--data", "dedupe:2", "--bs", "4k", "--ops", "1",
        ],
    );
    assert_one_line_error(&ran, &["--data", "unit"]);
    assert!(!Path::new(p).exists(), "a refused run created its target");
    // In a multi-stream profile the refusal names the stream whose block size is at fault.
    let ran = dbio_run(
        dir.path(),
        &[
            "oltp-mix",
            "--target",
            p,
            "--data",
            "dedupe:2,unit:16k",
            "--ops",
            "1",
        ],
    );
    assert_one_line_error(&ran, &["profile oltp-mix, stream ", "--data", "16 KiB"]);
    assert!(!Path::new(p).exists(), "a refused run created its target");
}

fn sampled(r: &Value) -> &Value {
    &r["data"]["sampled"][0]
}

#[test]
fn reducible_existing_content_earns_a_warning_and_a_random_prefill_does_not() {
    let dir = scratch();
    let read = |p: &Path| {
        run_ok(
            dir.path(),
            &[
                "--target",
                p.to_str().unwrap(),
                "--rw",
                "randread",
                "--ops",
                "50",
            ],
        )
    };
    // A zero-filled file dbio did not create: reading needs no --destroy-data.
    let zeros = dir.path().join("zeros.dat");
    std::fs::write(&zeros, vec![0u8; 8 * MIB]).unwrap();
    let r = read(&zeros);
    assert!(warning_codes(&r).contains(&"reducible-content".to_string()));
    assert_eq!(sampled(&r)["blocks"], 256);
    assert_eq!(sampled(&r)["pattern_blocks"], 256);

    // Text compresses well (no block of it is one repeated byte).
    let text: String = (0..250_000)
        .map(|i| format!("row {i:08}: status=ok, amount=0000.00\n"))
        .collect();
    let textf = dir.path().join("text.dat");
    std::fs::write(&textf, &text.as_bytes()[..8 * MIB]).unwrap();
    let r = read(&textf);
    assert!(warning_codes(&r).contains(&"reducible-content".to_string()));
    assert_eq!(sampled(&r)["pattern_blocks"], 0);
    assert!(num(&r, "/data/sampled/0/reduction") > 2.0);

    // A file dbio prefilled with compressible data: sampled on a later run, and reducible.
    let comp = dir.path().join("comp.dat");
    let cp = comp.to_str().unwrap();
    run_ok(
        dir.path(),
        &[
            "--target",
            cp,
            "--size",
            "8MiB",
            "--rw",
            "randread",
            "--ops",
            "1",
            "--data",
            "compress:4",
        ],
    );
    let r = read(&comp);
    assert!(warning_codes(&r).contains(&"reducible-content".to_string()));
    assert_near(
        "sampled reduction",
        num(&r, "/data/sampled/0/reduction"),
        4.0,
        5.0,
    );

    // A file dbio prefilled with random data, sampled on a later run: not reducible.
    let own = dbio_file(dir.path(), "own.dat", "8MiB");
    let r = read(&own);
    assert!(!warning_codes(&r).contains(&"reducible-content".to_string()));
    assert_eq!(sampled(&r)["pattern_blocks"], 0);
    assert_eq!(num(&r, "/data/sampled/0/reduction"), 1.0);
}

/// `dbio reduce FILE --unit UNIT`'s figures for the unit: (dedupe, lz4, zstd -1).
fn reduce_estimate(dir: &Path, file: &Path, unit: &str) -> (f64, f64, f64) {
    let out = dir.join("reduce.json");
    let st = dbio_command()
        .args(["reduce", file.to_str().unwrap(), "--unit", unit, "--json"])
        .arg(&out)
        .output()
        .expect("run dbio reduce");
    assert!(
        st.status.success(),
        "dbio reduce: {}",
        String::from_utf8_lossy(&st.stderr)
    );
    let r: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let u = &r["units"][0];
    let method = |m: &str| {
        u["compression"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["method"] == m)
            .and_then(|c| c["ratio"]["value"].as_f64())
            .unwrap_or_else(|| panic!("no {m} ratio in {u}"))
    };
    (
        u["dedupe"]["value"].as_f64().unwrap(),
        method("lz4"),
        method("zstd-1"),
    )
}

#[test]
fn dbio_reduce_estimates_what_dbio_run_wrote() {
    for (data, r, c) in [("dedupe:3,compress:2", 3.0, 2.0), ("random", 1.0, 1.0)] {
        let dir = scratch();
        let f = dir.path().join("t.dat");
        run_ok(
            dir.path(),
            &[
                "--target",
                f.to_str().unwrap(),
                "--size",
                "32MiB",
                "--rw",
                "write",
                "--bs",
                "128k",
                "--threads",
                "2",
                "--bytes",
                "32MiB",
                "--data",
                data,
            ],
        );
        let (dd, lz, zs) = reduce_estimate(dir.path(), &f, "8k");
        assert_near(&format!("{data}: dedupe by dbio reduce"), dd, r, 5.0);
        assert_near(&format!("{data}: lz4 by dbio reduce"), lz, c, 5.0);
        assert_near(&format!("{data}: zstd by dbio reduce"), zs, c, 5.0);
    }
}
