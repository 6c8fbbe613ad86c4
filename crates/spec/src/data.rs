//! `--data`: random, zeros, pattern:0xHH…, or dedupe:R,compress:C[,unit:SIZE]; and the
//! rule that reducible data is written in whole dedupe units.

use crate::error::SpecError;
use dbio_model::units::parse_size;
use dbio_model::{DataKind, Reducibility};

/// Largest dedupe ratio accepted.
const MAX_DEDUPE: f64 = 1000.0;
/// Largest compression ratio accepted (LZ4 then gives ~5 % less; the fixed cost of a 4 KiB
/// chunk's zero run weighs more as its incompressible part shrinks).
const MAX_COMPRESS: f64 = 16.0;
/// Longest pattern, in bytes.
const MAX_PATTERN: usize = 512;

const FORMS: &str =
    "use random, zeros, pattern:0xDEADBEEF or dedupe:R,compress:C[,unit:SIZE], e.g. dedupe:3,compress:2";

/// Parses a `--data` value.
pub fn parse_data(v: &str) -> Result<DataKind, SpecError> {
    let bad = |why: String| format!("--data {v}: {why}");
    match v {
        "random" => return Ok(DataKind::Random),
        "zeros" => return Ok(DataKind::Zeros),
        _ => {}
    }
    if let Some(hex) = v.strip_prefix("pattern:") {
        let digits = hex
            .strip_prefix("0x")
            .or_else(|| hex.strip_prefix("0X"))
            .ok_or_else(|| {
                bad("write the pattern in hex after 0x, e.g. pattern:0xDEADBEEF".into())
            })?;
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad(
                "the pattern must be hex digits after 0x, e.g. pattern:0xDEADBEEF".into(),
            )
            .into());
        }
        if digits.len() % 2 == 1 {
            return Err(bad(format!(
                "{} hex digits is not a whole number of bytes; give two digits a byte, e.g. 0x0{digits}",
                digits.len()
            )).into());
        }
        if digits.len() / 2 > MAX_PATTERN {
            return Err(bad(format!("the pattern is longer than {MAX_PATTERN} bytes")).into());
        }
        return Ok(DataKind::Pattern(format!(
            "0x{}",
            digits.to_ascii_lowercase()
        )));
    }
    let (mut dedupe, mut compress, mut unit) = (None, None, None);
    for part in v.split(',') {
        let (key, val) = part
            .split_once(':')
            .ok_or_else(|| bad(format!("unknown kind '{part}'; {FORMS}")))?;
        let ratio = |what: &str, max: f64| -> Result<f64, SpecError> {
            match val.trim().parse::<f64>() {
                Ok(x) if (1.0..=max).contains(&x) => Ok(x),
                Ok(_) => Err(bad(format!(
                    "the {what} ratio {val} is out of range; give 1 (none) to {max}, e.g. {key}:2"
                ))
                .into()),
                Err(_) => Err(bad(format!(
                    "the {what} ratio '{val}' is not a number, e.g. {key}:2"
                ))
                .into()),
            }
        };
        let first = match key {
            "dedupe" => dedupe.replace(ratio("dedupe", MAX_DEDUPE)?).is_none(),
            "compress" => compress
                .replace(ratio("compression", MAX_COMPRESS)?)
                .is_none(),
            "unit" => {
                let u = parse_size(val).map_err(|e| bad(format!("unit: {e}")))?;
                if !u.is_power_of_two() || !(4096..=131072).contains(&u) {
                    return Err(bad(format!(
                        "unit {val}: the dedupe unit is 4k, 8k, 16k, 32k, 64k or 128k"
                    ))
                    .into());
                }
                unit.replace(u).is_none()
            }
            _ => return Err(bad(format!("unknown kind '{key}'; {FORMS}")).into()),
        };
        if !first {
            return Err(bad(format!("{key} is given twice; give it once")).into());
        }
    }
    if dedupe.is_none() && compress.is_none() {
        return Err(bad(format!("give a dedupe or a compress ratio; {FORMS}")).into());
    }
    Ok(DataKind::Reducible(Reducibility {
        dedupe: dedupe.unwrap_or(1.0),
        compress: compress.unwrap_or(1.0),
        unit: unit.unwrap_or(8192),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(parse_data("random"), Ok(DataKind::Random));
        assert_eq!(
            parse_data("pattern:0xDEADBEEF"),
            Ok(DataKind::Pattern("0xdeadbeef".into()))
        );
        assert_eq!(
            parse_data("compress:2,dedupe:3"),
            Ok(DataKind::Reducible(Reducibility {
                dedupe: 3.0,
                compress: 2.0,
                unit: 8192
            }))
        );
        assert_eq!(
            parse_data("dedupe:1.5,unit:16k"),
            Ok(DataKind::Reducible(Reducibility {
                dedupe: 1.5,
                compress: 1.0,
                unit: 16384
            }))
        );
    }

    #[test]
    fn bad_values_name_the_flag_and_value() {
        for bad in [
            "dedupe:0",
            "compress:0.5",
            "dedupe:3,unit:3k",
            "dedupe:3,unit:256k",
            "lumpy",
            "lumpy:3",
            "pattern:0xABC",
            "pattern:DEAD",
            "pattern:0xZZ",
            "unit:8k",
            "dedupe:x",
            "dedupe:2,dedupe:3",
        ] {
            let e = parse_data(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--data {bad}: ")), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
