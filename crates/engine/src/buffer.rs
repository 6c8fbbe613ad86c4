//! Page-aligned memory for O_DIRECT I/O and io_uring registered buffers.

use std::alloc::{alloc_zeroed, dealloc, Layout};

/// Alignment of every I/O buffer: a page, which satisfies any logical block size up to 4 KiB.
pub const BUF_ALIGN: usize = 4096;

/// A zero-initialised, page-aligned byte buffer that never moves (its address is registered with the kernel).
pub struct AlignedBuf {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: AlignedBuf owns its allocation exclusively, like a Box<[u8]>.
unsafe impl Send for AlignedBuf {}

impl AlignedBuf {
    /// Allocates `len` bytes (rounded up to the alignment), zeroed.
    pub fn new(len: usize) -> Self {
        let len = len.max(1).div_ceil(BUF_ALIGN) * BUF_ALIGN;
        let layout = Layout::from_size_align(len, BUF_ALIGN).expect("buffer size overflows");
        // SAFETY: layout has non-zero size; a null return is handled below.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        AlignedBuf { ptr, len }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false: buffers have at least one page.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Raw pointer for handing to the kernel.
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: ptr is valid for len bytes, initialised (zeroed) and owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The bytes, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and &mut self guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: ptr was allocated in new() with exactly this layout.
        unsafe {
            dealloc(
                self.ptr,
                Layout::from_size_align_unchecked(self.len, BUF_ALIGN),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_zeroed() {
        let mut b = AlignedBuf::new(10_000);
        assert_eq!(b.len(), 12_288);
        assert_eq!(b.as_mut_ptr() as usize % BUF_ALIGN, 0);
        assert!(b.as_slice().iter().all(|&x| x == 0));
        b.as_mut_slice()[5] = 7;
        assert_eq!(b.as_slice()[5], 7);
    }
}
