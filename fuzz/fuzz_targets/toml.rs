//! Profile TOML (parsed and validated as `dbio run --profile-file` does) and topology TOML
//! (parsed and modelled as `dbio path` does). The first byte picks which (even: profile,
//! odd: topology), the rest is the file.
#![no_main]

use dbio_model::path::Topology;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if which % 2 == 0 {
        let _ = dbio::fuzz::profile_toml(text);
    } else if let Ok(t) = Topology::parse(text, "fuzz.toml") {
        let p = dbio_analyze::path::analyse(&t, &[4096, 8192, 1 << 20]);
        let _ = dbio_report::path::path(&p);
    }
});
