//! The words of `dbio sqlio|diskspd|fio`: the other tool's arguments first, then dbio's own,
//! which start at the first `--flag`; on a fio command line, at the first word not fio's.

use super::fio_cmdline;
use super::tool::Tool;

/// The tool's arguments, then dbio's: dbio's start at the first `--flag`, except among fio's
/// words, where they start at the first word that is not fio's (see `fio_cmdline::end`).
pub fn split(tool: Tool, raw: &[String]) -> (Vec<String>, Vec<String>) {
    let at = match tool {
        Tool::Fio => fio_cmdline::end(raw),
        Tool::Sqlio | Tool::Diskspd => raw
            .iter()
            .position(|a| a.starts_with("--"))
            .unwrap_or(raw.len()),
    };
    (raw[..at].to_vec(), raw[at..].to_vec())
}

/// A front end's words sorted: the tool's, dbio's own (for `dbio run`), and what the front
/// end itself is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    pub theirs: Vec<String>,
    /// dbio's flags, without `--dry-run`.
    pub ours: Vec<String>,
    /// `--dry-run`: say what would run, run nothing.
    pub dry_run: bool,
    /// `--help`, the tool's own `-?`, or no words at all: the front end's help.
    pub help: bool,
}

impl Words {
    /// The words of `raw`, as typed after `dbio sqlio|diskspd|fio`.
    pub fn of(tool: Tool, raw: &[String]) -> Words {
        let (theirs, mut ours) = split(tool, raw);
        let help = ours.iter().any(|a| a == "--help") || theirs.iter().any(|a| a == "-?");
        let dry_run = ours.iter().any(|a| a == "--dry-run");
        ours.retain(|a| a != "--dry-run");
        Words {
            help: help || raw.is_empty(),
            theirs,
            ours,
            dry_run,
        }
    }
}

#[cfg(test)]
impl Words {
    /// A SQLIO command line split at its spaces, for tests.
    pub(crate) fn sqlio_line(s: &str) -> Words {
        Words::of(
            Tool::Sqlio,
            &s.split_whitespace().map(String::from).collect::<Vec<_>>(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tool_s_words_then_dbio_s_and_the_front_end_s() {
        let w = Words::sqlio_line("-kR -frandom f.dat --qd 4 --dry-run --json x.json");
        assert_eq!(w.theirs, ["-kR", "-frandom", "f.dat"]);
        assert_eq!(w.ours, ["--qd", "4", "--json", "x.json"]);
        assert!(w.dry_run && !w.help);
        assert!(
            Words::sqlio_line("").help
                && Words::sqlio_line("-?").help
                && Words::sqlio_line("-kR --help").help
        );
    }
}
