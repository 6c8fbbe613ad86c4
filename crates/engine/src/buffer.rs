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

/// The buffers of an engine's slots. Each slot has a read half and a write half of
/// `slot_len` bytes: writes always come from the write half, so data read from a target
/// never goes back out in a write.
pub struct SlotBuffers {
    mem: AlignedBuf,
    slot_len: usize,
}

impl SlotBuffers {
    /// Buffers for `slots` slots of `slot_len` bytes per half.
    pub fn new(slots: u32, slot_len: usize) -> Self {
        SlotBuffers {
            mem: AlignedBuf::new(2 * slot_len * slots as usize),
            slot_len,
        }
    }

    /// Offset in the memory of the half that an operation of `write` direction uses.
    #[inline]
    pub fn start(&self, slot: u32, write: bool) -> usize {
        (2 * slot as usize + usize::from(write)) * self.slot_len
    }

    /// The half of `slot` for reads (`write` false) or writes, `slot_len` bytes.
    #[inline]
    pub fn half(&mut self, slot: u32, write: bool) -> &mut [u8] {
        let start = self.start(slot, write);
        &mut self.mem.as_mut_slice()[start..start + self.slot_len]
    }

    /// The memory, for registering with the kernel.
    pub fn mem(&mut self) -> &mut AlignedBuf {
        &mut self.mem
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

    #[test]
    fn slot_halves_do_not_overlap() {
        let mut s = SlotBuffers::new(3, 8192);
        s.half(1, true).fill(0xAB);
        assert!(
            s.half(1, false).iter().all(|&x| x == 0),
            "a read half was touched by its write half"
        );
        assert!(s.half(2, false).iter().all(|&x| x == 0));
        assert_eq!(s.start(1, true), 3 * 8192);
        assert_eq!(s.half(2, true).len(), 8192);
    }
}
