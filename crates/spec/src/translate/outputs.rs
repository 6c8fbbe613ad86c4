//! The outputs dbio's own flags give a translation: one file cannot take several runs,
//! but for fio's JSON, whose runs' documents are joined into one as fio writes one for a
//! whole job file (dbio-report's `fio_join`).

use super::Translation;
use crate::error::SpecError;

/// Refuses `--json`/`--html` among dbio's flags `ours` when the translation has several
/// runs (`runs`), which would all write the same file; `--json` in fio's layout (in `ours`
/// or the tool's own `outputs`) is joined, not refused.
pub fn one_file_per_run(runs: usize, ours: &[String], outputs: &[String]) -> Result<(), SpecError> {
    if runs < 2 {
        return Ok(());
    }
    let words: Vec<&str> = ours.iter().chain(outputs).map(String::as_str).collect();
    let fio = flag_values(&words, "--json-format").any(|v| v.starts_with("fio"));
    match ours
        .iter()
        .find(|a| a.as_str() == "--html" || (a.as_str() == "--json" && !fio))
    {
        Some(f) => Err(SpecError::Translation(format!(
            "{f}: the translation has {runs} runs, which would all write the same file; run the jobs one at a time (one job file each) to keep each result"
        ))),
        None => Ok(()),
    }
}

/// Whether the `dbio run` lines and notes of translation `t` may be printed on stdout,
/// with dbio's own flags `ours`: not when stdout carries a result for programs (`--json -`,
/// fio's JSON asked by its `--output-format=json` without `--output`, DiskSpd's XML results,
/// asked by `-Rxml` or `--output-format diskspd-xml`), nor under `--quiet`.
pub fn lines_on_stdout(t: &Translation, ours: &[String]) -> bool {
    let quiet = ours.iter().any(|a| a == "-" || a == "-q" || a == "--quiet")
        || t.outputs.iter().any(|a| a == "-");
    // dbio's own --output-format wins over the translation's (the later word wins).
    let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
    let given = flag_values(&ours, "--output-format").next();
    let format = given.or_else(|| t.jobs.iter().find_map(|j| j.flags.output_format));
    !quiet && format != Some("diskspd-xml")
}

/// The values `flag` is given among `words`, in order: `--flag VALUE` or `--flag=VALUE`.
fn flag_values<'a>(words: &'a [&'a str], flag: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    words
        .iter()
        .enumerate()
        .filter_map(move |(i, a)| match a.strip_prefix(flag) {
            Some("") => words.get(i + 1).copied(),
            Some(v) => v.strip_prefix('='),
            None => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::tool::{translate, Tool};

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_lines_leave_stdout_to_xml_results_and_to_json() {
        let diskspd = |s: &str| translate(Tool::Diskspd, &words(s)).expect("a translation");
        let text = diskspd("-b8K -r -Rtext t.dat");
        let xml = diskspd("-b8K -r -Rxml t.dat");
        let last = diskspd("-b8K -r -Rxml -Rtext t.dat");
        assert_eq!(xml.jobs[0].flags.output_format, Some("diskspd-xml"));
        assert_eq!(last.jobs[0].flags.output_format, None);
        for (t, ours, want) in [
            (&text, "", true),
            (&text, "--json -", false),
            (&text, "-q", false),
            (&text, "--output-format diskspd-xml", false),
            (&text, "--output-format=diskspd-xml", false),
            (&xml, "", false),
            (&xml, "--output-format diskspd", true),
            (&last, "", true),
        ] {
            assert_eq!(lines_on_stdout(t, &words(ours)), want, "{ours}");
        }
    }
}
