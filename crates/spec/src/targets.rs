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
    let all: Vec<&String> = paths.iter().flat_map(|(_, p)| p).collect();
    if let Some((_, twice)) = all.iter().enumerate().find(|(i, p)| all[..*i].contains(p)) {
        return Err(format!(
            "--target {twice}: named for two roles; give each role its own file or device (roles: {list})"
        ).into());
    }
    if let Some((role, _)) = paths.iter().find(|(_, p)| p.is_empty()) {
        return Err(format!(
            "--target: no target for role {role}; give --target {role}=PATH (roles: {list}), or one plain --target PATH for all"
        ).into());
    }
    Ok(RoleTargets { paths, notices })
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
        let e = role_targets(&v(&["data=/d", "log=/d"]), &roles)
            .unwrap_err()
            .to_string();
        assert!(e.contains("--target /d: named for two roles"), "{e}");
    }
}
