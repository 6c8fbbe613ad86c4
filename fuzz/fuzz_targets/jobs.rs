//! Other tools' job descriptions: `dbio sqlio` arguments (with `-F` parameter files),
//! `dbio diskspd` arguments (with `-X` XML profiles) and `dbio fio` command lines and job
//! files (with `include`). First byte: the tool (mod 3). Then NUL-separated parts: the arguments, one per
//! line; then files, each its name on the first line and its text after.
#![no_main]

use dbio_spec::translate::tool::{translate_with, Tool};
use libfuzzer_sys::fuzz_target;

/// Another tool's words: `which` picks SQLIO arguments, DiskSpd arguments (`-X` reads an
/// XML profile) or fio's command line and job files. `args` are the arguments, `files` what each file name
/// reads as (a name not in it is a missing file); the environment of fio's `${VAR}` is empty.
/// Each translated job is then checked as `dbio sqlio|diskspd|fio --dry-run` checks it.
fn job_files(which: u8, args: &[String], files: &[(String, String)]) {
    let read = |path: &str| {
        files
            .iter()
            .find(|(n, _)| n == path)
            .map(|(_, t)| t.clone())
            .ok_or_else(|| std::io::Error::other(format!("{path}: No such file or directory")))
    };
    let tool = [Tool::Sqlio, Tool::Diskspd, Tool::Fio][usize::from(which % 3)];
    let Ok(t) = translate_with(tool, args, &read, &|_| None) else {
        return;
    };
    if !t.refusals().is_empty() {
        return;
    }
    for job in &t.jobs {
        // Jobs fio runs at once are one run of streams, checked as dbio run checks them.
        let raw = job.flags.raw();
        let _ = match raw.profile() {
            Ok((name, p)) if !p.stream.is_empty() => raw.streams(&name, &p).map(|_| ()),
            _ => raw.check().map(|_| ()),
        };
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut parts = text.split('\0');
    let args: Vec<String> = parts
        .next()
        .unwrap_or("")
        .lines()
        .map(str::to_string)
        .collect();
    let files: Vec<(String, String)> = parts
        .map(|p| {
            let (name, body) = p.split_once('\n').unwrap_or((p, ""));
            (name.to_string(), body.to_string())
        })
        .collect();
    job_files(which, &args, &files);
});
