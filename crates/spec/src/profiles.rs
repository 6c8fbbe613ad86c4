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

/// The name of the profile `--stream` tables make (in messages and the result's job).
pub const STREAMS: &str = "--stream";

/// The profile of `--stream` tables: each value one `[[stream]]` table written inline
/// (`{name = "log", target = "log", rw = "write"}`; the braces may be left out), with no
/// top-level keys; a mistake names the table it is in.
pub fn from_streams(tables: &[String]) -> Result<Profile, SpecError> {
    let mut text = String::from("stream = [\n");
    for t in tables.iter().map(|t| t.trim()) {
        if t.contains(['\n', '\r']) {
            return Err(SpecError::Profile(format!(
                "--stream {t}: one table on one line, e.g. '{{name = \"log\", target = \"log\", rw = \"write\"}}'"
            )));
        }
        let body = t
            .strip_prefix('{')
            .and_then(|b| b.strip_suffix('}'))
            .unwrap_or(t);
        text.push_str(&format!("{{ {body} }},\n"));
    }
    text.push_str("]\n");
    Profile::parse(&text, STREAMS).map_err(|e| SpecError::Profile(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_tables_are_a_profile_of_streams() {
        let tables = [
            r#"{name = "data", target = "data", rw = "randrw", mix = 70, bs = "8k", qd = 16}"#
                .to_string(),
            r#"name = "log", target = "log", rw = "write", bs = "60k", qd = 1"#.to_string(),
        ];
        let p = from_streams(&tables).unwrap();
        assert_eq!(p.roles(), vec!["data", "log"]);
        assert_eq!((p.stream[0].mix, p.stream[0].qd), (Some(70), Some(16)));
        assert_eq!(p.stream[1].bs.as_deref(), Some("60k"));
        assert!(p.rw.is_none(), "no top-level keys");
        let e = from_streams(&[
            tables[0].clone(),
            r#"{name = "log", target = "log", queue = 3}"#.into(),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("profile --stream, line 3 (`{ name = \"log\"")
                && e.contains("unknown field `queue`"),
            "{e}"
        );
        let e = from_streams(&[tables[0].clone(), tables[0].clone()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("data"),
            "two streams of one name are refused: {e}"
        );
    }

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
