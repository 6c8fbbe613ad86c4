//! The built-in workload profiles (TOML embedded in the binary) and loading a user's own.

use crate::error::SpecError;
use dbio_model::profile::Profile;

/// Name and TOML of every built-in profile, in the order `dbio profiles` lists them.
pub const BUILTIN: &[(&str, &str)] = &[
    ("oltp", include_str!("../profiles/oltp.toml")),
    ("oltp-read", include_str!("../profiles/oltp-read.toml")),
    ("log", include_str!("../profiles/log.toml")),
    ("tempdb", include_str!("../profiles/tempdb.toml")),
    ("dss", include_str!("../profiles/dss.toml")),
    ("bulkload", include_str!("../profiles/bulkload.toml")),
    ("checkpoint", include_str!("../profiles/checkpoint.toml")),
    ("backup", include_str!("../profiles/backup.toml")),
    (
        "sqlserver-oltp",
        include_str!("../profiles/sqlserver-oltp.toml"),
    ),
    (
        "sqlserver-dss",
        include_str!("../profiles/sqlserver-dss.toml"),
    ),
    ("oracle-oltp", include_str!("../profiles/oracle-oltp.toml")),
    ("oracle-dss", include_str!("../profiles/oracle-dss.toml")),
    (
        "postgres-oltp",
        include_str!("../profiles/postgres-oltp.toml"),
    ),
    (
        "postgres-wal",
        include_str!("../profiles/postgres-wal.toml"),
    ),
    ("innodb-oltp", include_str!("../profiles/innodb-oltp.toml")),
    ("oltp-mix", include_str!("../profiles/oltp-mix.toml")),
    ("slob", include_str!("../profiles/slob.toml")),
    (
        "postgres-oltp-mix",
        include_str!("../profiles/postgres-oltp-mix.toml"),
    ),
];

/// The profile `dbio run` uses when none is named; it also fills keys other profiles leave out.
pub const DEFAULT: &str = "oltp";

/// The TOML of a built-in profile.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Parses a built-in profile, or says which ones exist.
pub fn builtin(name: &str) -> Result<Profile, SpecError> {
    let text = builtin_text(name).ok_or_else(|| {
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        // A file given where a profile name goes was meant as --profile FILE.
        let file = if name.ends_with(".toml") || std::path::Path::new(name).is_file() {
            format!("; for a profile file write --profile {name}")
        } else {
            String::new()
        };
        SpecError::Profile(format!(
            "unknown profile '{name}'; the built-in profiles are: {}{file}",
            names.join(", ")
        ))
    })?;
    Profile::parse(text, name).map_err(|e| SpecError::Profile(e.to_string()))
}

/// Reads and parses a profile file.
pub fn from_file(path: &str) -> Result<Profile, SpecError> {
    let text = crate::input::read_text(path)
        .map_err(|e| SpecError::Profile(format!("cannot read profile {path}: {e}")))?;
    Profile::parse(&text, path).map_err(|e| SpecError::Profile(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_says_what_it_is() {
        for (name, _) in BUILTIN {
            let p = builtin(name).unwrap();
            assert!(
                p.description.as_deref().is_some_and(|d| !d.is_empty()),
                "{name}"
            );
            if p.sessions.is_some() {
                // Session mode: sessions read pages of bs; --update-pct decides the writes.
                assert!(p.bs.is_some() && p.rw.is_none(), "{name} sets bs, not rw");
            } else if p.stream.is_empty() {
                assert!(p.rw.is_some() && p.bs.is_some(), "{name} sets rw and bs");
            }
            for s in &p.stream {
                let s = p.stream_settings(s);
                assert!(
                    s.rw.is_some() && s.bs.is_some(),
                    "{name}: each stream sets rw and bs"
                );
            }
        }
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let e = builtin("oltpp").unwrap_err().to_string();
        assert!(
            e.contains("'oltpp'") && e.contains("oltp-read") && e.contains("log"),
            "{e}"
        );
    }
}
