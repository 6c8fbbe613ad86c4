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

    /// Adds `buckets` ((index, count), index never decreasing) to second `j`; false when a
    /// count would pass 2^64 (the second is then not summed).
    pub fn add(&self, j: usize, buckets: &[(usize, u64)]) -> bool {
        let mut w = self.seconds[j].lock().unwrap_or_else(|p| p.into_inner());
        w.add(buckets)
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

    /// Adds `n` at `k`; false when it does not fit this width (u64: when it overflows).
    fn add(&mut self, k: usize, n: u64) -> Option<bool> {
        match self {
            Counts::U16(v) => Some(fits(&mut v[k], n)),
            Counts::U32(v) => Some(fits(&mut v[k], n)),
            Counts::U64(v) => v[k].checked_add(n).map(|s| {
                v[k] = s;
                true
            }),
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

/// Adds `n` to `c` when the sum fits its width.
fn fits<T: Copy + Into<u64> + TryFrom<u64>>(c: &mut T, n: u64) -> bool {
    let sum = (*c).into().checked_add(n).and_then(|s| T::try_from(s).ok());
    sum.map(|s| *c = s).is_some()
}

impl Window {
    /// Adds `buckets` (index never decreasing); false when a count overflows u64.
    fn add(&mut self, buckets: &[(usize, u64)]) -> bool {
        let (Some(&(first, _)), Some(&(last, _))) = (buckets.first(), buckets.last()) else {
            return true;
        };
        self.cover(first, last);
        for &(i, n) in buckets {
            let k = i - self.lo;
            loop {
                match self.counts.add(k, n) {
                    Some(true) => break,
                    Some(false) => self.counts.widen(),
                    None => return false,
                }
            }
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

    /// Windows add like dense counts: growing either way, widening as counts grow, refusing
    /// only a count past u64.
    #[test]
    fn windows_add_like_dense_counts() {
        let hosts: Vec<Vec<(usize, u64)>> = vec![
            vec![(30, 1), (100, 5), (100, 7), (4000, 2)],
            vec![(1, 7), (100, 1), (101, 1)],
            vec![(30, 60_000), (4000, 1), (4700, 9)],
            vec![(31, 5_000_000_000)],
            vec![],
        ];
        let mut dense = vec![0u64; 5000];
        let mut w = Window::default();
        for h in &hosts {
            assert!(w.add(h));
            h.iter().for_each(|&(i, c)| dense[i] += c);
        }
        let want: Vec<(usize, u64)> = (0..5000)
            .filter(|&i| dense[i] > 0)
            .map(|i| (i, dense[i]))
            .collect();
        assert_eq!(w.buckets().collect::<Vec<_>>(), want);
        assert!(!w.add(&[(31, u64::MAX)]));
        assert!(Window::default().is_empty());
    }
}
