//! `--vary KEY=VALUES` of `dbio sweep`: the setting a sweep changes and its values, as a
//! list (`qd=1,2,4,8`) or a geometric range (`qd=1..128x2`, `bs=8k..1mx2`).

use crate::error::SpecError;
use crate::vary::{Vary, Varying, KEYS};
use dbio_model::units::parse_size;

/// Parses `KEY=V1,V2,…` or `KEY=FROM..TOxFACTOR` into the typed changes of a sweep's steps.
pub fn parse_vary(v: &str) -> Result<Varying, SpecError> {
    let bad = |why: String| format!("--vary {v}: {why}");
    let (key, list) = v
        .split_once('=')
        .ok_or_else(|| bad("write KEY=VALUES, e.g. qd=1,2,4,8 or qd=1..128x2".into()))?;
    let key = *KEYS.iter().find(|k| **k == key).ok_or_else(|| {
        bad(format!(
            "cannot vary '{key}'; vary one of {}",
            KEYS.join(", ")
        ))
    })?;
    let number = |s: &str| -> Result<u64, SpecError> {
        if key == "bs" {
            Ok(parse_size(s).map_err(|e| bad(e.to_string()))?)
        } else {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad(format!("'{s}' is not a whole number")).into())
        }
    };
    if key == "rate" && list.contains('x') && list.split([',', '.']).any(|v| v.ends_with('x')) {
        return rate_times(list).map_err(|why| bad(why).into());
    }
    let values: Vec<String> = match list.split_once("..") {
        Some((from, rest)) => {
            let (to, factor) = rest.split_once('x').ok_or_else(|| {
                bad("a range needs a factor: FROM..TOxFACTOR, e.g. 1..128x2".into())
            })?;
            let (from_n, to_n) = (number(from)?, number(to)?);
            let factor: u64 = factor
                .parse()
                .ok()
                .filter(|f| *f >= 2)
                .ok_or_else(|| bad("the factor must be a whole number of 2 or more".into()))?;
            if from_n == 0 || from_n > to_n {
                return Err(
                    bad("a range must start above 0 and not end below its start".into()).into(),
                );
            }
            let mut out = Vec::new();
            let mut x = from_n;
            while x <= to_n {
                out.push(x.to_string());
                x = x.saturating_mul(factor);
            }
            out
        }
        None => list
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if values.is_empty() {
        return Err(bad("no values".into()).into());
    }
    let nums = values
        .iter()
        .map(|s| number(s))
        .collect::<Result<Vec<_>, _>>()?;
    if key != "mix" && nums.windows(2).any(|w| w[1] <= w[0]) {
        return Err(bad(format!(
            "the values of {key} must increase from step to step"
        ))
        .into());
    }
    let steps = nums
        .iter()
        .map(|n| Vary::of(key, *n).map_err(|e| bad(e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Varying { key, values, steps })
}

/// `rate=1x,2x,4x` or `rate=1x..4x` (every whole multiple from 1x to 4x): multiples of the
/// base job's rate, in increasing order.
fn rate_times(list: &str) -> Result<Varying, String> {
    let times = |s: &str| -> Result<u64, String> {
        let f: f64 = s
            .trim()
            .strip_suffix('x')
            .unwrap_or(s)
            .parse()
            .map_err(|_| format!("'{s}' is not a multiple of the rate; write e.g. 2x or 1.5x"))?;
        let h = (f * 100.0).round();
        if f.is_finite() && (1.0..=100_000.0).contains(&h) {
            Ok(h as u64)
        } else {
            Err(format!("'{s}': a multiple from 0.01x to 1000x"))
        }
    };
    let hundredths: Vec<u64> = match list.split_once("..") {
        Some((from, to)) => {
            let (from, to) = (times(from)?, times(to)?);
            (0..)
                .map(|k| from + 100 * k)
                .take_while(|h| *h <= to)
                .collect()
        }
        None => list.split(',').map(times).collect::<Result<_, _>>()?,
    };
    if hundredths.is_empty() || hundredths.windows(2).any(|w| w[1] <= w[0]) {
        return Err("the multiples must increase from step to step".into());
    }
    Ok(Varying::new(
        hundredths.into_iter().map(Vary::RateTimes).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_multiples_scale_the_base_rate() {
        let v = parse_vary("rate=1x..4x").unwrap();
        assert_eq!(v.values, ["1x", "2x", "3x", "4x"]);
        assert_eq!(
            parse_vary("rate=0.5x,1.5x").unwrap().steps,
            [Vary::RateTimes(50), Vary::RateTimes(150)]
        );
        let mut base = crate::RawJob::default().check().unwrap();
        base.rate = Some(1000);
        let jobs = v.jobs(&base).unwrap();
        assert_eq!(
            jobs.iter().map(|j| j.rate).collect::<Vec<_>>(),
            [Some(1000), Some(2000), Some(3000), Some(4000)]
        );
        base.rate = None;
        let err = v.jobs(&base).unwrap_err().to_string();
        assert!(err.contains("has none"), "{err}");
        for bad in ["rate=2x,1x", "rate=0x", "rate=fastx"] {
            assert!(parse_vary(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lists_and_ranges() {
        let v = parse_vary("qd=1,2,4,8").unwrap();
        assert_eq!((v.key, v.values.len()), ("qd", 4));
        assert_eq!(
            parse_vary("qd=1..128x2").unwrap().values,
            ["1", "2", "4", "8", "16", "32", "64", "128"]
        );
        assert_eq!(
            parse_vary("bs=8k..32kx2").unwrap().values,
            ["8192", "16384", "32768"]
        );
        assert_eq!(
            parse_vary("bs=8k,64k,1m").unwrap().values,
            ["8k", "64k", "1m"]
        );
        assert_eq!(parse_vary("mix=90,50,10").unwrap().values.len(), 3);
        assert_eq!(
            parse_vary("bs=8k,64k").unwrap().steps,
            [Vary::Bs(8192), Vary::Bs(65536)]
        );
        assert_eq!(
            parse_vary("rate=100,200").unwrap().steps[1],
            Vary::Rate(200)
        );
    }

    #[test]
    fn refuses_with_the_reason() {
        for (bad, why) in [
            ("qd=", "no values"),
            ("qd=8,4", "must increase"),
            ("depth=1,2", "cannot vary 'depth'"),
            ("qd=1..8", "needs a factor"),
            ("qd=1..8x1", "factor"),
            ("qd=two", "not a whole number"),
            ("qd", "KEY=VALUES"),
            ("qd=1,99999999999", "too large"),
        ] {
            let e = parse_vary(bad).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("--vary {bad}: ")) && e.contains(why),
                "{e}"
            );
        }
    }
}
