//! The `[[stream]]` tables of a multi-stream profile: their checks, and the settings each
//! stream inherits from the top level.

use super::error::StreamsError;
use super::Profile;
use crate::streams::is_role;

/// Keys a stream may not set: all streams share one measuring window.
const SHARED_KEYS: &[&str] = &["duration", "ramp"];

/// Checks the `[[stream]]` tables of a parsed profile: each has a name and a target role,
/// names and roles are unique, nothing nests, and the window keys stay at the top level.
pub(crate) fn check_streams(p: &Profile) -> Result<(), StreamsError> {
    if p.stream.is_empty() {
        if p.name.is_some() || p.target.is_some() {
            return Err(StreamsError::NameInSingle);
        }
        return Ok(());
    }
    if p.name.is_some() || p.target.is_some() {
        return Err(StreamsError::NameAtTop);
    }
    let mut names = Vec::new();
    let mut roles = Vec::new();
    for (i, s) in p.stream.iter().enumerate() {
        let number = i + 1;
        let (Some(name), Some(role)) = (&s.name, &s.target) else {
            return Err(StreamsError::Unnamed { number });
        };
        if !is_role(role) {
            return Err(StreamsError::NotRole {
                number,
                role: role.clone(),
            });
        }
        if !s.stream.is_empty() {
            return Err(StreamsError::Nested { number });
        }
        if let Some(k) = s.keys().into_iter().find(|k| SHARED_KEYS.contains(k)) {
            return Err(StreamsError::SharedKey {
                name: name.clone(),
                key: k,
            });
        }
        if names.contains(&name) {
            return Err(StreamsError::SameName { name: name.clone() });
        }
        if roles.contains(&role) {
            return Err(StreamsError::SameRole { role: role.clone() });
        }
        names.push(name);
        roles.push(role);
    }
    Ok(())
}

impl Profile {
    /// The settings of stream `s` of this profile: its own keys over the top-level ones.
    pub fn stream_settings(&self, s: &Profile) -> Profile {
        let top = self.clone();
        let s = s.clone();
        Profile {
            description: s.description.or(top.description),
            rw: s.rw.or(top.rw),
            mix: s.mix.or(top.mix),
            bs: s.bs.or(top.bs),
            align: s.align.or(top.align),
            qd: s.qd.or(top.qd),
            threads: s.threads.or(top.threads),
            duration: top.duration,
            ramp: top.ramp,
            size: s.size.or(top.size),
            offset: s.offset.or(top.offset),
            range: s.range.or(top.range),
            sync: s.sync.or(top.sync),
            rate: s.rate.or(top.rate),
            data: s.data.or(top.data),
            skew: s.skew.or(top.skew),
            sessions: s.sessions.or(top.sessions),
            work_unit: s.work_unit.or(top.work_unit),
            batch_reads: s.batch_reads.or(top.batch_reads),
            update_pct: s.update_pct.or(top.update_pct),
            redo_stress: s.redo_stress.or(top.redo_stress),
            think: s.think.or(top.think),
            cache_hit: s.cache_hit.or(top.cache_hit),
            // One settling phase for the run: the top level's.
            steady: top.steady,
            steady_window: top.steady_window,
            steady_max: top.steady_max,
            burst: s.burst.or(top.burst),
            name: s.name,
            target: s.target,
            stream: Vec::new(),
        }
    }

    /// The target roles of a multi-stream profile, in stream order (empty for one stream).
    pub fn roles(&self) -> Vec<&str> {
        self.stream
            .iter()
            .filter_map(|s| s.target.as_deref())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIX: &str = "rw = \"randrw\"\nqd = 16\nduration = \"5s\"\n\n[[stream]]\nname = \"data\"\ntarget = \"data\"\nbs = \"8k\"\n\n[[stream]]\nname = \"log\"\ntarget = \"log\"\nrw = \"write\"\nqd = 1\n";

    #[test]
    fn streams_inherit_the_top_level_keys() {
        let p = Profile::parse(MIX, "m.toml").unwrap();
        assert_eq!(p.roles(), vec!["data", "log"]);
        let data = p.stream_settings(&p.stream[0]);
        let log = p.stream_settings(&p.stream[1]);
        assert_eq!((data.rw.as_deref(), data.qd), (Some("randrw"), Some(16)));
        assert_eq!((log.rw.as_deref(), log.qd), (Some("write"), Some(1)));
        assert_eq!(log.duration.as_deref(), Some("5s"));
        assert_eq!(
            log.bs, None,
            "a stream's own key does not leak into another"
        );
    }

    #[test]
    fn stream_mistakes_are_one_line_and_name_the_stream() {
        let cases = [
            (
                "[[stream]]\nname = \"a\"\n",
                "[[stream]] number 1 needs both `name` and `target`",
            ),
            ("name = \"a\"\n", "belong in [[stream]] tables"),
            (
                "[[stream]]\nname = \"a\"\ntarget = \"x\"\nduration = \"3s\"\n",
                "stream a: `duration` is shared",
            ),
            (
                "[[stream]]\nname = \"a\"\ntarget = \"x\"\n[[stream]]\nname = \"b\"\ntarget = \"x\"\n",
                "two streams use target role x",
            ),
            (
                "[[stream]]\nname = \"a\"\ntarget = \"/mnt/x\"\n",
                "not a role name",
            ),
        ];
        for (text, want) in cases {
            let e = Profile::parse(text, "m.toml").unwrap_err().to_string();
            assert!(e.starts_with("profile m.toml: ") && e.contains(want), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
        let e = Profile::parse("[[stream]]\nname = \"a\"\nqueue = 3\n", "m.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3 (`queue = 3`)"), "{e}");
    }
}
