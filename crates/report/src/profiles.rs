//! `dbio profiles`: the list of built-in profiles, each with what it models and its main
//! settings (a profile with streams, each stream's).

use dbio_model::profile::Profile;

/// The list `dbio profiles` prints, of `profiles` (name, profile) in their order.
pub fn list(profiles: &[(&str, Profile)]) -> String {
    let mut out = String::new();
    for (name, p) in profiles {
        out.push_str(&format!(
            "{name:<15} {}\n",
            p.description.clone().unwrap_or_default()
        ));
        if p.stream.is_empty() {
            out.push_str(&format!("{:<15} {}\n", "", settings(p)));
        }
        for s in &p.stream {
            let s = p.stream_settings(s);
            out.push_str(&format!(
                "{:<15} stream {} on target {}: {}\n",
                "",
                s.name.as_deref().unwrap_or_default(),
                s.target.as_deref().unwrap_or_default(),
                settings(&s)
            ));
        }
    }
    out.push_str("\nRun one with `dbio run NAME`; `dbio profiles --show NAME` prints its TOML.\n");
    out.push_str(
        "A profile with streams runs them at once, each on its own target: --target ROLE=PATH.\n",
    );
    out
}

/// The main settings of a profile (or of one stream), as `key=value` words.
fn settings(p: &Profile) -> String {
    [
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
        ("sessions", p.sessions.map(|v| v.to_string())),
        ("work_unit", p.work_unit.map(|v| v.to_string())),
        ("update_pct", p.update_pct.map(|v| format!("{v}%"))),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| format!("{k}={v}")))
    .collect::<Vec<_>>()
    .join(" ")
}
