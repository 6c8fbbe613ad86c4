//! Parsing and printing sizes ("8k", "1GiB") and durations ("30s", "500ms").

use thiserror::Error;

/// A size or duration string dbio could not read.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{what} '{input}': {why}")]
pub struct UnitError {
    pub what: &'static str,
    pub input: String,
    pub why: String,
}

/// Parses a byte size. Suffixes are binary (k = KiB = 1024, like fio):
/// `4096`, `8k`, `8K`, `8KiB`, `8KB`, `1m`, `1MiB`, `4g`, `1t`. Fractions such as `1.5g` are allowed
/// when they come to a whole number of bytes.
pub fn parse_size(input: &str) -> Result<u64, UnitError> {
    let err = |why: &str| UnitError {
        what: "size",
        input: input.to_string(),
        why: why.to_string(),
    };
    let s = input.trim();
    if s.is_empty() {
        return Err(err(
            "empty; give a number of bytes or use a suffix like 8k, 64KiB, 1m, 4GiB",
        ));
    }
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let mult: u64 = match suffix.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        "p" | "pb" | "pib" => 1 << 50,
        _ => return Err(err("unknown unit; use b, k/KiB, m/MiB, g/GiB or t/TiB")),
    };
    if num.is_empty() {
        return Err(err("no number before the unit"));
    }
    let value: f64 = num.parse().map_err(|_| err("not a number"))?;
    let bytes = value * mult as f64;
    if !bytes.is_finite() || bytes > u64::MAX as f64 / 2.0 {
        return Err(err("too large"));
    }
    if bytes.fract() != 0.0 {
        return Err(err("not a whole number of bytes"));
    }
    Ok(bytes as u64)
}

/// Parses a duration: `30` (seconds), `30s`, `500ms`, `2m`, `1h`, `1m30s`.
pub fn parse_duration(input: &str) -> Result<std::time::Duration, UnitError> {
    let err = |why: &str| UnitError {
        what: "duration",
        input: input.to_string(),
        why: why.to_string(),
    };
    let s = input.trim();
    if s.is_empty() {
        return Err(err("empty; use e.g. 30s, 500ms, 2m or 1h"));
    }
    if let Ok(secs) = s.parse::<f64>() {
        if !(0.0..1e9).contains(&secs) {
            return Err(err("out of range"));
        }
        return Ok(std::time::Duration::from_secs_f64(secs));
    }
    let mut total = 0f64;
    let mut rest = s;
    while !rest.is_empty() {
        let n_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| err("a number needs a unit (ms, s, m, h)"))?;
        if n_end == 0 {
            return Err(err("expected a number"));
        }
        let value: f64 = rest[..n_end].parse().map_err(|_| err("not a number"))?;
        rest = &rest[n_end..];
        let u_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..u_end] {
            "ns" => 1e-9,
            "us" | "µs" => 1e-6,
            "ms" => 1e-3,
            "s" | "sec" => 1.0,
            "m" | "min" => 60.0,
            "h" => 3600.0,
            _ => return Err(err("unknown unit; use ns, us, ms, s, m or h")),
        };
        total += value * scale;
        rest = &rest[u_end..];
    }
    if total >= 1e9 {
        return Err(err("out of range"));
    }
    Ok(std::time::Duration::from_secs_f64(total))
}

/// Parses a latency or service time as [`parse_duration`] does, but refuses a bare number:
/// in a limit or a device model it would silently mean seconds.
pub fn parse_latency(input: &str) -> Result<std::time::Duration, UnitError> {
    if input.trim().parse::<f64>().is_ok() {
        return Err(UnitError {
            what: "latency",
            input: input.to_string(),
            why: "needs a unit (a bare number would be seconds); give a unit such as 500us or 1ms"
                .to_string(),
        });
    }
    parse_duration(input)
}

/// Prints a byte count the way people read sizes: `8 KiB`, `1 MiB`, `1.5 GiB`, `512 B`.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if v.fract() == 0.0 {
        format!("{} {}", v as u64, UNITS[i])
    } else {
        format!("{:.1} {}", v, UNITS[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("8k"), Ok(8192));
        assert_eq!(parse_size("8KiB"), Ok(8192));
        assert_eq!(parse_size("64KB"), Ok(65536));
        assert_eq!(parse_size("1m"), Ok(1 << 20));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert!(parse_size("8q").unwrap_err().why.contains("unknown unit"));
        assert!(parse_size("").is_err());
        assert!(parse_size("k").is_err());
        assert!(parse_size("0.3").is_err());
    }

    #[test]
    fn durations() {
        use std::time::Duration;
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_duration("40ns"), Ok(Duration::from_nanos(40)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("3 days").is_err());
        assert!(parse_duration("-1").is_err());
    }

    #[test]
    fn printing() {
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(8192), "8 KiB");
        assert_eq!(format_size(3 << 29), "1.5 GiB");
    }
}
