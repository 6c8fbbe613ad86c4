//! Flags whose values are the analysis's own words: the device counts behind two compared
//! runs (`--devices`), the I/O sizes a path is judged at (`--io-size`).

use dbio_model::units::parse_size;

/// Why a flag's value cannot be read; Display names the flag, the value and what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    /// `--devices` not written A=N,B=M.
    #[error("--devices {0}: write A=N,B=M with the device counts behind the runs, e.g. A=75,B=6")]
    Devices(String),
    /// One of `--io-size`'s sizes is not an I/O size.
    #[error("--io-size {list}: '{size}' is not an I/O size; write e.g. 8k,64k,1m")]
    IoSize { list: String, size: String },
}

/// `--devices A=75,B=6`: the device counts behind the first run (A) and the others (B).
pub fn devices(v: &str) -> Result<(f64, f64), FlagError> {
    let bad = || FlagError::Devices(v.to_string());
    let mut a = None;
    let mut b = None;
    for part in v.split(',') {
        let (k, n) = part.split_once('=').ok_or_else(bad)?;
        let n: f64 = n
            .trim()
            .parse()
            .ok()
            .filter(|n: &f64| *n > 0.0)
            .ok_or_else(bad)?;
        match k.trim() {
            "A" | "a" => a = Some(n),
            "B" | "b" => b = Some(n),
            _ => return Err(bad()),
        }
    }
    Ok((a.ok_or_else(bad)?, b.ok_or_else(bad)?))
}

/// `--io-size 8k,64k,1m`: the sizes, in bytes, in their order; none may be zero.
pub fn io_sizes(list: &str) -> Result<Vec<u64>, FlagError> {
    list.split(',')
        .map(|v| match parse_size(v) {
            Ok(0) | Err(_) => Err(FlagError::IoSize {
                list: list.to_string(),
                size: v.to_string(),
            }),
            Ok(s) => Ok(s),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_counts_and_sizes_are_read_or_refused_by_name() {
        assert_eq!(devices("A=75,b=6"), Ok((75.0, 6.0)));
        assert!(devices("A=75").is_err());
        assert!(devices("A=0,B=1").is_err());
        assert_eq!(io_sizes("8k,1m"), Ok(vec![8192, 1 << 20]));
        assert!(io_sizes("8k,0").is_err());
    }
}
