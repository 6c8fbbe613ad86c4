//! Database URLs: which system they name, and the form that may be shown (no password).

use crate::error::DbError;

/// The database system a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Postgres,
    MySql,
}

/// The system of `url` from its scheme.
pub fn system(url: &str) -> Result<System, DbError> {
    let scheme = url.split_once("://").map(|x| x.0).unwrap_or("");
    match scheme.to_ascii_lowercase().as_str() {
        "postgres" | "postgresql" => Ok(System::Postgres),
        "mysql" | "mariadb" => Ok(System::MySql),
        _ => Err(DbError::UnknownScheme { url: redact(url) }),
    }
}

/// `url` with any password replaced by `***`, fit for output, history and JSON.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth_end, tail) = match rest.find(['/', '?']) {
        Some(i) => (i, &rest[i..]),
        None => (rest.len(), ""),
    };
    let authority = &rest[..auth_end];
    let authority = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((u, _)) => format!("{u}:***@{host}"),
            None => format!("{user}@{host}"),
        },
        None => authority.to_string(),
    };
    let tail = redact_query(tail);
    format!("{scheme}://{authority}{tail}")
}

/// Hides `password=` in a query string.
fn redact_query(tail: &str) -> String {
    let Some((path, q)) = tail.split_once('?') else {
        return tail.to_string();
    };
    let q: Vec<String> = q
        .split('&')
        .map(|kv| match kv.split_once('=') {
            Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
            _ => kv.to_string(),
        })
        .collect();
    format!("{path}?{}", q.join("&"))
}

/// Replaces every occurrence of the URL's password in `msg` (a driver's error may quote it).
pub fn scrub(msg: &str, url: &str) -> String {
    match password(url) {
        Some(p) if p.len() >= 2 => msg.replace(&p, "***"),
        _ => msg.to_string(),
    }
}

/// The password in `url`, percent-decoded, if any.
fn password(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let user = authority.rsplit_once('@')?.0;
    let raw = user.split_once(':')?.1;
    Some(percent_decode(raw))
}

/// Decodes %XX escapes.
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_shown() {
        assert_eq!(
            redact("postgres://u:s3cret@h:5/db"),
            "postgres://u:***@h:5/db"
        );
        assert_eq!(redact("mysql://u@h/db"), "mysql://u@h/db");
        assert_eq!(
            redact("postgres://u@h/db?password=s3cret&sslmode=disable"),
            "postgres://u@h/db?password=***&sslmode=disable"
        );
        assert_eq!(
            scrub("auth failed for s3cret", "mysql://u:s3cret@h"),
            "auth failed for ***"
        );
        assert_eq!(percent_decode("a%40b"), "a@b");
        assert_eq!(system("mariadb://x").unwrap(), System::MySql);
        assert!(system("oracle://x").is_err());
    }
}
