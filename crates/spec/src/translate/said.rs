//! What `dbio sqlio|diskspd|fio` says around the runs of a translation, in order: each run's
//! `dbio run` line and what of the job the user's flags replace, then the notes (every note
//! on a dry run; only differences before a real run), or the refused options and why
//! nothing ran.

use super::split::Words;
use super::{Fate, Translation};

/// Where a line goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum To {
    Stdout,
    Stderr,
}

/// Lines to print, in order, each with where it goes (every line ends with a newline).
pub type Said = Vec<(To, String)>;

/// What is said when the translation refused options: every note (on stdout) on a dry run,
/// then each refused option on stderr; and the closing message (exit status 2). None when
/// nothing was refused.
pub fn refusals(name: &str, t: &Translation, dry_run: bool) -> Option<(Said, String)> {
    let refused = t.refusals();
    if refused.is_empty() {
        return None;
    }
    let mut said = Said::new();
    if dry_run {
        said.extend(
            t.notes
                .iter()
                .map(|n| (To::Stdout, format!("  {}\n", n.line()))),
        );
    }
    said.extend(
        refused
            .iter()
            .map(|n| (To::Stderr, format!("dbio {name}: {}\n", n.line()))),
    );
    let closing = format!(
        "dbio {name}: nothing was run: {} option(s) above have no dbio counterpart",
        refused.len()
    );
    Some((said, closing))
}

/// What is said before the runs (or instead of them, `--dry-run`): each run's `line` with the
/// job's flags the user's replace (`replaced`, a note each on stderr), then the notes: all of
/// them on a dry run, else the differences on stderr when the lines go to stdout (a result on
/// stdout, or --quiet, leaves them out).
pub fn before_runs<'a>(
    name: &str,
    t: &Translation,
    runs: impl IntoIterator<Item = (&'a str, &'a [String])>,
    w: &Words,
) -> Said {
    let to_stdout = super::outputs::lines_on_stdout(t, &w.ours);
    let lines = if to_stdout { To::Stdout } else { To::Stderr };
    let mut said = Said::new();
    for (line, replaced) in runs {
        said.push((lines, format!("{line}\n")));
        said.extend(replaced.iter().map(|r| {
            let text =
                format!("note: {r} of the {name} job is replaced by yours (the later word wins)\n");
            (To::Stderr, text)
        }));
    }
    for n in &t.notes {
        if w.dry_run {
            said.push((lines, format!("  {}\n", n.line())));
        } else if n.fate == Fate::Differs && to_stdout {
            said.push((To::Stderr, format!("note: {}\n", n.line())));
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::tool::{translate, Tool};

    /// -kR -frandom -o4 on two files: -o4 differs (a note), the rest is mapped.
    fn sqlio() -> Translation {
        let w = Words::sqlio_line("-kR -frandom -b8 -o4 a.dat b.dat");
        translate(Tool::Sqlio, &w.theirs).expect("a translation")
    }

    #[test]
    fn a_real_run_says_its_line_what_is_replaced_and_the_differences() {
        let t = sqlio();
        let replaced = ["--qd 8".to_string()];
        let said = before_runs(
            "sqlio",
            &t,
            [("dbio run X", &replaced[..])],
            &Words::sqlio_line("-kR --qd 1"),
        );
        assert_eq!(said[0], (To::Stdout, "dbio run X\n".to_string()));
        assert_eq!(
            said[1],
            (
                To::Stderr,
                "note: --qd 8 of the sqlio job is replaced by yours (the later word wins)\n".into()
            )
        );
        let differs = t.notes.iter().filter(|n| n.fate == Fate::Differs).count();
        assert!(differs > 0);
        assert_eq!(said.len(), 2 + differs);
        assert!(said[2..]
            .iter()
            .all(|(to, l)| *to == To::Stderr && l.starts_with("note: ")));
    }

    #[test]
    fn a_dry_run_says_every_note_and_a_result_on_stdout_moves_the_lines() {
        let t = sqlio();
        let said = before_runs(
            "sqlio",
            &t,
            [("dbio run X", &[][..])],
            &Words::sqlio_line("-kR --dry-run"),
        );
        assert_eq!(said.len(), 1 + t.notes.len());
        assert!(said.iter().all(|(to, _)| *to == To::Stdout));
        let said = before_runs(
            "sqlio",
            &t,
            [("dbio run X", &[][..])],
            &Words::sqlio_line("-kR --json -"),
        );
        assert_eq!(said, [(To::Stderr, "dbio run X\n".to_string())]);
    }

    #[test]
    fn refused_options_are_named_and_nothing_runs() {
        assert_eq!(refusals("sqlio", &sqlio(), false), None);
        let t = translate(Tool::Sqlio, &["-kR".into(), "-f32".into()]).expect("a translation");
        let (said, closing) = refusals("sqlio", &t, false).expect("a refusal");
        assert_eq!(said.len(), 1);
        assert!(said[0].0 == To::Stderr && said[0].1.starts_with("dbio sqlio: -f32: refused: "));
        assert_eq!(
            closing,
            "dbio sqlio: nothing was run: 1 option(s) above have no dbio counterpart"
        );
        let (said, _) = refusals("sqlio", &t, true).expect("a refusal");
        assert_eq!(said.len(), t.notes.len() + 1);
    }
}
