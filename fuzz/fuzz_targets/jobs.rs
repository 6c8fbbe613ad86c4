//! Other tools' job descriptions: `dbio sqlio` arguments (with `-F` parameter files),
//! `dbio diskspd` arguments (with `-X` XML profiles) and `dbio fio` job files (with
//! `include`). First byte: the tool (mod 3). Then NUL-separated parts: the arguments, one per
//! line; then files, each its name on the first line and its text after.
#![no_main]

use libfuzzer_sys::fuzz_target;

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
    let _ = dbio::fuzz::job_files(which, &args, &files);
});
