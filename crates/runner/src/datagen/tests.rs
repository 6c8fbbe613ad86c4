//! The generator against independent measures: a hash set counts unique units, lz4_flex and
//! the zstd library (level 1) compress each unique unit on its own.

use super::*;
use std::collections::{HashMap, HashSet};

fn reducible(dedupe: f64, compress: f64, unit: u64) -> Reducibility {
    Reducibility {
        dedupe,
        compress,
        unit,
    }
}

/// Units of `data` and how often each occurs.
fn unit_counts(data: &[u8], unit: usize) -> HashMap<&[u8], u64> {
    let mut m = HashMap::new();
    for u in data.chunks_exact(unit) {
        *m.entry(u).or_insert(0) += 1;
    }
    m
}

/// (LZ4 ratio, zstd -1 ratio) of the unique units compressed one by one.
fn compress_ratios<'a>(units: impl Iterator<Item = &'a [u8]>) -> (f64, f64) {
    let (mut raw, mut lz, mut zs) = (0usize, 0usize, 0usize);
    for u in units {
        raw += u.len();
        lz += lz4_flex::block::compress(u).len();
        zs += zstd::bulk::compress(u, 1).unwrap().len();
    }
    (raw as f64 / lz as f64, raw as f64 / zs as f64)
}

/// Writes of `bs` bytes from `writers` writers, each through its own prepared buffer.
fn stream(r: &Reducibility, writers: u32, writes: usize, bs: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for w in 0..writers {
        let mut d = WriteData::new(&DataKind::Reducible(*r), 77, w);
        let mut buf = vec![0u8; bs];
        d.prepare(&mut buf);
        for i in 0..writes {
            d.fill(&mut buf, (i * bs) as u64);
            out.extend_from_slice(&buf);
        }
    }
    out
}

#[test]
fn dedupe_and_compression_hit_their_ratios_with_lz4_and_zstd() {
    for &(dd, c, unit) in &[
        (3.0, 2.0, 8192),
        (1.0, 1.5, 4096),
        (2.0, 3.0, 16384),
        (1.5, 4.0, 32768),
        (5.0, 8.0, 131072),
        (1.0, 1.0, 8192),
    ] {
        let r = reducible(dd, c, unit);
        let unit = unit as usize;
        let data = stream(&r, 3, 300, 131072);
        let counts = unit_counts(&data, unit);
        let dedupe = (data.len() / unit) as f64 / counts.len() as f64;
        assert!(
            (dedupe / dd - 1.0).abs() < 0.01,
            "dedupe:{dd} unit {unit}: measured {dedupe:.4}"
        );
        let (lz, zs) = compress_ratios(counts.keys().copied());
        eprintln!(
            "dedupe {dd} compress {c} unit {unit}: dedupe {dedupe:.3} lz4 {lz:.3} zstd {zs:.3}"
        );
        assert!(
            (lz / c - 1.0).abs() < 0.05,
            "compress:{c} unit {unit}: lz4 {lz:.3}"
        );
        assert!(
            (zs / c - 1.0).abs() < 0.05,
            "compress:{c} unit {unit}: zstd {zs:.3}"
        );
    }
}

#[test]
fn the_quota_is_exact_at_multiples_of_the_ratio() {
    let mut r = Reducer::new(&reducible(3.0, 2.0, 8192), 1, 1);
    let mut buf = vec![0u8; 8192 * 12];
    r.layout(&mut buf);
    let mut seen = HashSet::new();
    for _ in 0..100 {
        r.stamp(&mut buf);
        for u in buf.chunks(8192) {
            seen.insert(u.to_vec());
        }
    }
    // 1200 units: exactly 400 new ids, and every one of them written.
    assert_eq!(r.counts(), (1200, 400));
    assert_eq!(seen.len(), 400);
}

#[test]
fn duplicates_repeat_recent_units() {
    let mut r = Reducer::new(&reducible(2.0, 1.0, 4096), 5, 1);
    let mut buf = vec![0u8; 4096];
    r.layout(&mut buf);
    let mut first_seen = HashMap::new();
    for n in 0..20_000u64 {
        r.stamp(&mut buf);
        let new = *first_seen.entry(buf.clone()).or_insert(n);
        // Of n units, about n/2 are new: a repeat is one of the last 1024 new ones, made
        // within the last ~2 × 1024 units.
        assert!(
            n - new <= 2 * DEDUPE_WINDOW + 2,
            "unit {n} repeats unit {new}"
        );
    }
    assert_eq!(first_seen.len(), 10_000);
}

#[test]
fn writers_and_seeds_share_no_unit() {
    let r = reducible(4.0, 2.0, 8192);
    let mut all = HashSet::new();
    let mut total = 0;
    for seed in [1u64, 2] {
        for w in 0..3u32 {
            let mut d = WriteData::new(&DataKind::Reducible(r), seed, w);
            let mut buf = vec![0u8; 65536];
            d.prepare(&mut buf);
            let mut mine = HashSet::new();
            for _ in 0..50 {
                d.fill(&mut buf, 0);
                for u in buf.chunks(8192) {
                    mine.insert(u.to_vec());
                }
            }
            total += mine.len();
            all.extend(mine);
        }
    }
    assert_eq!(all.len(), total, "a unit repeated across writers or seeds");
}

#[test]
fn no_chunk_is_one_repeated_byte() {
    let data = stream(&reducible(2.0, 8.0, 16384), 1, 50, 65536);
    for c in data.chunks(CHUNK) {
        assert!(c.iter().any(|&b| b != c[0]));
    }
}

#[test]
fn a_pattern_repeats_in_phase_with_the_offset() {
    let p = [0xDE, 0xAD, 0xBE, 0xEF, 0x01];
    let mut buf = vec![0u8; 4099];
    fill_pattern(&mut buf, &p, 7);
    for (i, &b) in buf.iter().enumerate() {
        assert_eq!(b, p[(7 + i) % 5], "byte {i}");
    }
}

#[test]
fn head_length_shrinks_with_the_ratio() {
    assert_eq!(head_len(1.0), CHUNK);
    assert!(head_len(2.0) < 2048 && head_len(2.0) > 2000);
    assert_eq!(head_len(1000.0), STAMP);
}

#[test]
fn units_of_different_ids_do_not_compress_together_beyond_c() {
    // One writer, no dedupe, 8 KiB units compressing 2:1 each: 2 MiB of them compressed as
    // one stream (zstd -3's window spans hundreds of units) still packs about 2:1. Heads
    // that differed only in their stamps would pack many times further.
    for (c, unit) in [(2.0, 8192u64), (1.0, 4096)] {
        let data = stream(&reducible(1.0, c, unit), 1, 16, 131072);
        let zs = zstd::bulk::compress(&data, 3).unwrap().len();
        let ratio = data.len() as f64 / zs as f64;
        assert!(
            ratio < c * 1.05,
            "compress:{c}: the whole stream packs {ratio:.3}:1"
        );
    }
}
