//! Reading a profile from TOML: an error names the file, the line and what is wrong with it.

use super::error::ProfileError;
use super::stream_tables::check_streams;
use super::Profile;

impl Profile {
    /// Parses profile TOML; an error names `origin`, the line and what is wrong with it.
    pub fn parse(text: &str, origin: &str) -> Result<Profile, ProfileError> {
        let p: Profile = toml::from_str(text).map_err(|e| {
            let Some(span) = e.span() else {
                return ProfileError::Toml {
                    origin: origin.to_string(),
                    message: e.message().to_string(),
                };
            };
            let line_no = text[..span.start].matches('\n').count() + 1;
            let line = text.lines().nth(line_no - 1).unwrap_or("").trim();
            ProfileError::TomlLine {
                origin: origin.to_string(),
                line_no,
                line: line.to_string(),
                message: e.message().trim().to_string(),
            }
        })?;
        check_streams(&p).map_err(|why| ProfileError::Streams {
            origin: origin.to_string(),
            why,
        })?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_keys_and_names_the_line_of_a_mistake() {
        let p = Profile::parse("rw = \"randread\"\nbs = \"8k\"\nqd = 16\n", "t.toml").unwrap();
        assert_eq!(p.qd, Some(16));
        assert_eq!(p.keys(), vec!["rw", "bs", "qd"]);
        let e = Profile::parse("rw = \"randread\"\nqueue = 4\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("profile t.toml, line 2 (`queue = 4`): "),
            "{e}"
        );
        assert!(e.contains("unknown field `queue`"), "{e}");
        let e = Profile::parse("qd = \"deep\"\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1 (`qd = \"deep\"`)"), "{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}
