//! `dbio profiles`: the built-in profiles with what they model and their settings, or one
//! profile's TOML.

use crate::args::ProfilesArgs;
use crate::exit::Exit;
use crate::output::print_out;
use crate::profiles::{builtin, builtin_text, BUILTIN};

/// Runs `dbio profiles` and returns its exit status.
pub fn run(a: ProfilesArgs) -> Exit {
    if let Some(name) = a.show {
        return match builtin(&name) {
            Ok(_) => {
                print_out(builtin_text(&name).unwrap_or_default());
                Exit::Ok
            }
            Err(e) => Exit::usage(format!("dbio profiles: {e}")),
        };
    }
    let mut out = String::new();
    for (name, _) in BUILTIN {
        let Ok(p) = builtin(name) else { continue };
        let settings: Vec<String> = [
            ("rw", p.rw.clone()),
            (
                "mix",
                p.mix
                    .filter(|_| p.rw.as_deref() == Some("randrw"))
                    .map(|m| format!("{m}%")),
            ),
            ("bs", p.bs.clone()),
            ("qd", p.qd.map(|v| v.to_string())),
            ("threads", p.threads.map(|v| v.to_string())),
            ("sync", p.sync.clone()),
            ("burst", p.burst.clone()),
            ("steady", p.steady.clone()),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
        .collect();
        out.push_str(&format!(
            "{name:<15} {}\n{:<15} {}\n",
            p.description.unwrap_or_default(),
            "",
            settings.join(" ")
        ));
    }
    out.push_str("\nRun one with `dbio run NAME`; `dbio profiles --show NAME` prints its TOML.\n");
    print_out(&out);
    Exit::Ok
}
