//! Passwords from where database people keep them, so that none need be on the command line
//! (where `/proc/PID/cmdline` shows it to every user of the host): PostgreSQL's `PGPASSWORD`
//! and password file (`PGPASSFILE`, `~/.pgpass`), MariaDB's `MYSQL_PWD` and option file
//! (`~/.my.cnf`, groups `[client]`, `[client-server]`, `[client-mariadb]`).

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// What a PostgreSQL login is for: the fields a `~/.pgpass` line matches.
pub struct PgLogin<'a> {
    pub host: &'a str,
    pub port: u16,
    pub database: &'a str,
    pub user: &'a str,
}

/// The password for `login`: `PGPASSWORD`, else the password file's first matching line.
/// An error for a password file others may read (libpq ignores it; so does dbio, saying so).
pub fn pg_password(login: &PgLogin) -> Result<Option<String>, String> {
    if let Some(p) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        return Ok(Some(p));
    }
    let Some(file) = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".pgpass")))
    else {
        return Ok(None);
    };
    let Ok(meta) = std::fs::metadata(&file) else {
        return Ok(None);
    };
    if meta.permissions().mode() & 0o077 != 0 {
        return Err(format!(
            "{}: the password file may be read by others (mode {:o}), so it is not used; run chmod 600 {}",
            file.display(),
            meta.permissions().mode() & 0o777,
            file.display()
        ));
    }
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(text.lines().find_map(|l| pgpass_match(l, login)))
}

/// The password of a `host:port:database:user:password` line when it matches `login`
/// (`*` matches anything; `\:` and `\\` are a colon and a backslash).
fn pgpass_match(line: &str, login: &PgLogin) -> Option<String> {
    if line.trim_start().starts_with('#') {
        return None;
    }
    let fields = split_escaped(line);
    if fields.len() < 5 {
        return None;
    }
    let port = login.port.to_string();
    let wanted = [login.host, &port, login.database, login.user];
    let matches = fields.iter().zip(wanted).all(|(f, w)| f == "*" || f == w);
    matches.then(|| fields[4..].join(":"))
}

/// Splits a `.pgpass` line at unescaped colons, undoing the escapes.
fn split_escaped(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut().expect("one").extend(chars.next()),
            ':' => fields.push(String::new()),
            c => fields.last_mut().expect("one").push(c),
        }
    }
    fields
}

/// The MariaDB/MySQL password: `MYSQL_PWD`, else `password` in `~/.my.cnf`'s client groups.
pub fn my_password() -> Option<String> {
    if let Some(p) = std::env::var("MYSQL_PWD").ok().filter(|p| !p.is_empty()) {
        return Some(p);
    }
    let text = std::fs::read_to_string(home()?.join(".my.cnf")).ok()?;
    option_file_password(&text)
}

/// The last `password` of the groups `[client]`, `[client-server]` and `[client-mariadb]`
/// (later ones win, as in the client), quotes removed.
fn option_file_password(text: &str) -> Option<String> {
    let mut in_client = false;
    let mut found = None;
    for line in text.lines().map(str::trim) {
        if let Some(group) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            in_client = matches!(group.trim(), "client" | "client-server" | "client-mariadb");
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if in_client && key.trim() == "password" {
            let v = value.trim();
            let unquoted = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                .unwrap_or(v);
            found = Some(unquoted.to_string());
        }
    }
    found
}

/// The user's home folder.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgpass_lines_match_as_libpq_matches_them() {
        let login = PgLogin {
            host: "127.0.0.1",
            port: 5432,
            database: "bench",
            user: "dbio",
        };
        assert_eq!(
            pgpass_match("127.0.0.1:5432:bench:dbio:s3cr:et", &login).as_deref(),
            Some("s3cr:et")
        );
        assert_eq!(
            pgpass_match("*:*:*:dbio:a\\:b\\\\c", &login).as_deref(),
            Some("a:b\\c")
        );
        assert_eq!(pgpass_match("*:5433:*:dbio:x", &login), None);
        assert_eq!(pgpass_match("#*:*:*:*:x", &login), None);
        assert_eq!(pgpass_match("*:*:*", &login), None);
    }

    #[test]
    fn option_file_client_groups_only() {
        let text = "[mysqld]\npassword = server\n[client]\nuser = u\npassword = \"p w\"\n[mysql]\npassword = other\n";
        assert_eq!(option_file_password(text).as_deref(), Some("p w"));
        assert_eq!(option_file_password("[mysqld]\npassword=x\n"), None);
    }
}
