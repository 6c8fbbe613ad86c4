//! Writing results: stdout that tolerates a closed pipe, and files replaced atomically.

use crate::error::CliError;
use std::cell::RefCell;
use std::fs::File;
use std::io::BufWriter;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// Writes `bytes` to `path` through a temporary file and a rename, so a reader never sees half a file.
pub fn write_file_atomic(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// As [`write_file_atomic`], with the bytes given by `write` through a buffer (a large
/// result need not be made in memory first).
pub fn write_atomic_with(
    path: &str,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let written = |f: File| {
        let mut w = BufWriter::with_capacity(1 << 20, f);
        write(&mut w)?;
        w.flush()
    };
    // A device, a pipe or a socket (--json /dev/null, a named pipe a script reads) is written
    // as it is: renaming a file over it would replace it (as root, /dev/null itself).
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return written(std::fs::OpenOptions::new().write(true).open(path)?);
    }
    let tmp = format!("{path}.tmp");
    File::create(&tmp)
        .and_then(written)
        .and_then(|()| std::fs::rename(&tmp, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// Checks, before a command starts, that each `--json FILE` / `--html FILE` given can be
/// written (its folder exists and takes a new file), so no result is lost at the end, and
/// that it is none of `inputs` (the targets, the history, a profile, a file or tree being
/// read), which writing it would destroy.
pub fn check_outputs<S: AsRef<str>>(
    outputs: &[(&str, Option<&str>)],
    inputs: &[S],
) -> Result<(), CliError> {
    for &(flag, path) in outputs {
        if flag == "--html" && path == Some("-") {
            return Err("--html needs a file name (the page is meant for a browser), e.g. --html report.html".into());
        }
        let Some(path) = path.filter(|p| *p != "-") else {
            continue;
        };
        if path.is_empty() {
            return Err(
                format!("{flag}: give a file name (or '-' for stdout where allowed)").into(),
            );
        }
        let p = Path::new(path);
        if let Some(input) = inputs
            .iter()
            .map(AsRef::as_ref)
            .find(|i| overwrites(p, Path::new(i)))
        {
            let what = if Path::new(input).is_dir() {
                format!("a file inside {input}")
            } else {
                input.to_string()
            };
            return Err(format!(
                "{flag} {path}: that would write over {what}, which this command reads or measures; give another file name"
            ).into());
        }
        if p.is_dir() {
            return Err(format!("{flag} {path}: is a folder; give a file name").into());
        }
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(format!(
                "{flag} {path}: the folder {} does not exist; create it or give another path",
                dir.display()
            )
            .into());
        }
        let probe = format!("{path}.dbio-probe");
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
        {
            Ok(_) => {
                let _ = std::fs::remove_file(&probe);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("{flag} {path}: cannot write there: {e}").into()),
        }
    }
    Ok(())
}

/// Whether writing `out` would replace `input` or a file in the tree under it: the same
/// file (followed through links), or the same path when neither exists yet.
fn overwrites(out: &Path, input: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(out), std::fs::metadata(input)) {
        (Ok(o), Ok(i)) if i.is_dir() => {
            o.is_file()
                && matches!(
                    (out.canonicalize(), input.canonicalize()),
                    (Ok(o), Ok(i)) if o.starts_with(&i)
                )
        }
        (Ok(o), Ok(i)) => o.dev() == i.dev() && o.ino() == i.ino(),
        (Err(_), Err(_)) => matches!(
            (std::path::absolute(out), std::path::absolute(input)),
            (Ok(o), Ok(i)) if o == i
        ),
        _ => false,
    }
}

/// Writes a result's JSON where `--json` says: stdout for `-`, else the file, atomically.
pub fn emit_json(path: &str, json: &str) -> std::io::Result<()> {
    if path == "-" {
        print_out(json);
        Ok(())
    } else {
        write_file_atomic(path, json.as_bytes())
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
