//! The words of `dbio sqlio|diskspd|fio`: the other tool's arguments first, then dbio's own,
//! which start at the first `--flag`.

/// The tool's arguments, then dbio's: dbio's start at the first `--flag`.
pub fn split(raw: &[String]) -> (Vec<String>, Vec<String>) {
    let at = raw
        .iter()
        .position(|a| a.starts_with("--"))
        .unwrap_or(raw.len());
    (raw[..at].to_vec(), raw[at..].to_vec())
}
