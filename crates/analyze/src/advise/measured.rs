//! The latency model of `dbio advise`: measured devices from stored runs (`--flash`,
//! `--current`), or the assumed flash latency.

use super::request::{device_of, AdviseError, Plan};
use super::Latency;

/// The latency model of plan `p`: `current` is `--current` as written; `find` gives a stored
/// run, sweep or suite's JSON by name (id, label or JSON file), or why it was not found.
pub fn latency<E: std::fmt::Display>(
    p: &Plan,
    current: Option<&str>,
    find: &dyn Fn(&str) -> Result<String, E>,
) -> Result<Latency, AdviseError> {
    let Some(flash) = &p.flash_run else {
        return Ok(Latency::Assumed {
            flash_ms: p.flash_ms,
        });
    };
    let device = |name: &str, flag: &str| {
        let json = find(name).map_err(|why| AdviseError::NotFound {
            flag: flag.into(),
            name: name.into(),
            why: why.to_string(),
        })?;
        device_of(flag, name, &json)
    };
    Ok(Latency::Measured {
        flash: device(flash, "--flash")?,
        current: current.map(|c| device(c, "--current")).transpose()?,
    })
}
