//! How a session's keys map to rows: a bijection that scatters neighbouring keys.

/// A bijection of 1..=rows: logically adjacent keys land on scattered rows (blocks).
pub fn scatter(g: u64, rows: u64) -> u64 {
    ((g - 1) * multiplier(rows)) % rows + 1
}

/// A multiplier coprime to `rows`, about 0.618 of it (so neighbours land far apart).
pub fn multiplier(rows: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut m = ((rows as f64 * 0.618_033_988) as u64).max(1);
    while rows > 1 && gcd(m, rows) != 1 {
        m += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatter_is_a_permutation() {
        for rows in [1u64, 2, 7, 100, 1000, 4096] {
            let mut seen: Vec<u64> = (1..=rows).map(|g| scatter(g, rows)).collect();
            seen.sort();
            assert_eq!(seen, (1..=rows).collect::<Vec<_>>(), "rows {rows}");
        }
    }
}
