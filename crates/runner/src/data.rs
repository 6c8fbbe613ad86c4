//! The bytes dbio writes: incompressible pseudo-random data in which every 4 KiB block is
//! unique (prefill and every write), or zeros when asked.

use fastrand::Rng;

/// Size of the blocks that are kept unique (the dedupe unit of most arrays, or smaller).
pub const UNIQUE_BLOCK: usize = 4096;

/// A seed for data content that differs in every run (the hasher keys std draws from the OS,
/// mixed with the time), so two runs never write the same blocks even with the same `--seed`.
pub fn run_nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    h.write_u64(now);
    h.write_u32(std::process::id());
    h.finish()
}

/// Fills `buf` with pseudo-random bytes from `rng` (several GB/s per core).
pub fn fill_random(buf: &mut [u8], rng: &mut Rng) {
    let mut chunks = buf.chunks_exact_mut(8);
    for c in &mut chunks {
        c.copy_from_slice(&rng.u64(..).to_le_bytes());
    }
    let tail = chunks.into_remainder();
    let last = rng.u64(..).to_le_bytes();
    tail.copy_from_slice(&last[..tail.len()]);
}

/// A finaliser (splitmix64): a bijection that spreads a counter over all 64 bits.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// XORs every 8-byte lane of `buf` with `key` (a pass at memory speed: whole arrays of 32
/// bytes, which the compiler turns into vector instructions).
#[inline]
pub(crate) fn xor_key(buf: &mut [u8], key: u64) {
    let k = key.to_ne_bytes();
    let wide: [u8; 32] = std::array::from_fn(|i| k[i % 8]);
    let (blocks, rest) = buf.as_chunks_mut::<32>();
    for b in blocks {
        for (x, y) in b.iter_mut().zip(wide) {
            *x ^= y;
        }
    }
    for (x, y) in rest.iter_mut().zip(wide) {
        *x ^= y;
    }
}

/// Makes each write's blocks unique and unrelated at little cost: the write buffer holds
/// random bytes once; every write XORs each 4 KiB block with a fresh 64-bit key, so no block
/// shares a byte string with another write from the same buffer (which a compressor whose
/// window spans several blocks would find), and stamps its first 16 bytes with a counter
/// unique to this worker and run, and its hash.
#[derive(Debug, Clone)]
pub struct Stamper {
    next: u64,
    salt: u64,
}

impl Stamper {
    /// The stamper of worker `worker` in a run seeded with `seed`.
    pub fn new(seed: u64, worker: u32) -> Self {
        Stamper {
            next: (worker as u64) << 44,
            salt: mix(seed ^ 0x6462_696f),
        }
    }

    /// Rekeys and stamps every unique block of `buf` (a block shorter than 4 KiB gets one
    /// stamp).
    #[inline]
    pub fn stamp(&mut self, buf: &mut [u8]) {
        for block in buf.chunks_mut(UNIQUE_BLOCK) {
            let n = self.next;
            self.next += 1;
            let h = mix(n ^ self.salt);
            xor_key(block, mix(h ^ 0x006b_6579));
            let len = block.len().min(16);
            let mut s = [0u8; 16];
            s[..8].copy_from_slice(&n.to_le_bytes());
            s[8..].copy_from_slice(&h.to_le_bytes());
            block[..len].copy_from_slice(&s[..len]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn random_fill_has_no_zero_or_repeated_block_and_does_not_compress() {
        let mut buf = vec![0u8; 8 << 20];
        fill_random(&mut buf, &mut Rng::with_seed(5));
        let mut seen = HashSet::new();
        for b in buf.chunks(UNIQUE_BLOCK) {
            assert!(b.iter().any(|&x| x != b[0]), "a block of one repeated byte");
            assert!(seen.insert(b.to_vec()), "a repeated block");
        }
        // Byte histogram close to uniform: each value within 5 % of 1/256 of the bytes.
        let mut counts = [0u64; 256];
        buf.iter().for_each(|&b| counts[b as usize] += 1);
        let expect = buf.len() as f64 / 256.0;
        assert!(counts
            .iter()
            .all(|&c| (c as f64 - expect).abs() < expect * 0.05));
    }

    #[test]
    fn nonces_differ() {
        assert_ne!(run_nonce(), run_nonce());
    }

    #[test]
    fn stamped_writes_of_one_buffer_are_all_unique_across_workers() {
        let mut base = vec![0u8; 65536];
        fill_random(&mut base, &mut Rng::with_seed(1));
        let mut seen = HashSet::new();
        for w in 0..3 {
            let mut st = Stamper::new(42, w);
            let mut buf = base.clone();
            for _ in 0..100 {
                st.stamp(&mut buf);
                for b in buf.chunks(UNIQUE_BLOCK) {
                    assert!(seen.insert(b.to_vec()));
                }
            }
        }
        assert_eq!(seen.len(), 3 * 100 * 16);
    }

    #[test]
    fn writes_from_one_buffer_do_not_compress_together() {
        // 64 writes of 8 KiB from each of 4 buffers, concatenated (512 KiB, inside zstd -1's
        // window): blocks that shared all but their stamps would pack 4:1 or better.
        let mut st = Stamper::new(7, 0);
        let mut bufs: Vec<Vec<u8>> = (0..4u64)
            .map(|i| {
                let mut b = vec![0u8; 8192];
                fill_random(&mut b, &mut Rng::with_seed(i));
                b
            })
            .collect();
        let mut stream = Vec::new();
        for _ in 0..64 {
            for b in &mut bufs {
                st.stamp(b);
                stream.extend_from_slice(b);
            }
        }
        let zs = zstd::bulk::compress(&stream, 1).unwrap().len();
        let lz = lz4_flex::block::compress(&stream).len();
        assert!(
            zs as f64 >= 0.999 * stream.len() as f64,
            "zstd -1: {zs} bytes"
        );
        assert!(lz as f64 >= 0.999 * stream.len() as f64, "lz4: {lz} bytes");
    }
}
