//! Where a logical page lives: a fixed permutation of the region's pages, so pages that are
//! adjacent for the database (one operation's work unit) are scattered on the device, as the
//! rows of SLOB's tables are.

/// The bijection page → (step × page + shift) mod pages, with step coprime to pages and near
/// pages × 0.618, so neighbours land far apart.
#[derive(Debug, Clone, Copy)]
pub struct Scatter {
    pages: u64,
    step: u64,
    shift: u64,
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Scatter {
    /// The permutation of `pages` pages (at least 1), varied by `seed`.
    pub fn new(pages: u64, seed: u64) -> Self {
        let mut step = ((pages as f64 * 0.618_033_988_75) as u64).max(1);
        while pages > 1 && gcd(step, pages) != 1 {
            step += 1;
        }
        Scatter {
            pages,
            step: step % pages.max(1),
            shift: seed % pages.max(1),
        }
    }

    /// Physical page of logical page `page` (taken modulo the page count).
    #[inline]
    pub fn physical(&self, page: u64) -> u64 {
        let p = page % self.pages;
        ((p as u128 * self.step as u128 + self.shift as u128) % self.pages as u128) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_permutation_and_scatters_neighbours() {
        for pages in [1u64, 2, 7, 64, 1000, 4096, 131_072] {
            let s = Scatter::new(pages, 12345);
            let mut seen = vec![false; pages as usize];
            for p in 0..pages {
                let q = s.physical(p) as usize;
                assert!(!seen[q], "{pages} pages: {q} hit twice");
                seen[q] = true;
            }
            if pages >= 1000 {
                // Adjacent logical pages are never physically adjacent.
                let near = (0..pages - 1)
                    .filter(|&p| s.physical(p).abs_diff(s.physical(p + 1)) <= 1)
                    .count();
                assert_eq!(near, 0, "{pages} pages");
            }
        }
    }
}
