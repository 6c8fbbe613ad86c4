//! Writing results: stdout that tolerates a closed pipe, and the transcript of a long
//! command; files are written and checked by dbio-store (`files`).

use std::cell::RefCell;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Checks, before a command starts, that each output given (flag, path) can be written and
/// is none of the inputs; the error says what is wrong.
pub use dbio_store::files::check_outputs;
pub use dbio_store::files::{write_atomic_with, write_file_atomic};

/// Set when stdout could not take what was printed (a full disk, an I/O error).
static STDOUT_FAILED: AtomicBool = AtomicBool::new(false);

/// Prints to stdout; a closed pipe (`dbio run | head`) is not an error. Any other failure is
/// said once on stderr, and the command then exits 1 (see [`stdout_failed`]); the work goes
/// on, so results still reach their files and the history.
pub fn print_out(s: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(s.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe
            && !STDOUT_FAILED.swap(true, Ordering::Relaxed)
        {
            eprintln!("dbio: cannot write to standard output: {e}");
        }
    }
}

/// Whether anything printed to stdout was lost (not counting a closed pipe).
pub fn stdout_failed() -> bool {
    STDOUT_FAILED.load(Ordering::Relaxed)
}

/// Writes a result's JSON where `--json` says: stdout for `-`, else the file, atomically.
pub fn emit_json(path: &str, json: &str) -> std::io::Result<()> {
    dbio_report::deliver::emit(path, json, print_out)
}

/// Prints a result's summary unless `quiet`: on stderr when its JSON (`json`) goes to stdout.
pub fn print_summary(summary: &str, json: Option<&str>, quiet: bool) {
    if quiet {
    } else if json == Some("-") {
        eprint!("{summary}");
    } else {
        print_out(summary);
    }
}

/// What a long command (sweep, suite) prints as it goes, kept whole for the history
/// (`dbio show` prints it again): on stdout, on stderr when stdout carries the JSON
/// (`--json -`), or nowhere with --quiet.
pub struct Transcript {
    text: RefCell<String>,
    quiet: bool,
    to_stderr: bool,
}

impl Transcript {
    /// A transcript for a command with these --quiet and --json settings.
    pub fn new(quiet: bool, json: Option<&str>) -> Self {
        Transcript {
            text: RefCell::new(String::new()),
            quiet,
            to_stderr: json == Some("-"),
        }
    }

    /// Prints `s` and keeps it.
    pub fn say(&self, s: &str) {
        self.text.borrow_mut().push_str(s);
        if self.quiet {
        } else if self.to_stderr {
            eprint!("{s}");
        } else {
            print_out(s);
        }
    }

    /// Everything said so far.
    pub fn text(&self) -> String {
        self.text.borrow().clone()
    }
}
