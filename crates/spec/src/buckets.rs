//! `--buckets`: the sizes an array rounds compressed blocks up to, as a preset, a list or a
//! range in steps of its start.

use crate::error::SpecError;
use dbio_model::units::parse_size;

/// Named bucket sets (approximations from reference.md "Data reduction").
pub const PRESETS: [(&str, &str); 2] = [
    ("xtremio", "1k..128k"), // 1 KiB steps: a 16 KB block compressed to 4,444 bytes takes 5 KB
    ("pure-like", "512..128k"), // 512-byte granularity
];

/// The name to show and the ascending sizes of `spec`, or a one-line message.
pub fn parse(spec: &str) -> Result<(String, Vec<u64>), SpecError> {
    let err = |what: String| {
        SpecError::Invalid(format!("--buckets {spec}: {what}; give a preset (xtremio, pure-like), a list like 2k,4k,8k or a range like 1k..16k"))
    };
    let (name, body) = match PRESETS.iter().find(|(n, _)| *n == spec) {
        Some((n, b)) => (n.to_string(), *b),
        None => (spec.to_string(), spec),
    };
    let size = |s: &str| {
        parse_size(s.trim())
            .map_err(|e| err(format!("{s}: {e}")))
            .and_then(|v| {
                if v == 0 {
                    Err(err("a bucket of 0 bytes".into()))
                } else {
                    Ok(v)
                }
            })
    };
    let mut sizes = if let Some((a, b)) = body.split_once("..") {
        let (a, b) = (size(a)?, size(b)?);
        if b < a {
            return Err(err("the range ends before it starts".into()));
        }
        if (b - a) / a > 100_000 {
            return Err(err("more than 100,000 buckets".into()));
        }
        (1..=b / a).map(|k| k * a).collect()
    } else {
        body.split(',')
            .map(size)
            .collect::<Result<Vec<u64>, SpecError>>()?
    };
    sizes.sort_unstable();
    sizes.dedup();
    Ok((name, sizes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(parse("1k..4k").unwrap().1, vec![1024, 2048, 3072, 4096]);
        assert_eq!(parse("8k,2k,4k").unwrap().1, vec![2048, 4096, 8192]);
        let (name, x) = parse("xtremio").unwrap();
        assert_eq!((name.as_str(), x[4], x.len()), ("xtremio", 5120, 128));
        assert_eq!(parse("pure-like").unwrap().1[..2], [512, 1024]);
        assert!(parse("4k..1k")
            .unwrap_err()
            .to_string()
            .contains("--buckets 4k..1k"));
        assert!(parse("lots").is_err());
    }
}
