//! `--target ROLE=PATH`: which file or device each target role (e.g. "data", "log") uses.

use crate::error::SpecError;
use dbio_model::streams::is_role;

/// Splits `ROLE=PATH` into its role and path; None for a plain path (a path such as
/// `./a=b` or `/x/a=b` stays a plain path: a role is letters, digits, `-` and `_`).
pub fn split_role(value: &str) -> Option<(&str, &str)> {
    let (role, path) = value.split_once('=')?;
    (is_role(role) && !path.is_empty()).then_some((role, path))
}

/// Refuses a `--target` value that names a role but no path (`data=`), which would otherwise
/// become a file of that name.
pub fn check_value(value: &str) -> Result<(), SpecError> {
    match value.strip_suffix('=').filter(|r| is_role(r)) {
        Some(role) => Err(format!(
            "--target {value}: no path after '{role}='; write --target {role}=PATH"
        )
        .into()),
        None => Ok(()),
    }
}

/// The paths of each role, in the order of `roles`, and a notice for every path dbio
/// chose itself.
#[derive(Debug, PartialEq)]
pub struct RoleTargets {
    pub paths: Vec<(String, Vec<String>)>,
    pub notices: Vec<String>,
}

/// Assigns `--target` values to `roles`: `ROLE=PATH` names a role's target (repeat for
/// several); plain paths go to the first role, and every role left without a target then
/// gets `PATH.<role>` beside the first plain path. A role the profile does not have, or a
/// role still without a target, is refused with a message listing the roles.
pub fn role_targets(values: &[String], roles: &[&str]) -> Result<RoleTargets, SpecError> {
    let list = roles.join(", ");
    let mut paths: Vec<(String, Vec<String>)> =
        roles.iter().map(|r| (r.to_string(), Vec::new())).collect();
    let mut plain = Vec::new();
    for v in values {
        check_value(v)?;
        match split_role(v) {
            Some((role, path)) => match paths.iter_mut().find(|(r, _)| r == role) {
                Some((_, p)) => p.push(path.to_string()),
                None => {
                    return Err(format!(
                        "--target {v}: this profile has no role '{role}'; its roles are {list} (--target ROLE=PATH)"
                    ).into())
                }
            },
            None => plain.push(v.clone()),
        }
    }
    let mut notices = Vec::new();
    if let Some(first) = plain.first() {
        let (role, p) = &mut paths[0];
        if !p.is_empty() {
            return Err(format!(
                "--target {first}: role {role} already has --target {role}=...; give each target once, as ROLE=PATH (roles: {list})"
            ).into());
        }
        p.extend(plain.iter().cloned());
        for (role, p) in paths.iter_mut().skip(1) {
            if p.is_empty() {
                let path = format!("{first}.{role}");
                notices.push(format!("{role} stream on {path}"));
                p.push(path);
            }
        }
    }
    notices.extend(shared_notices(&paths));
    if let Some((role, _)) = paths.iter().find(|(_, p)| p.is_empty()) {
        return Err(format!(
            "--target: no target for role {role}; give --target {role}=PATH (roles: {list}), or one plain --target PATH for all"
        ).into());
    }
    Ok(RoleTargets { paths, notices })
}

/// A notice for every file or device named for several roles: their streams each open it
/// and address their own region of it, as fio's jobs on one file do.
fn shared_notices(paths: &[(String, Vec<String>)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (role, ps) in paths {
        for p in ps {
            if seen.iter().any(|s| same_file(s, p)) {
                continue;
            }
            let roles: Vec<&str> = paths
                .iter()
                .filter(|(r, other)| r != role && other.iter().any(|o| same_file(o, p)))
                .map(|(r, _)| r.as_str())
                .collect();
            if !roles.is_empty() {
                out.push(format!(
                    "roles {role} and {} share {p}: each stream opens it and works on its own region of it (--offset, --range), as fio's jobs on one file do",
                    roles.join(" and ")
                ));
            }
            seen.push(p);
        }
    }
    out
}

/// Whether the paths `a` and `b` name the same file or device (or, when either does not
/// exist yet, the same absolute path).
pub fn same_file(a: &str, b: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn roles_and_plain_paths() {
        assert_eq!(split_role("log=/mnt/log/f"), Some(("log", "/mnt/log/f")));
        assert_eq!(split_role("./a=b"), None);
        assert_eq!(split_role("/x/log=1"), None);
        assert_eq!(split_role("log="), None);
        let roles = ["data", "log"];
        let t = role_targets(&v(&["data=/d/f", "log=/l/f"]), &roles).unwrap();
        assert_eq!(t.paths[1], ("log".into(), v(&["/l/f"])));
        assert!(t.notices.is_empty());
        let t = role_targets(&v(&["./t"]), &roles).unwrap();
        assert_eq!(t.paths[0].1, v(&["./t"]));
        assert_eq!(t.paths[1].1, v(&["./t.log"]));
        assert_eq!(t.notices, v(&["log stream on ./t.log"]));
        let t = role_targets(&v(&["./t", "log=/l/f"]), &roles).unwrap();
        assert_eq!(t.paths[1].1, v(&["/l/f"]), "a named role keeps its path");
        assert!(t.notices.is_empty());
    }

    #[test]
    fn unknown_or_missing_roles_are_refused_with_the_list() {
        let roles = ["data", "log"];
        let e = role_targets(&v(&["redo=/r"]), &roles)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no role 'redo'") && e.contains("data, log"),
            "{e}"
        );
        let e = role_targets(&v(&["data=/d"]), &roles)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no target for role log") && e.contains("--target log=PATH"),
            "{e}"
        );
        let e = role_targets(&v(&["data=/d", "/p"]), &roles)
            .unwrap_err()
            .to_string();
        assert!(e.contains("role data already has"), "{e}");
    }

    #[test]
    fn one_path_for_two_roles_is_kept_with_a_notice() {
        let roles = ["data", "log"];
        let t = role_targets(&v(&["data=/d/f", "log=/d/./f"]), &roles).unwrap();
        assert_eq!(t.paths[0].1, v(&["/d/f"]));
        assert_eq!(t.paths[1].1, v(&["/d/./f"]));
        assert_eq!(
            t.notices,
            v(&["roles data and log share /d/f: each stream opens it and works on its own region of it (--offset, --range), as fio's jobs on one file do"])
        );
        let t = role_targets(&v(&["data=/d/f", "log=/d/g"]), &roles).unwrap();
        assert!(t.notices.is_empty());
    }
}
