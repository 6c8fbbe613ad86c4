//! Workload profiles: TOML files naming a run's settings (every key optional). Built-in ones
//! ship inside the binary; a user's own is read with `--profile FILE`. Flags override them.

use serde::{Deserialize, Serialize};

mod error;
mod parse;
mod stream_tables;

pub use error::{ProfileError, StreamsError};

/// A profile as written in TOML. Values are strings and numbers exactly as on the command
/// line (`bs = "8k:70,64k:30"`, `duration = "30s"`), validated the same way as the flags.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// One line saying what the profile models.
    pub description: Option<String>,
    pub rw: Option<String>,
    pub mix: Option<u32>,
    pub bs: Option<String>,
    pub align: Option<String>,
    pub qd: Option<u32>,
    pub threads: Option<u32>,
    pub duration: Option<String>,
    pub ramp: Option<String>,
    pub size: Option<String>,
    pub offset: Option<String>,
    pub range: Option<String>,
    pub sync: Option<String>,
    pub rate: Option<u64>,
    pub data: Option<String>,
    pub skew: Option<String>,
    /// Session mode: foreground sessions (the SLOB method).
    pub sessions: Option<u32>,
    pub work_unit: Option<u32>,
    pub batch_reads: Option<bool>,
    pub update_pct: Option<u32>,
    pub redo_stress: Option<String>,
    pub think: Option<String>,
    pub cache_hit: Option<u32>,
    /// Steady-state criterion before measuring, e.g. "iops:2%" or "iops_slope:0.3%".
    pub steady: Option<String>,
    pub steady_window: Option<String>,
    pub steady_max: Option<String>,
    /// "ON/PERIOD", e.g. "2s/10s".
    pub burst: Option<String>,
    /// Name of a stream (only in a `[[stream]]` table), e.g. "data" or "log-writer".
    pub name: Option<String>,
    /// Target role of a stream (only in a `[[stream]]` table), e.g. "data" or "log";
    /// `--target ROLE=PATH` names its file or device.
    pub target: Option<String>,
    /// Concurrent streams of a multi-stream profile; each inherits the top-level keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stream: Vec<Profile>,
}

impl Profile {
    /// The keys this profile sets, in file order of the struct.
    pub fn keys(&self) -> Vec<&'static str> {
        let mut k = Vec::new();
        let mut add = |set: bool, name| {
            if set {
                k.push(name)
            }
        };
        add(self.rw.is_some(), "rw");
        add(self.mix.is_some(), "mix");
        add(self.bs.is_some(), "bs");
        add(self.align.is_some(), "align");
        add(self.qd.is_some(), "qd");
        add(self.threads.is_some(), "threads");
        add(self.duration.is_some(), "duration");
        add(self.ramp.is_some(), "ramp");
        add(self.size.is_some(), "size");
        add(self.offset.is_some(), "offset");
        add(self.range.is_some(), "range");
        add(self.sync.is_some(), "sync");
        add(self.rate.is_some(), "rate");
        add(self.data.is_some(), "data");
        add(self.skew.is_some(), "skew");
        add(self.sessions.is_some(), "sessions");
        add(self.work_unit.is_some(), "work_unit");
        add(self.batch_reads.is_some(), "batch_reads");
        add(self.update_pct.is_some(), "update_pct");
        add(self.redo_stress.is_some(), "redo_stress");
        add(self.think.is_some(), "think");
        add(self.cache_hit.is_some(), "cache_hit");
        add(self.steady.is_some(), "steady");
        add(self.steady_window.is_some(), "steady_window");
        add(self.steady_max.is_some(), "steady_max");
        add(self.burst.is_some(), "burst");
        k
    }
}
