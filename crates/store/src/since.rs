//! `--since` of `dbio history`: a date, a time or an age, as the RFC 3339 time the
//! history's filter takes.

use dbio_model::units::parse_duration;
use std::time::{Duration, SystemTime};

/// What `--since` takes, said after each refusal.
const HINT: &str = "give a date (2026-11-01), a time (2026-11-01T08:00:00Z) or an age (2h, 7d)";

/// A `--since` value that is none of a date, a time or an age.
#[derive(Debug, thiserror::Error)]
pub enum SinceError {
    /// A date or time that does not parse.
    #[error("--since {value}: not a valid date or time ({why}); {HINT}")]
    Date { value: String, why: String },
    /// An age too long to subtract from now.
    #[error("--since {0}: too long an age; {HINT}")]
    TooLong(String),
    /// An age that does not parse.
    #[error("--since {value}: {why}; {HINT}")]
    Age { value: String, why: String },
}

/// `--since`: a date or time (`2026-11-01`, `2026-11-01T08:00:00Z`) or an age (`2h`, `7d`).
pub fn since(v: &str) -> Result<String, SinceError> {
    let v = v.trim();
    // Bytes, not a str slice: a multi-byte character across byte 4 must not panic.
    let b = v.as_bytes();
    if b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' {
        let full = if v.len() == 10 {
            format!("{v}T00:00:00Z")
        } else {
            v.to_string()
        };
        let at = humantime::parse_rfc3339_weak(&full).map_err(|e| SinceError::Date {
            value: v.into(),
            why: e.to_string(),
        })?;
        return Ok(humantime::format_rfc3339_seconds(at).to_string());
    }
    let age = match v.strip_suffix('d').and_then(|d| d.parse::<f64>().ok()) {
        Some(days) if days >= 0.0 => Duration::try_from_secs_f64(days * 86_400.0)
            .map_err(|_| SinceError::TooLong(v.into()))?,
        _ => parse_duration(v).map_err(|e| SinceError::Age {
            value: v.into(),
            why: e.to_string(),
        })?,
    };
    // An age reaching before 1970 means every run.
    let at = SystemTime::now()
        .checked_sub(age)
        .filter(|t| *t >= SystemTime::UNIX_EPOCH)
        .unwrap_or(SystemTime::UNIX_EPOCH);
    Ok(humantime::format_rfc3339_seconds(at).to_string())
}

#[cfg(test)]
mod tests {
    use super::since;

    /// Found by the `flags` fuzz target: a character of two bytes across byte 4 panicked.
    #[test]
    fn a_character_across_the_fifth_byte_is_refused() {
        let e = since("000é").unwrap_err().to_string();
        assert!(e.starts_with("--since 000é:"), "{e}");
        assert_eq!(since("2026-11-01").unwrap(), "2026-11-01T00:00:00Z");
    }
}
