//! `dbio profiles`: the built-in profiles with what they model and their settings, or one
//! profile's TOML.

use crate::args::ProfilesArgs;
use crate::exit::Exit;
use crate::output::print_out;
use dbio_spec::profiles::{builtin, builtin_text, BUILTIN};

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
    let profiles: Vec<_> = BUILTIN
        .iter()
        .filter_map(|(name, _)| builtin(name).ok().map(|p| (*name, p)))
        .collect();
    print_out(&dbio_report::profiles::list(&profiles));
    Exit::Ok
}
