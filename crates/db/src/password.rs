//! Passwords from where database people keep them, so that none need be on the command line
//! (where `/proc/PID/cmdline` shows it to every user of the host): PostgreSQL's `PGPASSWORD`
//! and password file (`PGPASSFILE`, `~/.pgpass`), MariaDB's `MYSQL_PWD` and option file
//! (`~/.my.cnf`, groups `[client]`, `[client-server]`, `[client-mariadb]`).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// What a PostgreSQL login is for: the fields a `~/.pgpass` line matches.
pub struct PgLogin<'a> {
    pub host: &'a str,
    pub port: u16,
    pub database: &'a str,
    pub user: &'a str,
}

/// The password for `login`: `PGPASSWORD`, else the password file's first matching line.
/// A password file others may read is skipped, as libpq skips it; [`ignored_pgpass`] says so
/// when the server then asks for a password.
pub fn pg_password(login: &PgLogin) -> Option<String> {
    if let Some(p) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        return Some(p);
    }
    password_in(&pgpass_file()?, login)
}

/// The password file: `PGPASSFILE`, else `~/.pgpass`.
fn pgpass_file() -> Option<PathBuf> {
    std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join(".pgpass")))
}

/// The first password of `file` matching `login`; None when there is none, the file cannot
/// be read, or others may read it.
fn password_in(file: &Path, login: &PgLogin) -> Option<String> {
    if open_to_others(file) {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    text.lines().find_map(|l| pgpass_match(l, login))
}

/// Whether `file` exists and its group or others have any permission on it.
fn open_to_others(file: &Path) -> bool {
    std::fs::metadata(file).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
}

/// The password file, when it was skipped because others may read it (for the message
/// when the server then asks for a password).
pub fn ignored_pgpass() -> Option<PathBuf> {
    pgpass_file().filter(|f| open_to_others(f))
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

    /// A password file others may read is skipped (libpq only warns), not an error that
    /// would stop logins needing no password; the same file at mode 600 is used.
    #[test]
    fn a_password_file_others_may_read_is_skipped() {
        let dir = std::env::temp_dir().join(format!("dbio-pgpass-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("pgpass");
        std::fs::write(&file, "*:*:*:*:pw\n").unwrap();
        let login = PgLogin {
            host: "h",
            port: 5432,
            database: "d",
            user: "u",
        };
        let mode = |m| std::fs::set_permissions(&file, std::fs::Permissions::from_mode(m));
        mode(0o640).unwrap();
        assert!(open_to_others(&file));
        assert_eq!(password_in(&file, &login), None);
        mode(0o600).unwrap();
        assert!(!open_to_others(&file));
        assert_eq!(password_in(&file, &login).as_deref(), Some("pw"));
        assert!(!open_to_others(&dir.join("none")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn option_file_client_groups_only() {
        let text = "[mysqld]\npassword = server\n[client]\nuser = u\npassword = \"p w\"\n[mysql]\npassword = other\n";
        assert_eq!(option_file_password(text).as_deref(), Some("p w"));
        assert_eq!(option_file_password("[mysqld]\npassword=x\n"), None);
    }
}
