//! The skew curve: objects in order of I/O density (I/Os per byte, densest first), their
//! cumulative share of the I/O against their cumulative share of the capacity, and the skew
//! point where the two shares add to 1 ("70 % of the I/O is in 30 % of the capacity").

use dbio_model::advise::{Skew, SkewPoint};

/// The skew of objects given as (size in bytes, I/Os); None when there is no I/O or no
/// capacity. Objects of size 0 with I/O come first (infinitely dense).
pub fn skew(objects: &[(u64, u64)]) -> Option<Skew> {
    let size: u128 = objects.iter().map(|o| o.0 as u128).sum();
    let ios: u128 = objects.iter().map(|o| o.1 as u128).sum();
    if size == 0 || ios == 0 {
        return None;
    }
    let mut order: Vec<&(u64, u64)> = objects.iter().collect();
    // a denser than b  <=>  a.ios * b.size > b.ios * a.size (exact in integers).
    order.sort_by(|a, b| {
        (b.1 as u128 * a.0 as u128)
            .cmp(&(a.1 as u128 * b.0 as u128))
            .then(b.1.cmp(&a.1))
    });
    let mut points = vec![SkewPoint {
        capacity_share: 0.0,
        io_share: 0.0,
    }];
    let (mut cs, mut ci) = (0u128, 0u128);
    for o in order {
        cs += o.0 as u128;
        ci += o.1 as u128;
        points.push(SkewPoint {
            capacity_share: cs as f64 / size as f64,
            io_share: ci as f64 / ios as f64,
        });
    }
    let (x, y) = crossing(&points);
    let io_pct = (y * 100.0).round();
    Some(Skew {
        sentence: format!(
            "{io_pct:.0} % of the I/O is in {:.0} % of the capacity",
            100.0 - io_pct
        ),
        points,
        io_share: y,
        capacity_share: x,
    })
}

/// Where the polyline crosses capacity share + I/O share = 1.
fn crossing(points: &[SkewPoint]) -> (f64, f64) {
    let sum = |p: &SkewPoint| p.capacity_share + p.io_share;
    for w in points.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if sum(b) >= 1.0 {
            let t = if sum(b) > sum(a) {
                (1.0 - sum(a)) / (sum(b) - sum(a))
            } else {
                0.0
            };
            return (
                a.capacity_share + t * (b.capacity_share - a.capacity_share),
                a.io_share + t * (b.io_share - a.io_share),
            );
        }
    }
    (0.5, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_point_by_hand() {
        // A: 10 % of the capacity, 60 % of the I/O; B: 20 %, 20 %; C: 70 %, 20 %.
        // Densest first: A (6 I/Os per unit), B (1), C (0.29). The curve runs through
        // (0, 0), (0.1, 0.6), (0.3, 0.8), (1, 1); the shares add to 0.7 at A and 1.1 at B,
        // so the point lies 3/4 of the way from A to B: (0.1 + 0.75 × 0.2, 0.6 + 0.75 × 0.2)
        // = (0.25, 0.75).
        let s = skew(&[(700, 20), (100, 60), (200, 20)]).unwrap();
        assert!((s.capacity_share - 0.25).abs() < 1e-12, "{s:?}");
        assert!((s.io_share - 0.75).abs() < 1e-12);
        assert_eq!(s.sentence, "75 % of the I/O is in 25 % of the capacity");
        assert_eq!(s.points.len(), 4);
        assert_eq!(s.points[3].io_share, 1.0);
    }

    #[test]
    fn no_skew_is_half_and_half() {
        let s = skew(&[(100, 100), (100, 100)]).unwrap();
        assert!((s.io_share - 0.5).abs() < 1e-12);
        assert_eq!(s.sentence, "50 % of the I/O is in 50 % of the capacity");
    }

    #[test]
    fn nothing_to_draw() {
        assert!(skew(&[(100, 0)]).is_none());
        assert!(skew(&[(0, 10)]).is_none());
    }
}
