//! Which I/O comes next: direction, size, target and offset, from the job's pattern.

use dbio_engine::OpKind;
use dbio_model::{JobSpec, Rw, Skew};
use fastrand::Rng;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use rand_distr::{Distribution, Zipf};

/// A shuffled deck of choices drawn without replacement and reshuffled as it is dealt, so
/// every full cycle holds each choice exactly in its share (an exact quota, not a coin flip).
#[derive(Debug, Clone)]
pub struct Deck<T: Copy> {
    cards: Vec<T>,
    pos: usize,
}

impl<T: Copy> Deck<T> {
    /// A deck with `weight` copies of each choice; weights are scaled down (keeping their
    /// ratio to within 0.1 %) when they add up to more than 10,000 cards.
    pub fn new(choices: &[(T, u32)]) -> Self {
        let total: u64 = choices.iter().map(|&(_, w)| w as u64).sum();
        let scale = if total > 10_000 {
            10_000.0 / total as f64
        } else {
            1.0
        };
        let mut cards = Vec::new();
        let live: Vec<T> = choices.iter().filter(|c| c.1 > 0).map(|c| c.0).collect();
        if let [only] = live[..] {
            // One choice: a deck of one card, drawn without the generator.
            return Deck {
                cards: vec![only],
                pos: 0,
            };
        }
        for &(c, w) in choices {
            let n = ((w as f64 * scale).round() as usize).max(usize::from(w > 0));
            cards.extend(std::iter::repeat_n(c, n));
        }
        assert!(
            !cards.is_empty(),
            "a deck needs at least one card with a weight"
        );
        Deck { cards, pos: 0 }
    }

    /// The next card: one step of an incremental Fisher–Yates shuffle.
    #[inline]
    pub fn draw(&mut self, rng: &mut Rng) -> T {
        let n = self.cards.len();
        if n == 1 {
            return self.cards[0];
        }
        let j = rng.usize(self.pos..n);
        self.cards.swap(self.pos, j);
        let c = self.cards[self.pos];
        self.pos += 1;
        if self.pos == n {
            self.pos = 0;
        }
        c
    }
}

/// The next I/O a worker issues (before it gets a buffer slot).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextIo {
    pub kind: OpKind,
    pub target: u32,
    pub offset: u64,
    pub len: u32,
}

/// One block size with the number of aligned positions it can take in the region.
#[derive(Debug, Clone)]
struct SizeSlot {
    len: u64,
    positions: u64,
    /// Zipf skew: the rank distribution over the positions.
    zipf: Option<Zipf<f64>>,
}

/// Draws a position in 0..positions with the job's skew.
#[derive(Debug, Clone)]
struct Spread {
    skew: Skew,
    /// Hot spot: the exact quota of hot I/Os.
    hot: Deck<bool>,
    /// Zipf sampling needs a `rand` generator.
    rng: SmallRng,
}

/// Draws one of `positions` pages with a skew: how a session picks its first page.
#[derive(Debug, Clone)]
pub struct PageSpread {
    spread: Spread,
    slot: SizeSlot,
}

impl PageSpread {
    /// Pages 0..`positions` spread by `skew`; `stream` varies the draws between users.
    pub fn new(skew: Skew, positions: u64, seed: u64, stream: u32) -> Self {
        PageSpread {
            spread: Spread::new(skew, seed, stream),
            slot: SizeSlot::new(0, positions, skew),
        }
    }

    /// The next page.
    #[inline]
    pub fn pick(&mut self, rng: &mut Rng) -> u64 {
        self.spread.pick(&self.slot, rng)
    }
}

impl SizeSlot {
    fn new(len: u64, positions: u64, skew: Skew) -> Self {
        let zipf = match skew {
            Skew::Zipf { theta } => Zipf::new(positions as f64, theta).ok(),
            _ => None,
        };
        SizeSlot {
            len,
            positions,
            zipf,
        }
    }
}

impl Spread {
    fn new(skew: Skew, seed: u64, stream: u32) -> Self {
        let hot_pct = match skew {
            Skew::Hotspot { io_pct, .. } => io_pct as u32,
            _ => 100,
        };
        Spread {
            skew,
            hot: Deck::new(&[(true, hot_pct), (false, 100 - hot_pct)]),
            rng: SmallRng::seed_from_u64(
                seed ^ (stream as u64).wrapping_mul(0x2545_F491_4F6C_DD1D),
            ),
        }
    }

    #[inline]
    fn pick(&mut self, size: &SizeSlot, rng: &mut Rng) -> u64 {
        let n = size.positions;
        match self.skew {
            Skew::Uniform => rng.u64(0..n),
            Skew::Zipf { .. } => match &size.zipf {
                Some(z) => (z.sample(&mut self.rng) as u64).clamp(1, n) - 1,
                None => rng.u64(0..n),
            },
            Skew::Pareto { h } => {
                let pow = h.ln() / (1.0 - h).ln();
                (((n - 1) as f64) * rng.f64().powf(pow)) as u64
            }
            Skew::Hotspot { region_pct, .. } => {
                let hot = ((n as f64 * region_pct as f64 / 100.0) as u64).clamp(1, n);
                if self.hot.draw(rng) || hot == n {
                    rng.u64(0..hot)
                } else {
                    rng.u64(hot..n)
                }
            }
        }
    }
}

/// A worker's generator of I/Os.
#[derive(Debug, Clone)]
pub struct Pattern {
    random: bool,
    mix: Deck<bool>,
    sizes: Vec<SizeSlot>,
    size_deck: Deck<usize>,
    spread: Spread,
    align: u64,
    targets: u32,
    next_target: u32,
    /// Per target: start and end of this worker's part of the region.
    start: u64,
    end: u64,
    /// Per target: the sequential cursors of reads and of writes (one walks alone in a
    /// read or write run; in readwrite each direction walks from the start, as fio's rw=rw).
    cursor: Vec<[u64; 2]>,
}

impl Pattern {
    /// The generator of worker `worker` (of `spec.threads`) over `targets` targets whose
    /// region is `region_start..region_end` (already checked to hold the largest block).
    pub fn new(
        spec: &JobSpec,
        worker: u32,
        targets: u32,
        region_start: u64,
        region_end: u64,
    ) -> Self {
        let random = spec.rw.is_random();
        let (start, end) = if random {
            (region_start, region_end)
        } else {
            // Sequential streams: each worker walks its own slice, like several DSS streams.
            let slice = ((region_end - region_start) / spec.threads as u64 / spec.align
                * spec.align)
                .max(spec.max_bs());
            let s = (region_start + slice * worker as u64).min(region_end - spec.max_bs());
            (s, (s + slice).min(region_end))
        };
        let sizes = spec
            .bs
            .iter()
            .map(|b| SizeSlot::new(b.size, (end - start - b.size) / spec.align + 1, spec.skew))
            .collect::<Vec<_>>();
        let spread = Spread::new(spec.skew, spec.seed, worker);
        let size_deck = Deck::new(
            &spec
                .bs
                .iter()
                .enumerate()
                .map(|(i, b)| (i, b.weight))
                .collect::<Vec<_>>(),
        );
        let read_pct = match spec.rw {
            Rw::Read | Rw::RandRead => 100,
            Rw::Write | Rw::RandWrite => 0,
            Rw::RandRw | Rw::ReadWrite => spec.read_pct as u32,
        };
        Pattern {
            random,
            mix: Deck::new(&[(true, read_pct), (false, 100 - read_pct)]),
            sizes,
            size_deck,
            spread,
            align: spec.align,
            targets,
            next_target: worker % targets,
            start,
            end,
            cursor: vec![[start; 2]; targets as usize],
        }
    }

    /// This worker's part of the region on each target: its start and length.
    pub fn part(&self) -> (u64, u64) {
        (self.start, self.end - self.start)
    }

    /// The next I/O.
    #[inline]
    pub fn next(&mut self, rng: &mut Rng) -> NextIo {
        let kind = if self.mix.draw(rng) {
            OpKind::Read
        } else {
            OpKind::Write
        };
        let size = &self.sizes[self.size_deck.draw(rng)];
        let target = if self.targets == 1 {
            0
        } else if self.random {
            rng.u32(0..self.targets)
        } else {
            let t = self.next_target;
            self.next_target = (t + 1) % self.targets;
            t
        };
        let offset = if self.random {
            self.start + self.spread.pick(size, rng) * self.align
        } else {
            let c = &mut self.cursor[target as usize][usize::from(kind == OpKind::Write)];
            if *c + size.len > self.end {
                *c = self.start;
            }
            let o = *c;
            *c += size.len;
            o
        };
        NextIo {
            kind,
            target,
            offset,
            len: size.len as u32,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use dbio_model::*;

    pub(crate) fn spec(rw: Rw, read_pct: u8, bs: &[(u64, u32)]) -> JobSpec {
        JobSpec {
            profile: "test".into(),
            skew: Skew::Uniform,
            targets: vec!["t".into()],
            file_size: None,
            rw,
            read_pct,
            bs: bs
                .iter()
                .map(|&(size, weight)| BsWeight { size, weight })
                .collect(),
            align: bs.iter().map(|b| b.0).min().unwrap(),
            qd: 1,
            threads: 1,
            ramp_secs: 0.0,
            steady: None,
            burst: None,
            stop: StopAfter::Ops(1000),
            region: Region {
                offset: 0,
                range: None,
                split: None,
            },
            sync: SyncMode::None,
            rate: None,
            engine: EngineKind::Null,
            direct: true,
            invalidate: false,
            hipri: false,
            sqpoll: false,
            device_latency: false,
            cpu_idle: CpuIdle::Poll,
            data: DataKind::Random,
            destroy_data: false,
            seed: 1,
            session: None,
            arrivals: Arrivals::Uniform,
            sim: None,
            verify: None,
            replay: None,
        }
    }

    #[test]
    fn deck_holds_exact_quota_every_cycle() {
        let mut d = Deck::new(&[(true, 70), (false, 30)]);
        let mut rng = Rng::with_seed(3);
        for _ in 0..50 {
            let reads = (0..100).filter(|_| d.draw(&mut rng)).count();
            assert_eq!(reads, 70);
        }
    }

    #[test]
    fn random_offsets_are_aligned_and_inside_region() {
        let s = spec(Rw::RandRw, 70, &[(8192, 70), (65536, 20), (262144, 10)]);
        let mut p = Pattern::new(&s, 0, 1, 1 << 20, 5 << 20);
        let mut rng = Rng::with_seed(9);
        let mut sizes = std::collections::HashMap::new();
        for _ in 0..10_000 {
            let io = p.next(&mut rng);
            assert_eq!(io.offset % 8192, 0);
            assert!(io.offset >= 1 << 20 && io.offset + io.len as u64 <= 5 << 20);
            *sizes.entry(io.len).or_insert(0) += 1;
        }
        assert_eq!(sizes[&8192], 7000);
        assert_eq!(sizes[&65536], 2000);
    }

    /// Shares of 200,000 random 4 KiB offsets over 1024 positions that fall on each position.
    fn position_shares(skew: Skew) -> Vec<f64> {
        let mut s = spec(Rw::RandRead, 100, &[(4096, 1)]);
        s.skew = skew;
        let mut p = Pattern::new(&s, 0, 1, 0, 4 << 20);
        let mut rng = Rng::with_seed(11);
        let mut counts = vec![0u64; 1024];
        let n = 200_000;
        for _ in 0..n {
            counts[(p.next(&mut rng).offset / 4096) as usize] += 1;
        }
        counts.iter().map(|&c| c as f64 / n as f64).collect()
    }

    #[test]
    fn hotspot_sends_its_exact_share_to_the_hot_region() {
        let shares = position_shares(Skew::Hotspot {
            io_pct: 90,
            region_pct: 10,
        });
        let hot: f64 = shares[..102].iter().sum();
        assert!((hot - 0.9).abs() < 1e-9, "hot share {hot}");
    }

    #[test]
    fn zipf_matches_its_cdf() {
        // Oracle: P(rank < k) = H(k, θ) / H(N, θ) with H the generalised harmonic number.
        let theta = 1.2;
        let h = |k: usize| (1..=k).map(|i| 1.0 / (i as f64).powf(theta)).sum::<f64>();
        let shares = position_shares(Skew::Zipf { theta });
        for k in [1, 10, 100] {
            let got: f64 = shares[..k].iter().sum();
            let want = h(k) / h(1024);
            assert!((got - want).abs() < 0.01, "first {k}: {got} vs {want}");
        }
    }

    #[test]
    fn pareto_0_2_is_the_80_20_rule() {
        // Oracle: P(position < x·N) = x^(ln(1−h)/ln h); for h = 0.2, x = 0.2 gives 0.8.
        let shares = position_shares(Skew::Pareto { h: 0.2 });
        let first_fifth: f64 = shares[..205].iter().sum();
        assert!((first_fifth - 0.8).abs() < 0.01, "{first_fifth}");
    }

    /// fio's rw=rw keeps a cursor per direction: at 50 % over 100 I/Os of 4 KiB, the reads
    /// and the writes each walk the first 50 blocks in order, once.
    #[test]
    fn readwrite_walks_each_direction_from_the_start() {
        let s = spec(Rw::ReadWrite, 50, &[(4096, 1)]);
        let mut p = Pattern::new(&s, 0, 1, 0, 100 * 4096);
        let mut rng = Rng::with_seed(5);
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        for _ in 0..100 {
            let io = p.next(&mut rng);
            match io.kind {
                OpKind::Read => reads.push(io.offset),
                _ => writes.push(io.offset),
            }
        }
        let first_half: Vec<u64> = (0..50).map(|i| i * 4096).collect();
        assert_eq!(reads, first_half);
        assert_eq!(writes, first_half);
    }

    #[test]
    fn sequential_streams_walk_their_own_slices() {
        let mut s = spec(Rw::Read, 100, &[(4096, 1)]);
        s.threads = 2;
        let mut a = Pattern::new(&s, 0, 1, 0, 1 << 20);
        let mut b = Pattern::new(&s, 1, 1, 0, 1 << 20);
        let mut rng = Rng::with_seed(1);
        let offs: Vec<u64> = (0..3).map(|_| a.next(&mut rng).offset).collect();
        assert_eq!(offs, vec![0, 4096, 8192]);
        assert_eq!(b.next(&mut rng).offset, 512 << 10);
        for _ in 0..200 {
            a.next(&mut rng);
        }
        assert!(
            a.next(&mut rng).offset < 512 << 10,
            "stream wraps inside its slice"
        );
    }
}
