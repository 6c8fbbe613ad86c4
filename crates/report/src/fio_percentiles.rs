//! fio's `percentile_list` (`99:99.9:99.99`): the percentiles `--json-format fio` lists
//! under `clat_ns.percentile`, in place of fio's default seventeen.

/// The percentiles of a `percentile_list`, sorted as fio sorts them (0 to 100, at most 20).
#[derive(Debug, Clone, PartialEq)]
pub struct Percentiles(pub Vec<f64>);

/// fio's longest percentile_list (FIO_IO_U_LIST_MAX_LEN).
const MOST: usize = 20;

impl Percentiles {
    /// Reads fio's form, percentiles between 0 and 100 separated by `:`; Err says what is
    /// wrong and what to give.
    pub fn parse(list: &str) -> Result<Percentiles, String> {
        let mut v = Vec::new();
        for word in list.split(':') {
            match word.trim().parse::<f64>() {
                Ok(p) if (0.0..=100.0).contains(&p) => v.push(p),
                _ => {
                    return Err(format!(
                        "'{word}' is not a percentile from 0 to 100; give them as fio's percentile_list does, e.g. 99:99.9:99.99"
                    ))
                }
            }
        }
        if v.len() > MOST {
            return Err(format!("{} percentiles: fio takes at most {MOST}", v.len()));
        }
        v.sort_by(f64::total_cmp);
        Ok(Percentiles(v))
    }
}

/// A percentile as fio's JSON keys it (`%f`: "99.900000").
pub fn key(p: f64) -> String {
    format!("{p:.6}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_s_list_is_read_sorted_and_bad_words_are_named() {
        let p = Percentiles::parse("99.99:50:99.9").unwrap();
        assert_eq!(p.0, [50.0, 99.9, 99.99]);
        assert_eq!(key(99.9), "99.900000");
        let e = Percentiles::parse("99:abc").unwrap_err();
        assert!(e.starts_with("'abc' is not a percentile"), "{e}");
        assert!(Percentiles::parse("101").is_err());
        assert!(Percentiles::parse(&["1"; 21].join(":")).is_err());
    }
}
