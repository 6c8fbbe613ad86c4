//! `--start-at`: the common instant a run starts measuring, read from RFC 3339 words.

use std::time::{Duration, SystemTime};

/// Why a `--start-at` time cannot be used; Display names the flag, the value and what to try.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartAtError {
    /// Not an RFC 3339 UTC time.
    #[error("--start-at {0}: write an RFC 3339 UTC time, e.g. 2026-12-01T10:00:00Z")]
    Malformed(String),
    /// More than a day away (a typo in the date would wait for months).
    #[error("--start-at {0}: that is more than a day away; give a time within the next 24 h")]
    TooFar(String),
}

/// The instant of `--start-at` (None when not given); refused when it is malformed or more
/// than a day away.
pub fn parse_start_at(t: Option<&str>) -> Result<Option<SystemTime>, StartAtError> {
    let Some(t) = t else {
        return Ok(None);
    };
    let at = humantime::parse_rfc3339_weak(t)
        .ok()
        .filter(|_| t.ends_with('Z'))
        .ok_or_else(|| StartAtError::Malformed(t.to_string()))?;
    if at.duration_since(SystemTime::now()).unwrap_or_default() > Duration::from_secs(86_400) {
        return Err(StartAtError::TooFar(t.to_string()));
    }
    Ok(Some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_must_be_utc_and_within_a_day() {
        assert_eq!(parse_start_at(None), Ok(None));
        assert!(matches!(
            parse_start_at(Some("2026-12-01T10:00:00")),
            Err(StartAtError::Malformed(_))
        ));
        assert!(matches!(
            parse_start_at(Some("2999-12-01T10:00:00Z")),
            Err(StartAtError::TooFar(_))
        ));
        assert!(parse_start_at(Some("2000-01-01T00:00:00Z"))
            .unwrap()
            .is_some());
    }
}
