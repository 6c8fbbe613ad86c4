//! The window's per-second sums a merge adds each host's seconds into: each second's
//! histogram as a run of counts from its lowest bucket on, two bytes a count and more only for
//! the few that need it (a day of seconds fits), and the rates added in the hosts' order, so
//! that every sum is the one adding the hosts' points in turn gives.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// Each cluster second's histogram sum, one lock a second (the reading threads rarely meet
/// on one).
pub struct Sums {
    seconds: Vec<Mutex<Window>>,
}

impl Sums {
    /// Empty sums for `n` seconds.
    pub fn new(n: usize) -> Self {
        Sums {
            seconds: (0..n).map(|_| Mutex::new(Window::default())).collect(),
        }
    }

    /// Adds `counts` (of the buckets from index `lo` on) to second `j`; false when a count
    /// would pass 2^64 (the second is then not summed).
    pub fn add(&self, j: usize, lo: usize, counts: &[u64]) -> bool {
        let mut w = self.seconds[j].lock().unwrap_or_else(|p| p.into_inner());
        w.add(lo, counts)
    }

    /// Every second's sum.
    pub fn into_seconds(self) -> Vec<Window> {
        self.seconds
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect()
    }
}

/// One second's histogram sum: the counts of the buckets from `lo` on, their low 16 bits
/// two bytes a bucket, and what is above them (count >> 16) for the few buckets that need it.
#[derive(Default)]
pub struct Window {
    lo: usize,
    low: Vec<u16>,
    /// (bucket index, count >> 16), in index order.
    high: Vec<(usize, u64)>,
}

/// A bucket's count above its low 16 bits reaches this when the count passes 2^64.
const HIGH_LIMIT: u64 = 1 << 48;

impl Window {
    /// Adds `counts` of the buckets from `lo` on; false when a count passes 2^64.
    fn add(&mut self, lo: usize, counts: &[u64]) -> bool {
        if counts.is_empty() {
            return true;
        }
        self.cover(lo, lo + counts.len() - 1);
        let from = lo - self.lo;
        for (k, (c, &n)) in self.low[from..from + counts.len()]
            .iter_mut()
            .zip(counts)
            .enumerate()
        {
            let Some(sum) = u64::from(*c).checked_add(n) else {
                return false;
            };
            *c = sum as u16;
            if sum >> 16 > 0 && !carry(&mut self.high, lo + k, sum >> 16) {
                return false;
            }
        }
        true
    }

    /// Makes the window reach from `first` to `last`, the memory made to measure.
    fn cover(&mut self, first: usize, last: usize) {
        let len = self.low.len();
        let (before, after) = if len == 0 {
            self.lo = first;
            (0, last - first + 1)
        } else {
            let before = self.lo.saturating_sub(first);
            (before, (last + 1).saturating_sub(self.lo + len))
        };
        if before + after > 0 {
            let mut out = Vec::with_capacity(before + len + after);
            out.resize(before, 0);
            out.extend_from_slice(&self.low);
            out.resize(out.len() + after, 0);
            self.low = out;
            self.lo -= before;
        }
    }

    /// The non-empty buckets (index, count), lowest first.
    pub fn buckets(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let mut high = self.high.iter().peekable();
        self.low.iter().enumerate().filter_map(move |(k, &c)| {
            let i = self.lo + k;
            let above = high.next_if(|(h, _)| *h == i).map_or(0, |(_, a)| *a);
            let count = (above << 16) | u64::from(c);
            (count > 0).then_some((i, count))
        })
    }

    /// Nothing counted.
    pub fn is_empty(&self) -> bool {
        self.buckets().next().is_none()
    }
}

/// Adds `above` to bucket `i`'s count above 16 bits; false when it reaches 2^48 (the count
/// would pass 2^64).
fn carry(high: &mut Vec<(usize, u64)>, i: usize, above: u64) -> bool {
    let at = high.partition_point(|(h, _)| *h < i);
    let total = match high.get_mut(at) {
        Some((h, a)) if *h == i => {
            *a += above;
            *a
        }
        _ => {
            high.insert(at, (i, above));
            above
        }
    };
    total < HIGH_LIMIT
}

/// One host's part in one cluster second: its rates and whether its histogram was summed.
pub struct Part {
    pub second: usize,
    pub read_iops: f64,
    pub write_iops: f64,
    pub mb_s: f64,
    pub p99_us: f64,
    /// The point had a histogram and it was added to the second's sum.
    pub summed: bool,
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

    /// Host `host`'s parts, added once every host before it has been; gives back an empty
    /// vector to fill with the next host's (no fresh memory a host).
    pub fn add(&mut self, host: usize, parts: Vec<Part>) -> Vec<Part> {
        let mut spare = Vec::new();
        self.waiting.insert(host, parts);
        while let Some(mut parts) = self.waiting.remove(&self.next) {
            for p in parts.drain(..) {
                let j = p.second;
                self.read_iops[j] += p.read_iops;
                self.write_iops[j] += p.write_iops;
                self.mb_s[j] += p.mb_s;
                self.p99_us[j] = self.p99_us[j].max(p.p99_us);
                self.points[j] += 1;
                self.summed[j] &= p.summed;
            }
            spare = parts;
            self.next += 1;
        }
        spare
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows add like dense counts: growing either way, counts past 16 bits kept whole,
    /// refusing only a count past u64.
    #[test]
    fn windows_add_like_dense_counts() {
        let hosts: Vec<(usize, Vec<u64>)> = vec![
            (30, vec![1, 0, 5, 7]),
            (1, vec![7, 0, 0, 1, 1]),
            (31, vec![60_000, 3, 65_535, 1]),
            (4000, vec![2, 0, 9]),
            (31, vec![5_000_000_000]),
            (9, vec![]),
        ];
        let mut dense = vec![0u64; 5000];
        let mut w = Window::default();
        for (lo, counts) in &hosts {
            assert!(w.add(*lo, counts));
            counts
                .iter()
                .enumerate()
                .for_each(|(k, &c)| dense[lo + k] += c);
        }
        let want: Vec<(usize, u64)> = (0..5000)
            .filter(|&i| dense[i] > 0)
            .map(|i| (i, dense[i]))
            .collect();
        assert_eq!(w.buckets().collect::<Vec<_>>(), want);
        assert!(!w.add(31, &[u64::MAX]));
        let mut big = Window::default();
        assert!(big.add(7, &[u64::MAX - 5, 1 << 20]));
        assert!(big.add(7, &[5, (1 << 20) + 3]));
        assert_eq!(
            big.buckets().collect::<Vec<_>>(),
            [(7, u64::MAX), (8, (1 << 21) + 3)]
        );
        assert!(!big.add(7, &[1]));
        assert!(Window::default().is_empty());
    }
}
