//! The files `dbio report` writes from stored runs and sweeps: the HTML page, Markdown, CSV
//! and one run's interval log (`--hlog`), each to its file or, but the page, to stdout (`-`).

use crate::hlog_of::{interval_log_of, HlogError};
use crate::item::Item;

/// The files asked for, by flag; None where the flag was not given.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportFiles<'a> {
    pub html: Option<&'a str>,
    pub md: Option<&'a str>,
    pub csv: Option<&'a str>,
    pub hlog: Option<&'a str>,
}

/// Why the report was not written; Display names the flag and what to do.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// No file was asked for.
    #[error("say what to write: --html FILE, --md FILE, --csv FILE or --hlog FILE ('-' for stdout with --md, --csv and --hlog)")]
    NoneAsked,
    /// The runs give no interval log.
    #[error(transparent)]
    Hlog(#[from] HlogError),
    /// A file could not be written.
    #[error("{flag}: cannot write {path}: {source}")]
    Write {
        flag: &'static str,
        path: String,
        source: std::io::Error,
    },
}

impl FilesError {
    /// True when what was asked cannot be made (nothing is written: status 2); false when
    /// the work failed on the way (a file or a stored histogram: status 1).
    pub fn is_usage(&self) -> bool {
        match self {
            FilesError::NoneAsked => true,
            FilesError::Hlog(e) => !matches!(e, HlogError::Unreadable { .. }),
            FilesError::Write { .. } => false,
        }
    }
}

/// How each text file is made from the items.
type Render = fn(&[Item]) -> String;

impl ReportFiles<'_> {
    /// The files as the output checks take them: (flag, path).
    pub fn outputs(&self) -> [(&'static str, Option<&str>); 4] {
        [
            ("--html", self.html),
            ("--md", self.md),
            ("--csv", self.csv),
            ("--hlog", self.hlog),
        ]
    }

    /// Refuses a report that asks for no file.
    pub fn asked(&self) -> Result<(), FilesError> {
        match self.outputs().iter().any(|(_, p)| p.is_some()) {
            true => Ok(()),
            false => Err(FilesError::NoneAsked),
        }
    }

    /// Writes each file asked for from `items` (the interval log first), `-` handed to `print`.
    pub fn write(&self, items: &[Item], print: &dyn Fn(&str)) -> Result<(), FilesError> {
        let hlog = self.hlog.map(|p| (p, interval_log_of(items)));
        if let Some((path, log)) = hlog {
            emit("--hlog", path, &log?, print)?;
        }
        let texts: [(&'static str, Option<&str>, Render); 3] = [
            ("--html", self.html, crate::html::page),
            ("--md", self.md, crate::markdown::report),
            ("--csv", self.csv, crate::csv::report),
        ];
        for (flag, path, render) in texts {
            if let Some(path) = path {
                emit(flag, path, &render(items), print)?;
            }
        }
        Ok(())
    }
}

/// Writes `text` to `path` (`-`: handed to `print`); the error names `flag`.
fn emit(
    flag: &'static str,
    path: &str,
    text: &str,
    print: &dyn Fn(&str),
) -> Result<(), FilesError> {
    crate::deliver::emit(path, text, print).map_err(|source| FilesError::Write {
        flag,
        path: path.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_must_ask_for_a_file_and_says_how() {
        let e = ReportFiles::default().asked().unwrap_err();
        assert!(e.is_usage());
        assert!(
            e.to_string().starts_with("say what to write: --html FILE"),
            "{e}"
        );
        let md = ReportFiles {
            md: Some("-"),
            ..Default::default()
        };
        assert!(md.asked().is_ok());
        assert_eq!(md.outputs()[1], ("--md", Some("-")));
    }

    #[test]
    fn an_interval_log_of_no_run_is_refused_and_nothing_is_written() {
        let files = ReportFiles {
            hlog: Some("-"),
            md: Some("-"),
            ..Default::default()
        };
        let printed = std::cell::RefCell::new(String::new());
        let e = files
            .write(&[], &|s| printed.borrow_mut().push_str(s))
            .unwrap_err();
        assert!(matches!(e, FilesError::Hlog(HlogError::NotOneRun)), "{e}");
        assert!(e.is_usage());
        assert_eq!(printed.borrow().as_str(), "");
    }
}
