//! Flag values (sizes, durations, `--bs`, `--skew`, `--sim`, `--slo`, `--vary`, …) and whole
//! `dbio run|sweep|advise` command lines. The first byte picks the parser (see `value`
//! below; 20 and above: a command line, one argument per line), the rest is the text. A
//! parser may refuse; it must not panic.
#![no_main]

use dbio_model::units;
use libfuzzer_sys::fuzz_target;

/// Every flag value parser, chosen by `which` (taken modulo their number): sizes, durations,
/// latencies, `--bs`, `--skew`, `--sync`, `--vary`, `--steady`, `--burst`, `--think`,
/// `--data`, `--buckets`, `--sim`, `--slo`, path rates, host names, `--devices`, `--since`,
/// `--io-wait-share`, `--target ROLE=PATH`. Only the result's being Ok matters.
fn value(which: u8, v: &str) -> bool {
    match which % 20 {
        0 => units::parse_size(v).is_ok(),
        1 => units::parse_duration(v).is_ok(),
        2 => units::parse_latency(v).is_ok(),
        3 => dbio_spec::job::parse_bs(v).is_ok(),
        4 => dbio_spec::job::parse_skew(v).is_ok(),
        5 => dbio_spec::job::parse_sync(v).is_ok(),
        6 => dbio_spec::vary_flag::parse_vary(v).is_ok(),
        7 => {
            // The steady criterion with its window and cap, split at the first two '|'.
            let mut p = v.splitn(3, '|');
            let (c, w, m) = (p.next().unwrap_or(""), p.next(), p.next());
            dbio_spec::phases::parse_steady(c, w, m).is_ok()
        }
        8 => dbio_spec::phases::parse_burst(v).is_ok(),
        9 => dbio_spec::session::parse_think(v).is_ok(),
        10 => dbio_spec::data::parse_data(v).is_ok(),
        11 => dbio_spec::buckets::parse(v).is_ok(),
        12 => dbio_model::sim::SimDevice::parse(v).is_ok(),
        13 => dbio_analyze::slo::Slo::parse(v).is_ok(),
        14 => dbio_model::path::parse_rate(v).is_ok(),
        15 => dbio_orchestrate::fleet::hosts::parse_host(v).is_ok(),
        16 => dbio_analyze::flags::devices(v).is_ok(),
        17 => dbio_store::since::since(v).is_ok(),
        18 => dbio_analyze::advise::request::share(v).is_ok(),
        _ => dbio_spec::targets::check_value(v).is_ok(),
    }
}

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
        let _ = value(which % 21, text);
    }
});
