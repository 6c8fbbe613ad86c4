//! A compact set of 128-bit fingerprints: open addressing with linear probing over a flat
//! array of u128 (0 marks an empty slot), grown by half when 80 % full, so it holds
//! 16 / 0.53..0.8 = 20..30 bytes per fingerprint. Keys are already hashes: no rehashing.

/// A set of fingerprints.
pub struct FpTable {
    slots: Vec<u128>,
    len: usize,
}

/// Slots of a new table.
const INITIAL: usize = 64;

impl Default for FpTable {
    fn default() -> Self {
        FpTable {
            slots: vec![0; INITIAL],
            len: 0,
        }
    }
}

impl FpTable {
    /// Adds `fp`; true when it was not there before.
    pub fn insert(&mut self, fp: u128) -> bool {
        let fp = fp.max(1); // 0 marks an empty slot; fingerprint 0 shares slot value 1
        if (self.len + 1) * 5 > self.slots.len() * 4 {
            self.grow();
        }
        if place(&mut self.slots, fp) {
            self.len += 1;
            true
        } else {
            false
        }
    }

    /// Fingerprints held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no fingerprint is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of memory the slots take.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * std::mem::size_of::<u128>()) as u64
    }

    fn grow(&mut self) {
        let mut bigger = vec![0u128; self.slots.len() + self.slots.len() / 2];
        for &fp in self.slots.iter().filter(|&&x| x != 0) {
            place(&mut bigger, fp);
        }
        self.slots = bigger;
    }
}

/// Puts `fp` into `slots` starting at its home slot (the low 64 bits scaled to the length);
/// false when it is already there.
fn place(slots: &mut [u128], fp: u128) -> bool {
    let n = slots.len();
    let mut i = ((fp as u64 as u128 * n as u128) >> 64) as usize;
    loop {
        let s = slots[i];
        if s == 0 {
            slots[i] = fp;
            return true;
        }
        if s == fp {
            return false;
        }
        i += 1;
        if i == n {
            i = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_distinct_and_stays_compact() {
        let mut t = FpTable::default();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut keys = Vec::new();
        for _ in 0..100_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (u128::from(x) << 64) | u128::from(x.rotate_left(29) ^ 0xABCD);
            keys.push(k);
            assert!(t.insert(k));
        }
        for &k in &keys[..1000] {
            assert!(!t.insert(k), "a repeated fingerprint counted as new");
        }
        assert_eq!(t.len(), 100_000);
        let per = t.bytes() as f64 / t.len() as f64;
        assert!((20.0..=30.3).contains(&per), "{per} bytes per fingerprint");
    }
}
