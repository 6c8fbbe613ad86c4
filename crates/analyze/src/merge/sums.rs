//! The window's per-second sums a merge adds each host's seconds into: the histograms'
//! buckets kept sparse (a day of seconds fits), and the rates added in the hosts' order, so
//! that every sum is the one adding the hosts' points in turn gives.

use super::series::Part;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Bits of a packed bucket's count: a bucket is `index << SHIFT | count`.
const SHIFT: u32 = 51;
/// The largest count a packed bucket holds (2^51 - 1: far beyond any second's I/Os).
const COUNT: u64 = (1 << SHIFT) - 1;

/// Each cluster second's histogram sum, as its non-empty buckets packed and in index order,
/// one lock a second (the reading threads rarely meet on one).
pub struct Sums {
    seconds: Vec<Mutex<Vec<u64>>>,
}

impl Sums {
    /// Empty sums for `n` seconds.
    pub fn new(n: usize) -> Self {
        Sums {
            seconds: (0..n).map(|_| Mutex::new(Vec::new())).collect(),
        }
    }

    /// Adds `buckets` ((index, count), in index order) to second `j`; false when a count
    /// would pass what a packed bucket holds (the second is then not summed).
    pub fn add(&self, j: usize, buckets: &[(usize, u64)]) -> bool {
        let mut sum = self.seconds[j].lock().unwrap_or_else(|p| p.into_inner());
        add_packed(&mut sum, buckets)
    }

    /// Every second's packed buckets.
    pub fn into_seconds(self) -> Vec<Vec<u64>> {
        self.seconds
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }
}

/// The (index, count) of a packed bucket.
pub fn unpack(b: u64) -> (usize, u64) {
    ((b >> SHIFT) as usize, b & COUNT)
}

/// Adds `buckets` to the packed `sum`: in place where the bucket is there, merged in where
/// it is new. False when a count overflows or an index does not fit.
fn add_packed(sum: &mut Vec<u64>, buckets: &[(usize, u64)]) -> bool {
    let mut new: Vec<u64> = Vec::new();
    let mut at = 0;
    for &(i, c) in buckets {
        if i >= 1 << (64 - SHIFT) || c > COUNT {
            return false;
        }
        let key = (i as u64) << SHIFT;
        while at < sum.len() && sum[at] & !COUNT < key {
            at += 1;
        }
        match sum.get_mut(at) {
            Some(b) if *b & !COUNT == key => {
                let total = (*b & COUNT) + c;
                if total > COUNT {
                    return false;
                }
                *b = key | total;
                at += 1;
            }
            _ => new.push(key | c),
        }
    }
    if !new.is_empty() {
        let mut merged = Vec::with_capacity(sum.len() + new.len());
        let (mut a, mut b) = (sum.iter().peekable(), new.iter().peekable());
        while let (Some(&&x), Some(&&y)) = (a.peek(), b.peek()) {
            merged.push(
                if x < y { a.next() } else { b.next() }
                    .copied()
                    .unwrap_or(0),
            );
        }
        merged.extend(a.chain(b));
        *sum = merged;
    }
    true
}

/// The rates of each cluster second, added host by host in the hosts' order (a host's parts
/// wait until every host before it has been added): the sums are those of the hosts' points
/// added in turn, whichever thread read which host.
pub struct Rates {
    next: usize,
    waiting: BTreeMap<usize, Vec<Part>>,
    pub read_iops: Vec<f64>,
    pub write_iops: Vec<f64>,
    pub mb_s: Vec<f64>,
    /// The slowest point's p99 (the second's p99 when not every point's histogram summed).
    pub p99_us: Vec<f64>,
    /// Points added into each second.
    pub points: Vec<usize>,
    /// Every point of the second had its histogram summed.
    pub summed: Vec<bool>,
}

impl Rates {
    /// Nothing added yet, for `n` seconds.
    pub fn new(n: usize) -> Self {
        // What summing no rates gives, as `Iterator::sum` starts.
        let none: f64 = std::iter::empty::<f64>().sum();
        Rates {
            next: 0,
            waiting: BTreeMap::new(),
            read_iops: vec![none; n],
            write_iops: vec![none; n],
            mb_s: vec![none; n],
            p99_us: vec![0.0; n],
            points: vec![0; n],
            summed: vec![true; n],
        }
    }

    /// Host `host`'s parts, added once every host before it has been.
    pub fn add(&mut self, host: usize, parts: Vec<Part>) {
        self.waiting.insert(host, parts);
        while let Some(parts) = self.waiting.remove(&self.next) {
            for p in parts {
                let j = p.second;
                self.read_iops[j] += p.read_iops;
                self.write_iops[j] += p.write_iops;
                self.mb_s[j] += p.mb_s;
                self.p99_us[j] = self.p99_us[j].max(p.p99_us);
                self.points[j] += 1;
                self.summed[j] &= p.summed;
            }
            self.next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packed sums add like dense counts, whatever order the buckets come in.
    #[test]
    fn packed_sums_add_like_dense_counts() {
        let hosts: Vec<Vec<(usize, u64)>> = vec![
            vec![(3, 1), (10, 5), (4000, 2)],
            vec![(1, 7), (10, 1), (11, 1)],
            vec![(3, 2), (4000, 1), (4700, 9)],
            vec![],
        ];
        let mut dense = vec![0u64; 5000];
        let mut sum = Vec::new();
        for h in &hosts {
            assert!(add_packed(&mut sum, h));
            h.iter().for_each(|&(i, c)| dense[i] += c);
        }
        let want: Vec<(usize, u64)> = (0..5000)
            .filter(|&i| dense[i] > 0)
            .map(|i| (i, dense[i]))
            .collect();
        assert_eq!(sum.iter().map(|&b| unpack(b)).collect::<Vec<_>>(), want);
        assert!(!add_packed(&mut sum, &[(10, COUNT)]));
        assert!(!add_packed(&mut sum, &[(1 << 13, 1)]));
    }
}
