//! The streams of a multi-stream profile (e.g. `oltp-mix`) as validated StreamSpecs: each
//! stream's keys over the profile's top level, flags over both, on the targets of its role.

use crate::error::SpecError;
use crate::job::spec_of;
use crate::raw::RawJob;
use crate::targets::{role_targets, split_role};
use dbio_model::profile::Profile;
use dbio_model::StreamSpec;

/// Refuses what only a multi-stream run can do: a multi-stream profile, or `ROLE=PATH`.
pub fn single_stream(a: &RawJob, name: &str, p: &Profile) -> Result<(), SpecError> {
    if !p.stream.is_empty() {
        return Err(format!(
            "profile {name} runs {} streams at once ({}); only dbio run runs it, here use a single-stream profile such as oltp or log",
            p.stream.len(),
            p.roles().join(", ")
        ).into());
    }
    // Session mode has roles of its own: data=PATH and log=PATH.
    let sessions = a.sessions.is_some() || p.sessions.is_some();
    if let Some(v) = a
        .targets
        .iter()
        .find(|v| !sessions && split_role(v).is_some())
    {
        return Err(format!(
            "--target {v}: profile {name} has one stream and no target roles; give --target PATH (write ./{v} for a file named so)"
        ).into());
    }
    Ok(())
}

/// Validates every stream of `p`; also returns notices for targets dbio chose itself
/// (e.g. "log stream on ./dbio-testfile.log").
pub fn stream_specs(
    a: &RawJob,
    name: &str,
    p: &Profile,
) -> Result<(Vec<StreamSpec>, Vec<String>), SpecError> {
    let roles = p.roles();
    if a.engine == "sim" {
        return Err(format!(
            "--engine sim: profile {name} runs several streams on their own targets; the simulated device models one, so use a single-stream profile"
        ).into());
    }
    let targets = role_targets(&a.target_values(), &roles)?;
    let mut out = Vec::new();
    for (s, (role, paths)) in p.stream.iter().zip(targets.paths) {
        let sname = s.name.clone().unwrap_or_default();
        let mut job = spec_of(a, name, &p.stream_settings(s)).map_err(|e| {
            // Every refusal names the stream it is about.
            let at = format!("profile {name}, stream {sname}: ");
            e.map(|e| match e.strip_prefix(&format!("profile {name}: ")) {
                Some(rest) => format!("{at}{rest}"),
                None => format!("{at}{e}"),
            })
        })?;
        job.targets = paths;
        out.push(StreamSpec {
            name: sname,
            role,
            job,
        });
    }
    let mut notices = targets.notices;
    notices.extend(crate::shared::share_targets(&mut out)?);
    Ok((out, notices))
}
