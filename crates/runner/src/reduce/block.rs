//! What one block is: all zeros, one repeated byte, or data (with its 128-bit fingerprint),
//! and how small LZ4, zstd level 1 and bucket rounding make it.

use xxhash_rust::xxh3::xxh3_128_with_seed;

/// The kind of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Zero,
    /// One byte other than zero, repeated.
    Pattern,
    /// Anything else, with its fingerprint.
    Data(u128),
}

/// Classifies `block`: a block is one repeated byte exactly when it equals itself shifted by
/// one byte (a single memcmp that stops at the first difference).
#[inline]
pub fn classify(block: &[u8], seed: u64) -> Kind {
    let n = block.len();
    if n == 0 || block[1..] == block[..n - 1] {
        if block.first().copied().unwrap_or(0) == 0 {
            Kind::Zero
        } else {
            Kind::Pattern
        }
    } else {
        Kind::Data(xxh3_128_with_seed(block, seed))
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
        assert_eq!(classify(&[0xAB; 4096], 0), Kind::Pattern);
        let mut b = [0u8; 4096];
        b[4095] = 1;
        assert!(matches!(classify(&b, 0), Kind::Data(_)));
        b[4095] = 0;
        b[0] = 1;
        assert!(matches!(classify(&b, 0), Kind::Data(_)));
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
