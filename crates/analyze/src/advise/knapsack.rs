//! The 0/1 knapsack of placement: whole objects into a flash budget, maximising the value
//! (stall saved). Exact by dynamic programming when the sizes' common divisor leaves few
//! capacity cells, else by branch and bound on the Dantzig bound, which is exact when it
//! finishes within its node limit and otherwise reports its gap to the bound.

/// One object as the knapsack sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Item {
    pub weight: u64,
    pub value: f64,
}

/// How the set was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Every candidate fits.
    All,
    /// Dynamic programming over capacity in units of the sizes' greatest common divisor.
    Dp { unit: u64 },
    /// Branch and bound (depth first, Dantzig bound), finished or stopped at the node limit.
    BranchAndBound { nodes: u64, finished: bool },
}

/// The chosen set.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// Indexes into the items, ascending.
    pub chosen: Vec<usize>,
    pub value: f64,
    pub weight: u64,
    pub method: Method,
    /// (upper bound − value) / upper bound; 0 when exact.
    pub gap: f64,
}

/// Most DP cells (items × capacity units) worth filling: ~0.2 s and 12 MB of choice bits.
const DP_CELLS: u128 = 100_000_000;
/// Node limit of the branch and bound.
const NODE_LIMIT: u64 = 1_000_000;

/// The best set of `items` within `cap`. Items of zero weight and positive value are
/// always taken; items of no value or heavier than `cap` never are.
pub fn choose(items: &[Item], cap: u64) -> Choice {
    choose_with_limit(items, cap, NODE_LIMIT)
}

/// [`choose`] with a node limit for the branch and bound (tests use small ones).
pub fn choose_with_limit(items: &[Item], cap: u64, limit: u64) -> Choice {
    let free: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].weight == 0 && items[i].value > 0.0)
        .collect();
    let cand: Vec<usize> = (0..items.len())
        .filter(|&i| items[i].weight > 0 && items[i].weight <= cap && items[i].value > 0.0)
        .collect();
    let total: u128 = cand.iter().map(|&i| items[i].weight as u128).sum();
    let (picked, method, gap) = if total <= cap as u128 {
        (cand.clone(), Method::All, 0.0)
    } else {
        let unit = cand.iter().fold(0, |g, &i| gcd(g, items[i].weight));
        let cells = (cap / unit) as u128 + 1;
        if cand.len() as u128 * cells <= DP_CELLS {
            let sub: Vec<Item> = cand.iter().map(|&i| items[i]).collect();
            let p = dp(&sub, cap, unit);
            (
                p.iter().map(|&k| cand[k]).collect(),
                Method::Dp { unit },
                0.0,
            )
        } else {
            let sub: Vec<Item> = cand.iter().map(|&i| items[i]).collect();
            let (p, nodes, finished, gap) = branch_and_bound(&sub, cap, limit);
            let m = Method::BranchAndBound { nodes, finished };
            (p.iter().map(|&k| cand[k]).collect(), m, gap)
        }
    };
    let mut chosen: Vec<usize> = free.into_iter().chain(picked).collect();
    chosen.sort_unstable();
    Choice {
        value: chosen.iter().map(|&i| items[i].value).sum(),
        weight: chosen.iter().map(|&i| items[i].weight).sum(),
        chosen,
        method,
        gap,
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Exact DP: best[c] over capacity units, one bit per (item, cell) to rebuild the set.
fn dp(items: &[Item], cap: u64, unit: u64) -> Vec<usize> {
    let cells = (cap / unit) as usize;
    let row = cells + 1;
    let mut best = vec![0.0f64; row];
    let mut keep = vec![0u64; (items.len() * row).div_ceil(64)];
    for (i, it) in items.iter().enumerate() {
        let w = (it.weight / unit) as usize;
        for c in (w..=cells).rev() {
            let cand = best[c - w] + it.value;
            if cand > best[c] {
                best[c] = cand;
                let bit = i * row + c;
                keep[bit / 64] |= 1 << (bit % 64);
            }
        }
    }
    let mut c = cells;
    let mut out = Vec::new();
    for i in (0..items.len()).rev() {
        let bit = i * row + c;
        if keep[bit / 64] & (1 << (bit % 64)) != 0 {
            out.push(i);
            c -= (items[i].weight / unit) as usize;
        }
    }
    out
}

/// Items sorted by value per weight with prefix sums, for the Dantzig bound in O(log n).
struct Sorted {
    order: Vec<usize>,
    w: Vec<u64>,
    v: Vec<f64>,
    cum_w: Vec<u128>,
    cum_v: Vec<f64>,
}

impl Sorted {
    fn new(items: &[Item]) -> Sorted {
        let mut order: Vec<usize> = (0..items.len()).collect();
        let dens = |i: usize| items[i].value / items[i].weight as f64;
        order.sort_by(|&a, &b| dens(b).total_cmp(&dens(a)).then(a.cmp(&b)));
        let w: Vec<u64> = order.iter().map(|&i| items[i].weight).collect();
        let v: Vec<f64> = order.iter().map(|&i| items[i].value).collect();
        let mut cum_w = vec![0u128; w.len() + 1];
        let mut cum_v = vec![0.0; w.len() + 1];
        for k in 0..w.len() {
            cum_w[k + 1] = cum_w[k] + w[k] as u128;
            cum_v[k + 1] = cum_v[k] + v[k];
        }
        Sorted {
            order,
            w,
            v,
            cum_w,
            cum_v,
        }
    }

    /// Most value items i.. can add within `c` if the first one that does not fit could be
    /// split (the LP relaxation, Dantzig's bound).
    fn bound(&self, i: usize, c: u64) -> f64 {
        let limit = self.cum_w[i] + c as u128;
        let j = i + self.cum_w[i..].partition_point(|&x| x <= limit) - 1;
        let mut b = self.cum_v[j] - self.cum_v[i];
        if j < self.w.len() {
            let left = (limit - self.cum_w[j]) as f64;
            b += left * self.v[j] / self.w[j] as f64;
        }
        b
    }
}

/// Depth-first branch and bound (take before leave), started from the greedy set. Returns
/// the chosen indexes, the nodes visited, whether it finished, and the gap to the bound.
fn branch_and_bound(items: &[Item], cap: u64, limit: u64) -> (Vec<usize>, u64, bool, f64) {
    let s = Sorted::new(items);
    let n = s.w.len();
    let root = s.bound(0, cap);
    // The greedy set (densest first, each that still fits) is the first best.
    let (mut best, mut best_set, mut room) = (0.0f64, Vec::new(), cap);
    for k in 0..n {
        if s.w[k] <= room {
            room -= s.w[k];
            best += s.v[k];
            best_set.push(k);
        }
    }
    let (mut taken, mut i, mut c, mut v) = (Vec::<usize>::new(), 0usize, cap, 0.0f64);
    let mut nodes = 0u64;
    let mut finished = true;
    loop {
        nodes += 1;
        if nodes > limit {
            finished = false;
            break;
        }
        let rest_fits = i == n || s.cum_w[n] - s.cum_w[i] <= c as u128;
        let leaf = rest_fits || v + s.bound(i, c) <= best + 1e-12 * best.abs().max(1.0);
        if leaf {
            let total = if rest_fits {
                v + s.cum_v[n] - s.cum_v[i]
            } else {
                v
            };
            if rest_fits && total > best {
                best = total;
                best_set = taken.iter().copied().chain(i..n).collect();
            }
            // Back to the last item taken, and try leaving it.
            match taken.pop() {
                Some(k) => {
                    c += s.w[k];
                    v -= s.v[k];
                    i = k + 1;
                }
                None => break,
            }
            continue;
        }
        if s.w[i] <= c {
            taken.push(i);
            c -= s.w[i];
            v += s.v[i];
        }
        i += 1;
    }
    let gap = if root > 0.0 {
        ((root - best) / root).max(0.0)
    } else {
        0.0
    };
    let set = best_set.iter().map(|&k| s.order[k]).collect();
    (set, nodes, finished, if finished { 0.0 } else { gap })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact oracle: every subset.
    fn brute(items: &[Item], cap: u64) -> f64 {
        let mut best = 0.0f64;
        for mask in 0u32..(1 << items.len()) {
            let (mut w, mut v) = (0u64, 0.0);
            for (i, it) in items.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    w += it.weight;
                    v += it.value;
                }
            }
            if w <= cap {
                best = best.max(v);
            }
        }
        best
    }

    /// xorshift64*: random sets without a dependency.
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed | 1;
        move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            x.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    fn check(items: &[Item], cap: u64, c: &Choice) {
        let want = brute(items, cap);
        assert!(c.weight <= cap, "{c:?} exceeds {cap}");
        let w: u64 = c.chosen.iter().map(|&i| items[i].weight).sum();
        assert_eq!(w, c.weight);
        assert!(
            (c.value - want).abs() <= 1e-9 * want.max(1.0),
            "{items:?} cap {cap}: chose {} ({:?}), best is {want}",
            c.value,
            c.method
        );
    }

    #[test]
    fn dp_matches_brute_force_on_random_small_sets() {
        let mut r = rng(7);
        for _ in 0..300 {
            let n = 1 + (r() % 12) as usize;
            let items: Vec<Item> = (0..n)
                .map(|_| Item {
                    weight: 1 + r() % 40,
                    value: (r() % 1000) as f64 / 7.0,
                })
                .collect();
            let cap = r() % 120;
            let c = choose(&items, cap);
            assert!(matches!(c.method, Method::Dp { .. } | Method::All));
            check(&items, cap, &c);
        }
    }

    #[test]
    fn branch_and_bound_matches_brute_force_on_random_small_sets() {
        let mut r = rng(11);
        let mut bb = 0;
        for _ in 0..300 {
            let n = 1 + (r() % 14) as usize;
            // Sizes of whole bytes up to 1 TB: no common divisor worth a DP table.
            let items: Vec<Item> = (0..n)
                .map(|_| Item {
                    weight: 1 + r() % 1_000_000_000_000,
                    value: (r() % 1_000_000) as f64 / 3.0,
                })
                .collect();
            let cap = r() % 4_000_000_000_000;
            let c = choose(&items, cap);
            if let Method::BranchAndBound { finished, .. } = c.method {
                assert!(finished);
                bb += 1;
            }
            check(&items, cap, &c);
        }
        assert!(bb > 200, "only {bb} sets went to branch and bound");
    }

    #[test]
    fn equal_densities_and_ties_are_still_exact() {
        // Value proportional to weight: the bound never prunes early, so this is the hard case.
        let items: Vec<Item> = [7u64, 11, 13, 17, 19, 23, 29, 31, 37, 41]
            .iter()
            .map(|&w| Item {
                weight: w * 1_000_003,
                value: w as f64,
            })
            .collect();
        for cap in [50u64, 100, 101, 150] {
            let c = choose(&items, cap * 1_000_003);
            check(&items, cap * 1_000_003, &c);
        }
    }

    #[test]
    fn stopped_search_reports_a_gap_and_a_fitting_set() {
        let mut r = rng(3);
        let items: Vec<Item> = (0..2000)
            .map(|_| Item {
                weight: 1 + r() % 1_000_000_007,
                value: (r() % 1000) as f64,
            })
            .collect();
        let cap = 300_000_000_000;
        let c = choose_with_limit(&items, cap, 1000);
        assert!(matches!(
            c.method,
            Method::BranchAndBound {
                finished: false,
                ..
            }
        ));
        assert!(c.weight <= cap && c.gap >= 0.0 && c.gap < 0.05, "{}", c.gap);
    }

    #[test]
    fn free_and_worthless_items() {
        let items = [
            Item {
                weight: 0,
                value: 5.0,
            },
            Item {
                weight: 10,
                value: 0.0,
            },
            Item {
                weight: 100,
                value: 9.0,
            },
        ];
        let c = choose(&items, 50);
        assert_eq!(c.chosen, vec![0]);
        assert_eq!(c.method, Method::All);
    }
}
