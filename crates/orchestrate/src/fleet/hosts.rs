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

/// Parses one host; the message says what is wrong with it.
pub fn parse_host(s: &str) -> Result<Host, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("an empty host name".into());
    }
    if s.starts_with('-')
        || s.chars()
            .any(|c| c.is_whitespace() || c == '\'' || c == '"')
    {
        return Err(format!(
            "{s:?} is not a host name (user@host:port, with no spaces, quotes or leading '-')"
        ));
    }
    let (dest, port) = match s.rsplit_once(':') {
        // An IPv6 address in brackets keeps its colons: [::1]:2222.
        Some((d, p)) if !d.contains(':') || d.ends_with(']') => {
            let port = p
                .parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("{s}: '{p}' is not a port number"))?;
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
pub fn parse_hosts(list: &[String], file: Option<&str>) -> Result<Vec<Host>, String> {
    let mut names: Vec<String> = list
        .iter()
        .flat_map(|l| l.split(','))
        .map(str::to_string)
        .collect();
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|e| format!("--hosts-file {f}: {e}"))?;
        names.extend(
            text.lines()
                .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
                .filter(|l| !l.is_empty()),
        );
    }
    let mut hosts: Vec<Host> = Vec::new();
    for n in names {
        let h = parse_host(&n).map_err(|m| format!("--hosts: {m}"))?;
        if hosts.iter().any(|o| o.name == h.name) {
            return Err(format!("--hosts: {} is named twice", h.name));
        }
        hosts.push(h);
    }
    if hosts.is_empty() {
        return Err("--hosts: no hosts given".into());
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
            let e = parse_host(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert!(parse_hosts(&["a,b,a".into()], None)
            .unwrap_err()
            .contains("a is named twice"));
    }
}
