//! The compression sample's stated interval holds the exact ratio (every unique block
//! compressed) in at least 95 of 100 seeded trials, and the sample is drawn without
//! replacement: fewer blocks than Hoeffding's bound alone would need.

use dbio_model::reduce::ReduceResult;
use dbio_reduce::block::CompressSpec;
use dbio_reduce::{reduce, ReduceOptions};
use std::sync::atomic::AtomicBool;

const UNIQUE: usize = 4000;

/// Block i: a random head of a length that varies from block to block, zeros after it, so
/// blocks compress anywhere from not at all to almost entirely.
fn data() -> Vec<u8> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::with_capacity(UNIQUE * 8192);
    for i in 0..UNIQUE {
        let head = (i * 7919) % 8192 + 1;
        for j in 0..8192 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.push(if j < head { x as u8 } else { 0 });
        }
    }
    out
}

fn estimate(path: &str, sample: Option<u64>, seed: u64) -> ReduceResult {
    let o = ReduceOptions {
        units: vec![8192],
        compress: CompressSpec {
            lz4: true,
            zstd: false,
            buckets: Vec::new(),
        },
        buckets_name: None,
        compress_sample: sample,
        mem: 1 << 30,
        sample: None,
        seed,
        threads: 2,
        buffered: true,
    };
    reduce(
        &[path.to_string()],
        &o,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn the_sampled_interval_holds_the_exact_ratio_in_95_of_100_trials() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("mixed.dat");
    std::fs::write(&f, data()).unwrap();
    let p = f.to_str().unwrap();
    let exact = estimate(p, None, 0).units[0].compression[0].ratio.value;
    let (mut inside, mut differ) = (0, 0);
    for seed in 1..=100 {
        let r = estimate(p, Some(400), seed);
        let c = &r.units[0].compression[0];
        // 400 samples: ε = √(ln(2000) / 800) = 0.0975 by Hoeffding; from 4,000 unique blocks
        // without replacement Serfling's bound reaches it at 364.
        assert_eq!(c.blocks, 364, "seed {seed}");
        assert!(
            (c.bound - 0.0975).abs() < 1e-3,
            "seed {seed}: bound {}",
            c.bound
        );
        if c.ratio.low <= exact && exact <= c.ratio.high {
            inside += 1;
        }
        if (c.ratio.value - exact).abs() > 1e-9 {
            differ += 1;
        }
    }
    eprintln!("exact {exact:.4} inside the interval in {inside} of 100 trials");
    assert!(inside >= 95, "inside in only {inside} of 100 trials");
    assert!(
        differ > 50,
        "the estimates are not samples: {differ} differ from the exact ratio"
    );
}
