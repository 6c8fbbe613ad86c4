//! Result files: written atomically, and checked before a command starts so that no output
//! is lost at the end or writes over what the command reads.

use std::fs::File;
use std::io::BufWriter;
use std::io::Write;
use std::path::Path;

/// Why an output file given (`--json FILE`, `--html FILE`) cannot be used; Display names the
/// flag, the path and what to try.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// `--html -`: a page is not for stdout.
    #[error("--html needs a file name (the page is meant for a browser), e.g. --html report.html")]
    HtmlToStdout,
    /// An empty file name.
    #[error("{0}: give a file name (or '-' for stdout where allowed)")]
    Empty(String),
    /// The output is one of the command's inputs, or a file inside one.
    #[error("{flag} {path}: that would write over {what}, which this command reads or measures; give another file name")]
    Overwrites {
        flag: String,
        path: String,
        what: String,
    },
    /// The output is a folder.
    #[error("{0} {1}: is a folder; give a file name")]
    Folder(String, String),
    /// The output's folder does not exist.
    #[error("{flag} {path}: the folder {dir} does not exist; create it or give another path")]
    NoFolder {
        flag: String,
        path: String,
        dir: String,
    },
    /// A new file cannot be made in the output's folder.
    #[error("{flag} {path}: cannot write there: {source}")]
    Unwritable {
        flag: String,
        path: String,
        source: std::io::Error,
    },
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
) -> Result<(), OutputError> {
    for &(flag, path) in outputs {
        if flag == "--html" && path == Some("-") {
            return Err(OutputError::HtmlToStdout);
        }
        let Some(path) = path.filter(|p| *p != "-") else {
            continue;
        };
        if path.is_empty() {
            return Err(OutputError::Empty(flag.to_string()));
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
            return Err(OutputError::Overwrites {
                flag: flag.to_string(),
                path: path.to_string(),
                what,
            });
        }
        if p.is_dir() {
            return Err(OutputError::Folder(flag.to_string(), path.to_string()));
        }
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        if !dir.is_dir() {
            return Err(OutputError::NoFolder {
                flag: flag.to_string(),
                path: path.to_string(),
                dir: dir.display().to_string(),
            });
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
            Err(source) => {
                return Err(OutputError::Unwritable {
                    flag: flag.to_string(),
                    path: path.to_string(),
                    source,
                })
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_that_cannot_be_written_are_refused_by_flag() {
        let none: [&str; 0] = [];
        let e = check_outputs(&[("--html", Some("-"))], &none).unwrap_err();
        assert!(matches!(e, OutputError::HtmlToStdout));
        let e = check_outputs(&[("--json", Some(""))], &none).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--json: give a file name (or '-' for stdout where allowed)"
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let e = check_outputs(&[("--json", Some(d))], &none).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("--json {d}: is a folder; give a file name")
        );
        let input = format!("{d}/in");
        std::fs::write(&input, b"x").unwrap();
        let e = check_outputs(&[("--json", Some(input.as_str()))], &[input.as_str()]).unwrap_err();
        assert!(matches!(e, OutputError::Overwrites { .. }));
        let out = format!("{d}/out.json");
        assert!(check_outputs(
            &[("--json", Some(out.as_str())), ("--json", Some("-"))],
            &none
        )
        .is_ok());
        write_file_atomic(&out, b"{}").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"{}");
    }
}
