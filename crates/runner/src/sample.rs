//! A look at a target's existing content before a run: a few hundred 4 KiB blocks spread
//! over it, read through the target's own fd, counted as pattern blocks (all zeros or one
//! repeated byte, as holes read) or compressed with LZ4. A reducing array would store such
//! content for less, which flatters the figures.

use dbio_engine::buffer::AlignedBuf;
use dbio_engine::device::OpenTarget;
use dbio_model::{ContentSample, JobSpec, Warning};
use dbio_reduce::block::{classify, CompressSpec, Compressors, Kind};
use std::os::unix::fs::FileExt;

/// Blocks read per target.
pub const SAMPLE_BLOCKS: u64 = 256;
/// Size of a sampled block.
const BLOCK: u64 = 4096;
/// A sample that reduces by this much or more earns a warning.
pub const REDUCIBLE: f64 = 1.5;

/// Samples `t`: up to [`SAMPLE_BLOCKS`] blocks at evenly spaced 4 KiB-aligned offsets. None
/// when the target is smaller than a block or a read fails (the run itself will say why).
pub fn sample(t: &OpenTarget) -> Option<ContentSample> {
    let blocks_in = t.size / BLOCK;
    if blocks_in == 0 {
        return None;
    }
    let n = blocks_in.min(SAMPLE_BLOCKS);
    let mut buf = AlignedBuf::new(BLOCK as usize);
    let lz4 = CompressSpec {
        lz4: true,
        ..CompressSpec::default()
    };
    let mut compressors = Compressors::new(&lz4, BLOCK as usize).ok()?;
    let (mut pattern, mut stored) = (0u64, 0u64);
    for i in 0..n {
        let off = (i * blocks_in / n) * BLOCK;
        let b = buf.as_mut_slice();
        t.file.read_exact_at(b, off).ok()?;
        match classify(b, 0) {
            Kind::Zero | Kind::Pattern(_) => pattern += 1,
            Kind::Data(_) => stored += compressors.sizes(b).lz4,
        }
    }
    let bytes = n * BLOCK;
    Some(ContentSample {
        path: t.path.clone(),
        blocks: n,
        pattern_blocks: pattern,
        reduction: bytes as f64 / stored.max(1) as f64,
    })
}

/// True when a sample looks reducible enough that an array would flatter the figures.
pub fn is_reducible(s: &ContentSample) -> bool {
    s.reduction >= REDUCIBLE
}

/// Samples the targets of a run that reads and whose content dbio did not write in this run
/// (what it prefilled now it knows); warns about each that looks reducible.
pub fn check_targets(
    spec: &JobSpec,
    targets: &[OpenTarget],
    warnings: &mut Vec<Warning>,
) -> Vec<ContentSample> {
    if spec.read_pct == 0 && spec.session.is_none() {
        return Vec::new();
    }
    let samples: Vec<ContentSample> = targets
        .iter()
        .filter(|t| !t.needs_prefill)
        .filter_map(sample)
        .collect();
    warnings.extend(
        samples
            .iter()
            .filter(|s| is_reducible(s))
            .map(crate::warn::reducible_content),
    );
    samples
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_engine::device::{open_target, TargetOptions};

    fn sample_of(content: &[u8]) -> ContentSample {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, content).unwrap();
        let t = open_target(p.to_str().unwrap(), &TargetOptions::default()).unwrap();
        sample(&t).unwrap()
    }

    #[test]
    fn zeros_random_and_half_zero_content() {
        let zeros = sample_of(&vec![0u8; 4 << 20]);
        assert_eq!((zeros.blocks, zeros.pattern_blocks), (256, 256));
        assert!(is_reducible(&zeros));

        let mut random = vec![0u8; 4 << 20];
        crate::data::fill_random(&mut random, &mut fastrand::Rng::with_seed(3));
        let r = sample_of(&random);
        assert_eq!(r.pattern_blocks, 0);
        // LZ4 stores an incompressible 4 KiB block in 4096 + a few bytes: capped at 4096.
        assert_eq!(r.reduction, 1.0);
        assert!(!is_reducible(&r));

        // 512 blocks of which blocks 2, 3, 6, 7, 10, 11, ... are zero; the sample reads
        // every other block (0, 2, 4, ...), so exactly half of what it reads is zero.
        let mut half = random.clone();
        for (i, b) in half.chunks_mut(4096).enumerate() {
            if (i / 2) % 2 == 1 {
                b.fill(0);
            }
        }
        let h = sample_of(&half[..8192 * 256]);
        assert_eq!(h.blocks, 256);
        assert_eq!(h.pattern_blocks, 128);
        assert_eq!(h.reduction, 2.0);
    }
}
