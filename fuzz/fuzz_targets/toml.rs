//! Profile TOML (parsed and validated as `dbio run --profile-file` does) and topology TOML
//! (parsed and modelled as `dbio path` does). The first byte picks which (even: profile,
//! odd: topology), the rest is the file.
#![no_main]

use dbio_model::path::Topology;
use dbio_model::profile::Profile;
use dbio_spec::RawJob;
use libfuzzer_sys::fuzz_target;

/// A profile's TOML, parsed and validated as `dbio run --profile-file` does it (every
/// stream of a multi-stream profile too), under the flags of a plain `dbio run`.
fn profile_toml(text: &str) {
    let Ok(p) = Profile::parse(text, "fuzz.toml") else {
        return;
    };
    let a = RawJob::default();
    if p.stream.is_empty() {
        let _ = a.check_with("fuzz.toml", &p);
    } else {
        let _ = a.streams("fuzz.toml", &p);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if which % 2 == 0 {
        profile_toml(text);
    } else if let Ok(t) = Topology::parse(text, "fuzz.toml") {
        let p = dbio_analyze::path::analyse(&t, &[4096, 8192, 1 << 20]);
        let _ = dbio_report::path::path(&p);
    }
});
