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
