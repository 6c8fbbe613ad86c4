//! Hosts as the user names them: `host`, `user@host`, `host:port` or `user@host:port`, on
//! the command line or one per line in a file.

/// One host of a fleet and how to reach it with ssh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    /// The host as written (user@host:port): its name in the results.
    pub name: String,
    /// What ssh is given: `user@host` or `host`.
    pub destination: String,
    pub port: Option<u16>,
}

/// A host that cannot be named so; Display says what is wrong with it.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("an empty host name")]
    Empty,
    #[error("{0:?} is not a host name (user@host:port, with no spaces, quotes or leading '-')")]
    NotAName(String),
    #[error("{host}: '{port}' is not a port number")]
    Port { host: String, port: String },
}

/// Why the hosts of `--hosts`/`--hosts-file` cannot be used; Display names the flag.
#[derive(Debug, thiserror::Error)]
pub enum HostsError {
    #[error("--hosts-file {file}: {source}")]
    File {
        file: String,
        source: std::io::Error,
    },
    #[error("--hosts: {0}")]
    Bad(HostError),
    #[error("--hosts: {0} is named twice")]
    Twice(String),
    #[error("--hosts: no hosts given")]
    None,
}

/// Parses one host; the error says what is wrong with it.
pub fn parse_host(s: &str) -> Result<Host, HostError> {
    let s = s.trim();
    if s.is_empty() {
        return Err(HostError::Empty);
    }
    if s.starts_with('-')
        || s.chars()
            .any(|c| c.is_whitespace() || c == '\'' || c == '"')
    {
        return Err(HostError::NotAName(s.to_string()));
    }
    let (dest, port) = match s.rsplit_once(':') {
        // An IPv6 address in brackets keeps its colons: [::1]:2222.
        Some((d, p)) if !d.contains(':') || d.ends_with(']') => {
            let port = p
                .parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| HostError::Port {
                    host: s.to_string(),
                    port: p.to_string(),
                })?;
            (d.trim_start_matches('[').trim_end_matches(']'), Some(port))
        }
        _ => (s, None),
    };
    Ok(Host {
        name: s.to_string(),
        destination: dest.to_string(),
        port,
    })
}

/// The hosts of `--hosts` (comma-separated, repeatable) and of `--hosts-file` (one per line;
/// blank lines and `#` comments skipped). Duplicates are refused: one host, one result.
pub fn parse_hosts(list: &[String], file: Option<&str>) -> Result<Vec<Host>, HostsError> {
    let mut names: Vec<String> = list
        .iter()
        .flat_map(|l| l.split(','))
        .map(str::to_string)
        .collect();
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|source| HostsError::File {
            file: f.to_string(),
            source,
        })?;
        names.extend(
            text.lines()
                .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
                .filter(|l| !l.is_empty()),
        );
    }
    let mut hosts: Vec<Host> = Vec::new();
    for n in names {
        let h = parse_host(&n).map_err(HostsError::Bad)?;
        if hosts.iter().any(|o| o.name == h.name) {
            return Err(HostsError::Twice(h.name));
        }
        hosts.push(h);
    }
    if hosts.is_empty() {
        return Err(HostsError::None);
    }
    Ok(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_a_host() {
        let h = parse_host("dba@db1.example:2222").unwrap();
        assert_eq!(
            (h.destination.as_str(), h.port),
            ("dba@db1.example", Some(2222))
        );
        let h = parse_host("10.0.0.7").unwrap();
        assert_eq!((h.destination.as_str(), h.port), ("10.0.0.7", None));
        let h = parse_host("[fd00::7]:22").unwrap();
        assert_eq!((h.destination.as_str(), h.port), ("fd00::7", Some(22)));
        assert_eq!(parse_host("fd00::7").unwrap().port, None);
    }

    #[test]
    fn bad_hosts_are_named() {
        for (bad, why) in [
            ("", "empty"),
            ("-oProxyCommand=x", "not a host name"),
            ("a b", "not a host name"),
            ("db1:http", "not a port number"),
            ("db1:0", "not a port number"),
        ] {
            let e = parse_host(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert!(parse_hosts(&["a,b,a".into()], None)
            .unwrap_err()
            .to_string()
            .contains("a is named twice"));
    }
}
