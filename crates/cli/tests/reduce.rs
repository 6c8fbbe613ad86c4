//! `dbio reduce` end to end, on data sets whose reducibility the tests build: pattern share
//! and dedupe ratio by construction (and by comparing the blocks' bytes), compression
//! against the `lz4` and `zstd` command-line tools on the same unique blocks, the sampled
//! mode's interval against the known ratio in 100 seeded trials, and bad input.

mod common;

use common::*;
use serde_json::Value;
use std::collections::HashSet;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::Command;

const K8: usize = 8192;

/// What one `dbio reduce` did: exit status, stderr, the JSON result.
struct Reduced {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    json: Option<Value>,
}

fn reduce(dir: &Path, args: &[&str]) -> Reduced {
    let json = dir.join("reduce.json");
    let _ = std::fs::remove_file(&json);
    let out = dbio_command()
        .arg("reduce")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .expect("run dbio");
    Reduced {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into(),
        stderr: String::from_utf8_lossy(&out.stderr).into(),
        json: std::fs::read(&json)
            .ok()
            .map(|b| serde_json::from_slice(&b).expect("valid JSON")),
    }
}

fn unit(r: &Value, size: u64) -> &Value {
    r["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["unit"] == size)
        .unwrap_or_else(|| panic!("no unit {size} in {r}"))
}

fn compression(u: &Value, method: &str) -> f64 {
    u["compression"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["method"] == method)
        .unwrap_or_else(|| panic!("no {method} in {u}"))["ratio"]["value"]
        .as_f64()
        .unwrap()
}

/// A unique 8 KiB block of known kind: 0 random, 1 half random then zeros, 2 words from a
/// small vocabulary (compresses differently with LZ4 and zstd), 3 a quarter random then
/// a repeated phrase.
fn unique_block(i: usize) -> Vec<u8> {
    let r = pseudo_random(K8, 1000 + 2 * i as u64); // pseudo_random ignores bit 0 of the seed
    match i % 4 {
        0 => r,
        1 => {
            let mut b = r;
            b[K8 / 2..].fill(0);
            b
        }
        2 => {
            const WORDS: [&str; 16] = [
                "select ",
                "from ",
                "where ",
                "order ",
                "customer ",
                "invoice ",
                "amount ",
                "12.50 ",
                "2024-01-",
                "NULL ",
                "and ",
                "join ",
                "id ",
                "= ",
                "42 ",
                "'open' ",
            ];
            let mut b = Vec::with_capacity(K8);
            for &x in r.iter() {
                if b.len() >= K8 {
                    break;
                }
                b.extend_from_slice(WORDS[(x % 16) as usize].as_bytes());
            }
            b.truncate(K8);
            b
        }
        _ => {
            let mut b = r;
            for (k, x) in b[K8 / 4..].iter_mut().enumerate() {
                *x = b"row data 0001 "[k % 14];
            }
            b
        }
    }
}

/// The known data set: `zeros` zero blocks, `patterns` blocks of 0xAB, and unique block i
/// written 1 + i % 4 times, in a fixed shuffled order. Returns the bytes and the unique blocks.
fn data_set(zeros: usize, patterns: usize, uniques: usize) -> (Vec<u8>, Vec<Vec<u8>>) {
    let blocks: Vec<Vec<u8>> = (0..uniques).map(unique_block).collect();
    let mut order: Vec<Option<usize>> = Vec::new();
    order.extend(std::iter::repeat_n(None, zeros + patterns));
    for i in 0..uniques {
        order.extend(std::iter::repeat_n(Some(i), 1 + i % 4));
    }
    let mut x = 0x1234_5678u64;
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let mut data = Vec::with_capacity(order.len() * K8);
    let mut pattern_left = patterns;
    for o in order {
        match o {
            Some(i) => data.extend_from_slice(&blocks[i]),
            None if pattern_left > 0 => {
                pattern_left -= 1;
                data.extend(std::iter::repeat_n(0xABu8, K8));
            }
            None => data.extend(std::iter::repeat_n(0u8, K8)),
        }
    }
    (data, blocks)
}

/// Pattern, used and unique block counts of `data` at `unit`, by comparing bytes (a tail is
/// padded with zeros as an array stores it).
fn count_by_bytes(data: &[u8], unit: usize) -> (u64, u64, u64) {
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let (mut pattern, mut used) = (0, 0);
    for b in data.chunks(unit) {
        let mut b = b.to_vec();
        b.resize(unit, 0);
        if b.iter().all(|&x| x == b[0]) {
            pattern += 1;
        } else {
            used += 1;
            seen.insert(b);
        }
    }
    (pattern, used, seen.len() as u64)
}

#[test]
fn exact_mode_reproduces_pattern_share_and_dedupe() {
    let dir = scratch();
    let (zeros, patterns, uniques) = (300, 100, 400);
    let (data, _) = data_set(zeros, patterns, uniques);
    let f = dir.path().join("known.dat");
    std::fs::write(&f, &data).unwrap();
    let r = reduce(
        dir.path(),
        &[f.to_str().unwrap(), "--unit", "4k,8k,16k", "-q"],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = r.json.unwrap();
    assert_valid(&schema("reduce-result.v1.json"), "reduce result", &r);
    assert_eq!(r["mode"]["kind"], "exact");
    // By construction at 8 KiB: copies 1 + i % 4 of 400 uniques = 100 · (1+2+3+4) = 1,000.
    let used = 1000u64;
    let blocks = used + zeros as u64 + patterns as u64;
    let u8k = unit(&r, 8192);
    assert_eq!(u8k["blocks"], blocks);
    assert_eq!(u8k["zero_blocks"], zeros as u64);
    assert_eq!(u8k["pattern_blocks"], patterns as u64);
    assert_eq!(u8k["used_blocks"], used);
    assert_eq!(u8k["unique_blocks"].as_f64().unwrap(), uniques as f64);
    assert_eq!(u8k["pattern_share"].as_f64().unwrap(), 400.0 / 1400.0);
    assert_eq!(u8k["dedupe"]["value"].as_f64().unwrap(), 2.5);
    assert_eq!(u8k["dedupe"]["low"], u8k["dedupe"]["high"]);
    // At 4 KiB and 16 KiB the oracle compares the blocks' bytes.
    for size in [4096usize, 16384] {
        let (pattern, used, unique) = count_by_bytes(&data, size);
        let u = unit(&r, size as u64);
        let got_pattern =
            u["zero_blocks"].as_u64().unwrap() + u["pattern_blocks"].as_u64().unwrap();
        assert_eq!(
            (got_pattern, u["used_blocks"].as_u64().unwrap()),
            (pattern, used),
            "unit {size}"
        );
        assert_eq!(
            u["unique_blocks"].as_f64().unwrap(),
            unique as f64,
            "unit {size}"
        );
        assert_eq!(
            u["dedupe"]["value"].as_f64().unwrap(),
            used as f64 / unique as f64
        );
    }
    assert_eq!(r["bytes_read"], data.len() as u64);
    assert!(r["skipped"].as_array().unwrap().is_empty());
}

/// Compressed size of each file by a command-line tool, read from the files it writes.
fn tool_sizes(dir: &Path, files: &[String], tool: &str, args: &[&str], ext: &str) -> Vec<u64> {
    let ok = Command::new(tool)
        .args(args)
        .args(files)
        .current_dir(dir)
        .status()
        .unwrap_or_else(|e| panic!("{tool} not found ({e}): apt-get install {tool}"));
    assert!(ok.success(), "{tool} failed");
    files
        .iter()
        .map(|f| {
            std::fs::metadata(dir.join(format!("{f}{ext}")))
                .unwrap()
                .len()
        })
        .collect()
}

#[test]
fn compression_within_one_percent_of_the_lz4_and_zstd_tools() {
    let dir = scratch();
    let (data, uniques) = data_set(50, 0, 200);
    let f = dir.path().join("known.dat");
    std::fs::write(&f, &data).unwrap();
    let blocks = dir.path().join("blocks");
    std::fs::create_dir(&blocks).unwrap();
    let names: Vec<String> = (0..uniques.len()).map(|i| format!("b{i}")).collect();
    for (n, b) in names.iter().zip(&uniques) {
        std::fs::write(blocks.join(n), b).unwrap();
    }
    // An array stores a block that does not shrink as it is: cap each at 8 KiB. The tools'
    // frame headers (lz4 19 bytes, zstd about 13) stay in: under 0.5 % of a halved block.
    let raw = (uniques.len() * K8) as f64;
    let ratio = |sizes: Vec<u64>| raw / sizes.iter().map(|&s| s.min(K8 as u64)).sum::<u64>() as f64;
    let lz4 = ratio(tool_sizes(
        &blocks,
        &names,
        "lz4",
        &["-1", "-q", "-m"],
        ".lz4",
    ));
    let zstd = ratio(tool_sizes(&blocks, &names, "zstd", &["-1", "-q"], ".zst"));
    let r = reduce(
        dir.path(),
        &[
            f.to_str().unwrap(),
            "--unit",
            "8k",
            "--buckets",
            "1k..8k",
            "-q",
        ],
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = r.json.unwrap();
    let u = unit(&r, 8192);
    eprintln!(
        "lz4: dbio {:.4}, tool {lz4:.4}; zstd: dbio {:.4}, tool {zstd:.4}",
        compression(u, "lz4"),
        compression(u, "zstd-1")
    );
    assert_near(
        "LZ4 ratio against the lz4 tool",
        compression(u, "lz4"),
        lz4,
        1.0,
    );
    assert_near(
        "zstd ratio against the zstd tool",
        compression(u, "zstd-1"),
        zstd,
        1.0,
    );
    // Buckets of 1 KiB: each LZ4 size rounds up, so the ratio drops but stays above 1.
    let b = compression(u, "lz4+buckets:1k..8k");
    assert!(b < compression(u, "lz4") && b > 1.0, "bucketed {b}");
    // The total is 1/(1 − pattern) × dedupe × the first compression listed.
    let want = 1.0 / (1.0 - 50.0 / 550.0) * 2.5 * b;
    assert_near("total", u["total"]["value"].as_f64().unwrap(), want, 1e-9);
}

#[test]
fn sampled_interval_holds_the_true_ratio_in_95_of_100_trials() {
    let dir = scratch();
    // 4,000 unique 4 KiB blocks written 1..=4 times (i % 4 + 1): used 10,000, ratio 2.5.
    let mut data = Vec::new();
    for i in 0..4000usize {
        let b = pseudo_random(4096, 77 + 2 * i as u64);
        for _ in 0..=(i % 4) {
            data.extend_from_slice(&b);
        }
    }
    let f = dir.path().join("dup.dat");
    std::fs::write(&f, &data).unwrap();
    let (mut inside, mut off_exact) = (0, 0);
    for seed in 0..100u64 {
        let s = seed.to_string();
        let r = reduce(
            dir.path(),
            &[
                f.to_str().unwrap(),
                "--unit",
                "4k",
                "--sample",
                "8",
                "--seed",
                &s,
                "--compress",
                "none",
                "-q",
            ],
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let r = r.json.unwrap();
        assert_eq!(r["mode"]["modulus"], 8);
        let d = &unit(&r, 4096)["dedupe"];
        let (v, lo, hi) = (
            d["value"].as_f64().unwrap(),
            d["low"].as_f64().unwrap(),
            d["high"].as_f64().unwrap(),
        );
        // About 500 fingerprints kept: 99 % half-width ≈ 2.58/√500 = 11.5 %; not wider.
        assert!(
            hi / lo < 1.35,
            "interval {lo}..{hi} is wider than the sample allows"
        );
        if lo <= 2.5 && 2.5 <= hi {
            inside += 1;
        }
        if v != 2.5 {
            off_exact += 1;
        }
    }
    eprintln!("true ratio inside the interval in {inside} of 100 trials; {off_exact} estimates differ from it");
    assert!(
        inside >= 95,
        "true ratio inside the stated interval in only {inside} of 100 trials"
    );
    assert!(
        off_exact > 50,
        "the sampled estimates are not sampled: {off_exact} differ from 2.5"
    );
}

#[test]
fn sampled_compression_bound_holds_the_exact_ratio() {
    let dir = scratch();
    let (data, _) = data_set(0, 0, 2000);
    let f = dir.path().join("c.dat");
    std::fs::write(&f, &data).unwrap();
    let p = f.to_str().unwrap();
    let exact = reduce(dir.path(), &[p, "--unit", "8k", "--compress", "lz4", "-q"])
        .json
        .unwrap();
    let want = compression(unit(&exact, 8192), "lz4");
    let r = reduce(
        dir.path(),
        &[
            p,
            "--unit",
            "8k",
            "--compress",
            "lz4",
            "--compress-sample",
            "300",
            "-q",
        ],
    )
    .json
    .unwrap();
    let c = &unit(&r, 8192)["compression"][0];
    // 300 samples give ε = √(ln(2000) / 600) = 0.11255 by Hoeffding's bound; drawn without
    // replacement from 2,000 unique blocks, Serfling's √(ln(2000) · (1 − (m − 1)/2000) / (2m))
    // reaches it at m = 261.
    assert_eq!(c["blocks"], 261);
    assert_near("bound", c["bound"].as_f64().unwrap(), 0.11255, 0.01);
    let (lo, hi) = (
        c["ratio"]["low"].as_f64().unwrap(),
        c["ratio"]["high"].as_f64().unwrap(),
    );
    assert!(lo <= want && want <= hi, "exact {want} outside {lo}..{hi}");
}

#[test]
fn too_little_memory_chooses_sampled_mode_and_says_so() {
    let dir = scratch();
    let f = dir.path().join("r.dat");
    std::fs::write(&f, pseudo_random(8 << 20, 5)).unwrap();
    // 1,024 blocks of 8 KiB need up to 32 KiB in exact mode; allow 8 KiB: modulus 4.
    let out = dbio_command()
        .args([
            "reduce",
            f.to_str().unwrap(),
            "--unit",
            "8k",
            "--mem",
            "8k",
            "--compress",
            "none",
            "--json",
            "-",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["mode"]["kind"], "sampled");
    assert_eq!(r["mode"]["modulus"], 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sampled mode") && err.contains("--mem 8 KiB"),
        "{err}"
    );
}

#[test]
fn missing_and_unreadable_paths_are_reported_and_the_rest_estimated() {
    let dir = scratch();
    let good = dir.path().join("good.dat");
    std::fs::write(&good, vec![0u8; 64 * 1024]).unwrap();
    let missing = dir.path().join("missing.dat");
    let not_dir = good.join("inside"); // a path through a file: ENOTDIR, even for root
    let r = reduce(
        dir.path(),
        &[
            missing.to_str().unwrap(),
            not_dir.to_str().unwrap(),
            good.to_str().unwrap(),
            "--unit",
            "8k",
        ],
    );
    assert_eq!(
        r.code,
        Some(1),
        "a skipped path must give exit 1: {}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("{}: No such file or directory", missing.display())),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("{}: Not a directory", not_dir.display())),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("panicked"));
    let j = r.json.unwrap();
    assert_valid(&schema("reduce-result.v1.json"), "reduce result", &j);
    assert_eq!(j["skipped"].as_array().unwrap().len(), 2);
    assert_eq!(j["bytes_read"], 65536);
    assert_eq!(unit(&j, 8192)["zero_blocks"], 8);
    assert!(r.stdout.contains("2 path(s) skipped"), "{}", r.stdout);
}

#[test]
fn a_file_without_read_permission_is_skipped() {
    // Root reads any file whatever its mode, so the reading runs as an unprivileged user
    // (root's part is only to set the scene). The files live in a world-traversable
    // directory under the system's temp dir, and the dbio binary must be reachable by that
    // user (the build tree's directories are mode 755 on a clone made with umask 022).
    let test = "a_file_without_read_permission_is_skipped";
    if running_as_root() && require_tool(test, "setpriv").is_none() {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let dir = shared_scratch("dbio-it-perm-");
    let d = dir.path();
    let probe = dbio_unprivileged(d, &["--version"]);
    if !probe.status.success() {
        skip(
            test,
            &format!(
                "{DBIO} cannot be run as an unprivileged user (uid 65534): {}",
                String::from_utf8_lossy(&probe.stderr).trim()
            ),
        );
        return;
    }
    let secret = d.join("secret.dat");
    std::fs::write(&secret, [1u8; 4096]).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let open = d.join("open.dat");
    std::fs::write(&open, pseudo_random(64 * 1024, 5)).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o644)).unwrap();
    let json = d.join("reduce.json");
    let run = |paths: &[&Path]| {
        let _ = std::fs::remove_file(&json);
        let mut args = vec!["reduce"];
        args.extend(paths.iter().map(|p| p.to_str().unwrap()));
        args.extend([
            "--unit",
            "8k",
            "--no-store",
            "--json",
            json.to_str().unwrap(),
        ]);
        let out = dbio_unprivileged(d, &args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let j: Option<Value> = std::fs::read(&json)
            .ok()
            .map(|b| serde_json::from_slice(&b).expect("valid JSON"));
        (out.status.code(), stderr, j)
    };
    // The control: the same user reads the readable file, so a refusal below is the mode's.
    let (code, stderr, j) = run(&[&open]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(j.unwrap()["bytes_read"], 65536);
    let (code, stderr, j) = run(&[&secret, &open]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("{}: Permission denied", secret.display())),
        "{stderr}"
    );
    let j = j.expect("the rest is still estimated and written");
    let skipped = j["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(skipped[0].to_string().contains("secret.dat"), "{skipped:?}");
    assert_eq!(j["bytes_read"], 65536, "only the readable file was read");
}

#[test]
fn a_tree_is_read_without_following_symlinks_out_of_it() {
    let dir = scratch();
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    std::fs::write(tree.join("a.dat"), pseudo_random(32 * 1024, 1)).unwrap();
    std::fs::write(tree.join("sub/b.dat"), pseudo_random(32 * 1024, 1)).unwrap(); // a copy of a
    let outside = dir.path().join("outside.dat");
    std::fs::write(&outside, pseudo_random(1 << 20, 9)).unwrap();
    std::os::unix::fs::symlink(&outside, tree.join("link-out")).unwrap();
    std::os::unix::fs::symlink(tree.join("a.dat"), tree.join("sub/link-in")).unwrap();
    std::fs::hard_link(tree.join("a.dat"), tree.join("sub/hard.dat")).unwrap();
    // The tree given twice, with a hard link in it: every file is still read once.
    let t = tree.to_str().unwrap();
    let r = reduce(dir.path(), &[t, t, "--unit", "8k"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let j = r.json.unwrap();
    assert_eq!(
        j["bytes_read"],
        64 * 1024,
        "only the two files inside the tree are read, once each"
    );
    assert_eq!(j["sources"].as_array().unwrap().len(), 2);
    assert_eq!(unit(&j, 8192)["dedupe"]["value"].as_f64().unwrap(), 2.0);
    let notes = j["notes"].to_string();
    assert!(
        notes.contains("link-out") && notes.contains("not followed"),
        "{notes}"
    );
    assert!(notes.contains("hard.dat: the same file"), "{notes}");
    assert!(r.stdout.contains("link-out"), "{}", r.stdout);
}

#[test]
fn a_block_device_is_read_without_destroy_data_and_its_zero_blocks_are_thin_savings() {
    // 1 MiB of data then 3 MiB of zeros.
    let mut contents = pseudo_random(1 << 20, 3);
    contents.resize(4 << 20, 0);
    let Some(dev) = LoopDev::attach("reduce block device", &contents) else {
        return;
    };
    let dir = scratch();
    let r = reduce(dir.path(), &[&dev.dev, "--unit", "8k", "-q"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let j = r.json.unwrap();
    assert_eq!(j["sources"][0]["kind"], "device");
    assert_eq!(j["bytes_read"], 4 << 20);
    assert_eq!(j["thin"]["share"].as_f64().unwrap(), 0.75);
    assert_eq!(unit(&j, 8192)["zero_blocks"], 384);
    assert_eq!(
        std::fs::read(&dev.backing).unwrap(),
        contents,
        "the device was changed"
    );
}

#[test]
fn a_device_held_by_another_program_is_reported_busy_and_the_rest_estimated() {
    let Some(dev) = LoopDev::attach("reduce busy device", &pseudo_random(1 << 20, 4)) else {
        return;
    };
    // This test process holds the device exclusively, as a mount or a volume manager would.
    let _held = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_EXCL)
        .open(&dev.dev)
        .unwrap();
    let dir = scratch();
    let good = dir.path().join("good.dat");
    std::fs::write(&good, vec![0u8; 64 * 1024]).unwrap();
    let r = reduce(
        dir.path(),
        &[&dev.dev, good.to_str().unwrap(), "--unit", "8k"],
    );
    assert_eq!(
        r.code,
        Some(1),
        "a busy device must give exit 1: {}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains(&format!("{}: Device or resource busy", dev.dev))
            && r.stderr.contains("mounted or held by another program"),
        "{}",
        r.stderr
    );
    let j = r.json.unwrap();
    assert_eq!(j["skipped"].as_array().unwrap().len(), 1);
    assert_eq!(j["bytes_read"], 65536, "only the file was read");
}

#[test]
fn sparse_file_thin_savings_from_allocated_size() {
    let dir = scratch();
    let f = dir.path().join("sparse.dat");
    let file = std::fs::File::create(&f).unwrap();
    use std::os::unix::fs::FileExt;
    file.write_all_at(&pseudo_random(1 << 20, 4), 0).unwrap();
    file.set_len(4 << 20).unwrap();
    drop(file);
    let r = reduce(dir.path(), &[f.to_str().unwrap(), "--unit", "8k", "-q"])
        .json
        .unwrap();
    let allocated = r["sources"][0]["allocated_bytes"].as_u64().unwrap();
    let want = (4 << 20) - allocated;
    assert_eq!(r["thin"]["saved_bytes"].as_u64().unwrap(), want);
    assert!(want >= 3 << 20, "the 3 MiB hole was allocated: {allocated}");
}

/// Estimating a database's files leaves their access times as they were, where a plain read
/// on the same file system moves them (relatime: an access time older than a day is updated).
#[test]
fn reading_a_file_leaves_its_access_time_alone() {
    use std::os::unix::fs::MetadataExt;
    let test = "reading_a_file_leaves_its_access_time_alone";
    let dir = scratch();
    let f = dir.path().join("table.dat");
    std::fs::write(&f, pseudo_random(1 << 20, 5)).unwrap();
    let atime = || std::fs::metadata(&f).unwrap().atime();
    let age = || {
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3 * 86_400);
        let times = std::fs::FileTimes::new().set_accessed(old);
        std::fs::File::options()
            .write(true)
            .open(&f)
            .unwrap()
            .set_times(times)
            .unwrap();
        atime()
    };
    let before = age();
    std::fs::read(&f).unwrap();
    if atime() == before {
        skip(
            test,
            "a file system that updates access times (this one is mounted noatime)",
        );
        return;
    }
    let before = age();
    let r = reduce(dir.path(), &[f.to_str().unwrap(), "-q"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(atime(), before, "dbio reduce moved the access time");
}

#[test]
fn bad_flags_get_one_line_errors() {
    let dir = scratch();
    let f = dir.path().join("x");
    std::fs::write(&f, [1u8; 10]).unwrap();
    let p = f.to_str().unwrap();
    for (args, needles) in [
        (vec!["--unit", "3k"], vec!["--unit 3k", "power of two"]),
        (vec!["--unit", "256k"], vec!["--unit 256k"]),
        (vec!["--compress", "gzip"], vec!["--compress gzip", "lz4"]),
        (vec!["--buckets", "4k..1k"], vec!["--buckets 4k..1k"]),
        (
            vec!["--buckets", "xtremio", "--compress", "zstd"],
            vec!["--buckets", "add lz4"],
        ),
        (vec!["--mem", "lots"], vec!["--mem lots"]),
        (vec!["--sample", "0"], vec!["--sample 0"]),
        (vec!["--compress-sample", "0"], vec!["--compress-sample 0"]),
        (vec!["--threads", "0"], vec!["--threads 0"]),
        (vec!["--sample", "1"], vec!["--sample 1", "2 or more"]),
        (vec!["--threads", "99999"], vec!["--threads 99999", "1024"]),
    ] {
        let mut all = vec![p];
        all.extend(args.iter());
        let r = reduce(dir.path(), &all);
        let ran = Ran {
            code: r.code,
            stdout: r.stdout.into_bytes(),
            stderr: r.stderr,
            json: r.json,
            args: all.iter().map(|s| s.to_string()).collect(),
        };
        assert_one_line_error(&ran, &needles);
    }
}

#[test]
fn a_named_pipe_on_the_command_line_is_skipped_with_exit_1() {
    let dir = scratch();
    let fifo = make_fifo(dir.path(), "fifo1");
    let good = dir.path().join("good.bin");
    std::fs::write(&good, vec![7u8; 64 * 1024]).unwrap();
    let r = reduce(
        dir.path(),
        &[fifo.to_str().unwrap(), good.to_str().unwrap(), "-q"],
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("not a regular file or block device"),
        "{}",
        r.stderr
    );
    // The rest is still estimated.
    let j = r.json.unwrap();
    assert_eq!(unit(&j, 8192)["blocks"], 8);
}
