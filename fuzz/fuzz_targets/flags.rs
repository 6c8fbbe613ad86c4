//! Flag values (sizes, durations, `--bs`, `--skew`, `--sim`, `--slo`, `--vary`, …) and whole
//! `dbio run|sweep|advise` command lines. The first byte picks the parser (see
//! `dbio::fuzz::flag_value`; 20 and above: a command line, one argument per line), the rest
//! is the text. A parser may refuse; it must not panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if which % 21 == 20 {
        let args: Vec<String> = text.split('\n').map(str::to_string).collect();
        let _ = dbio::fuzz::command_line(&args);
    } else {
        let _ = dbio::fuzz::flag_value(which % 21, text);
    }
});
