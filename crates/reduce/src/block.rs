//! What one block is: all zeros, one repeated byte, or data (with its 128-bit fingerprint),
//! and how small LZ4, zstd level 1 and bucket rounding make it.

use xxhash_rust::xxh3::xxh3_128_with_seed;

/// The kind of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Zero,
    /// One byte other than zero, repeated.
    Pattern(u8),
    /// Anything else, with its fingerprint.
    Data(u128),
}

/// Classifies `block`: a block is one repeated byte exactly when it equals itself shifted by
/// one byte (a single memcmp that stops at the first difference).
#[inline]
pub fn classify(block: &[u8], seed: u64) -> Kind {
    let n = block.len();
    if n == 0 || block[1..] == block[..n - 1] {
        match block.first().copied().unwrap_or(0) {
            0 => Kind::Zero,
            b => Kind::Pattern(b),
        }
    } else {
        Kind::Data(xxh3_128_with_seed(block, seed))
    }
}

/// The kind of a block made of `parts` (its consecutive equal-sized parts, classified): zero
/// or one repeated byte exactly when every part is that, else data whose fingerprint is the
/// hash of the parts' fingerprints. Two blocks get the same fingerprint when their parts do,
/// so a larger dedupe unit needs no second hash over its bytes.
pub fn combine(parts: &[Kind], seed: u64) -> Kind {
    debug_assert!(parts.len() <= MAX_PARTS, "{} parts", parts.len());
    match parts.first() {
        Some(&first @ (Kind::Zero | Kind::Pattern(_))) if parts.iter().all(|&p| p == first) => {
            first
        }
        _ => {
            // Zero and pattern parts stand in as 16 copies of their byte; a data part's
            // fingerprint equals one of those with probability 2^-128.
            let mut ids = [0u8; 16 * MAX_PARTS];
            for (id, p) in ids.chunks_exact_mut(16).zip(parts) {
                match *p {
                    Kind::Zero => id.fill(0),
                    Kind::Pattern(b) => id.fill(b),
                    Kind::Data(fp) => id.copy_from_slice(&fp.to_le_bytes()),
                }
            }
            Kind::Data(xxh3_128_with_seed(&ids[..16 * parts.len()], seed))
        }
    }
}

/// The most parts [`combine`] takes: a 128 KiB unit of 1 KiB parts.
pub const MAX_PARTS: usize = 128;

/// How a scan fingerprints: every byte hashed once with `seed`, at the smallest unit `base`.
#[derive(Debug, Clone, Copy)]
pub struct Hashing {
    pub base: usize,
    pub seed: u64,
}

impl Hashing {
    /// Classifies a block as the scan does: directly when it is one base unit long, else
    /// from its base-sized parts.
    pub fn kind(&self, block: &[u8]) -> Kind {
        if block.len() <= self.base {
            return classify(block, self.seed);
        }
        let parts: Vec<Kind> = block
            .chunks(self.base)
            .map(|p| classify(p, self.seed))
            .collect();
        combine(&parts, self.seed)
    }
}

/// Compressed sizes of one block, each at most the block's size (an array stores a block
/// that does not shrink as it is).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Sizes {
    pub lz4: u64,
    pub zstd: u64,
    pub bucket: u64,
}

impl std::ops::AddAssign for Sizes {
    fn add_assign(&mut self, o: Sizes) {
        self.lz4 += o.lz4;
        self.zstd += o.zstd;
        self.bucket += o.bucket;
    }
}

/// Which compressors run, and the bucket sizes LZ4 output is rounded up to.
#[derive(Debug, Clone, Default)]
pub struct CompressSpec {
    pub lz4: bool,
    pub zstd: bool,
    /// Ascending bucket sizes; empty for no rounding.
    pub buckets: Vec<u64>,
}

impl CompressSpec {
    /// True when no compressor runs.
    pub fn none(&self) -> bool {
        !self.lz4 && !self.zstd
    }
}

/// A worker's compressors with their reused output buffers.
pub struct Compressors {
    spec: CompressSpec,
    lz4_out: Vec<u8>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
    zstd_out: Vec<u8>,
}

impl Compressors {
    /// Compressors for blocks of up to `max_unit` bytes.
    pub fn new(spec: &CompressSpec, max_unit: usize) -> std::io::Result<Self> {
        Ok(Compressors {
            spec: spec.clone(),
            lz4_out: vec![0; lz4_flex::block::get_maximum_output_size(max_unit)],
            zstd: if spec.zstd {
                Some(zstd::bulk::Compressor::new(1)?)
            } else {
                None
            },
            zstd_out: Vec::with_capacity(zstd::zstd_safe::compress_bound(max_unit)),
        })
    }

    /// The sizes of `block` compressed on its own.
    pub fn sizes(&mut self, block: &[u8]) -> Sizes {
        let n = block.len() as u64;
        let mut s = Sizes::default();
        if self.spec.lz4 {
            let c = lz4_flex::block::compress_into(block, &mut self.lz4_out)
                .map_or(n, |c| c as u64)
                .min(n);
            s.lz4 = c;
            s.bucket = if self.spec.buckets.is_empty() {
                c
            } else {
                dbio_analyze::reduce::bucket_size(c, &self.spec.buckets, n)
            };
        }
        if let Some(z) = &mut self.zstd {
            self.zstd_out.clear();
            s.zstd = z
                .compress_to_buffer(block, &mut self.zstd_out)
                .map_or(n, |c| c as u64)
                .min(n);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(classify(&[0; 4096], 0), Kind::Zero);
        assert_eq!(classify(&[0xAB; 4096], 0), Kind::Pattern(0xAB));
        let mut b = [0u8; 4096];
        b[4095] = 1;
        assert!(matches!(classify(&b, 0), Kind::Data(_)));
        b[4095] = 0;
        b[0] = 1;
        assert!(matches!(classify(&b, 0), Kind::Data(_)));
    }

    #[test]
    fn a_combined_kind_is_what_the_whole_block_is() {
        let mut x = 7u64;
        let mut random = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        };
        let data: Vec<u8> = (0..4096).map(|_| random()).collect();
        let parts = |b: &[u8]| -> Vec<Kind> { b.chunks(1024).map(|p| classify(p, 3)).collect() };
        // Zeros and one repeated byte, whole, are what direct classification says.
        for b in [vec![0u8; 4096], vec![0x5Au8; 4096]] {
            assert_eq!(combine(&parts(&b), 3), classify(&b, 3));
        }
        // Zeros next to a pattern, or two patterns, are data, as the whole block is.
        let mut mixed = vec![0u8; 4096];
        mixed[2048..].fill(9);
        assert!(matches!(classify(&mixed, 3), Kind::Data(_)));
        assert!(matches!(combine(&parts(&mixed), 3), Kind::Data(_)));
        let mut two = vec![1u8; 4096];
        two[1024..].fill(2);
        assert!(matches!(combine(&parts(&two), 3), Kind::Data(_)));
        // A change in any part changes the fingerprint.
        let fp = combine(&parts(&data), 3);
        for at in [0, 1500, 4095] {
            let mut d = data.clone();
            d[at] ^= 1;
            assert_ne!(combine(&parts(&d), 3), fp, "change at {at}");
        }
        // Parts in another order are another block.
        let mut swapped = data[1024..].to_vec();
        swapped.extend_from_slice(&data[..1024]);
        assert_ne!(combine(&parts(&swapped), 3), fp);
        // The seed varies the fingerprint, as it does a direct one.
        assert_ne!(combine(&parts(&data), 4), fp);
        let h = Hashing {
            base: 1024,
            seed: 3,
        };
        assert_eq!(h.kind(&data), fp);
        assert_eq!(h.kind(&data[..1024]), classify(&data[..1024], 3));
    }

    #[test]
    fn incompressible_blocks_count_as_their_size() {
        let mut x = 1u64;
        let b: Vec<u8> = (0..8192)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let spec = CompressSpec {
            lz4: true,
            zstd: true,
            buckets: vec![1024, 2048, 4096],
        };
        let mut c = Compressors::new(&spec, 8192).unwrap();
        let s = c.sizes(&b);
        assert_eq!((s.lz4, s.zstd, s.bucket), (8192, 8192, 8192));
        let s = c.sizes(&[7u8; 8192]);
        assert!(s.lz4 < 100 && s.zstd < 100 && s.bucket == 1024, "{s:?}");
    }
}
