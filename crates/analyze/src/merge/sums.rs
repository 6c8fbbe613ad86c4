//! The window's per-second sums a merge adds each host's seconds into: each second's
//! histogram as a run of counts from its lowest bucket on, two bytes a count until a count
//! needs more (a day of seconds fits), and the rates added in the hosts' order, so that every
//! sum is the one adding the hosts' points in turn gives.

use super::series::Part;
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

/// One second's histogram sum: the counts of the buckets from `lo` on, in the narrowest
/// width that holds them.
#[derive(Default)]
pub struct Window {
    lo: usize,
    counts: Counts,
}

/// Counts of one width.
enum Counts {
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl Default for Counts {
    fn default() -> Self {
        Counts::U16(Vec::new())
    }
}

impl Counts {
    fn len(&self) -> usize {
        match self {
            Counts::U16(v) => v.len(),
            Counts::U32(v) => v.len(),
            Counts::U64(v) => v.len(),
        }
    }

    /// `before` zeros in front and `after` behind, the allocation made to measure.
    fn pad(&mut self, before: usize, after: usize) {
        fn pad<T: Copy + Default>(v: &mut Vec<T>, before: usize, after: usize) {
            let mut out = Vec::with_capacity(before + v.len() + after);
            out.resize(before, T::default());
            out.extend_from_slice(v);
            out.resize(out.len() + after, T::default());
            *v = out;
        }
        match self {
            Counts::U16(v) => pad(v, before, after),
            Counts::U32(v) => pad(v, before, after),
            Counts::U64(v) => pad(v, before, after),
        }
    }

    /// The next wider counts (u64 stays).
    fn widen(&mut self) {
        *self = match std::mem::take(self) {
            Counts::U16(v) => Counts::U32(v.into_iter().map(u32::from).collect()),
            Counts::U32(v) => Counts::U64(v.into_iter().map(u64::from).collect()),
            wide => wide,
        };
    }

    /// Adds `counts` from `k` on, as far as they fit this width: Ok, or Err(how many were
    /// added) at the first that does not (for u64: that overflows).
    fn add(&mut self, k: usize, counts: &[u64]) -> Result<(), usize> {
        match self {
            Counts::U16(v) => add_run(&mut v[k..k + counts.len()], counts),
            Counts::U32(v) => add_run(&mut v[k..k + counts.len()], counts),
            Counts::U64(v) => add_run(&mut v[k..k + counts.len()], counts),
        }
    }

    fn get(&self, k: usize) -> u64 {
        match self {
            Counts::U16(v) => u64::from(v[k]),
            Counts::U32(v) => u64::from(v[k]),
            Counts::U64(v) => v[k],
        }
    }
}

/// Adds `counts` to `to`, one for one, as far as the sums fit `T`: Err(how many were added)
/// at the first that does not.
fn add_run<T: Copy + Into<u64> + TryFrom<u64>>(to: &mut [T], counts: &[u64]) -> Result<(), usize> {
    for (at, (c, &n)) in to.iter_mut().zip(counts).enumerate() {
        match (*c).into().checked_add(n).map(T::try_from) {
            Some(Ok(sum)) => *c = sum,
            _ => return Err(at),
        }
    }
    Ok(())
}

impl Window {
    /// Adds `counts` of the buckets from `lo` on; false when a count overflows u64.
    fn add(&mut self, lo: usize, counts: &[u64]) -> bool {
        if counts.is_empty() {
            return true;
        }
        self.cover(lo, lo + counts.len() - 1);
        let mut done = 0;
        while let Err(added) = self.counts.add(lo - self.lo + done, &counts[done..]) {
            if matches!(self.counts, Counts::U64(_)) {
                return false;
            }
            done += added;
            self.counts.widen();
        }
        true
    }

    /// Makes the window reach from `first` to `last`.
    fn cover(&mut self, first: usize, last: usize) {
        let len = self.counts.len();
        if len == 0 {
            self.lo = first;
            self.counts.pad(0, last - first + 1);
            return;
        }
        let before = self.lo.saturating_sub(first);
        let after = (last + 1).saturating_sub(self.lo + len);
        if before + after > 0 {
            self.counts.pad(before, after);
            self.lo -= before;
        }
    }

    /// The non-empty buckets (index, count), lowest first.
    pub fn buckets(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (0..self.counts.len())
            .map(|k| (self.lo + k, self.counts.get(k)))
            .filter(|&(_, c)| c > 0)
    }

    /// Nothing counted.
    pub fn is_empty(&self) -> bool {
        self.buckets().next().is_none()
    }
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

    /// Windows add like dense counts: growing either way, widening as counts grow, refusing
    /// only a count past u64.
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
        assert!(Window::default().is_empty());
    }
}
