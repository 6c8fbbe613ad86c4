//! Other tools' words in dbio's: SQLIO and DiskSpd command lines and fio job files become
//! `dbio run` flags, and every option they held is accounted for (mapped, mapped with a
//! stated difference, or refused with the reason). The flags are then validated by the same
//! code as `dbio run`'s own.

mod arith;
mod diskspd;
mod diskspd_xml;
mod fio_cmdline;
mod fio_group;
mod fio_ini;
mod fio_job;
mod fio_names;
mod fio_opts;
mod fio_out;
pub mod outputs;
pub mod runs;
pub mod said;
pub mod split;
mod sqlio;
mod target_size;
pub mod tool;

use crate::raw::RawJob;

/// What became of one option of the other tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fate {
    /// dbio does the same.
    Mapped,
    /// dbio does nearly the same; the note says how it differs.
    Differs,
    /// dbio cannot do it; the note says why and what to do.
    Refused,
}

/// One option of the other tool, as written, and what dbio made of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub option: String,
    pub fate: Fate,
    pub text: String,
}

impl Note {
    /// The note as printed: `-BH: mapped: O_DIRECT …`.
    pub fn line(&self) -> String {
        let fate = match self.fate {
            Fate::Mapped => "mapped",
            Fate::Differs => "mapped, with a difference",
            Fate::Refused => "refused",
        };
        format!("{}: {fate}: {}", self.option, self.text)
    }
}

/// The `dbio run` flags one translated job sets; None leaves dbio's default.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunFlags {
    pub rw: Option<&'static str>,
    pub mix: Option<u32>,
    pub bs: Option<String>,
    pub align: Option<u64>,
    pub qd: Option<u32>,
    pub threads: Option<u32>,
    pub duration: Option<String>,
    pub ramp: Option<String>,
    pub ops: Option<u64>,
    pub bytes: Option<u64>,
    pub size: Option<u64>,
    pub offset: Option<u64>,
    pub range: Option<u64>,
    pub skew: Option<String>,
    pub sync: Option<String>,
    pub rate: Option<u64>,
    pub poisson: bool,
    pub engine: Option<&'static str>,
    pub buffered: bool,
    /// Drop the targets from the page cache first (fio's invalidate=1).
    pub invalidate: bool,
    pub hipri: bool,
    pub data: Option<String>,
    pub steady: Option<String>,
    pub steady_window: Option<String>,
    pub steady_max: Option<String>,
    pub seed: Option<u64>,
    pub targets: Vec<String>,
    pub label: Option<String>,
    /// Jobs run at once: each one stream (`--stream`) with the settings of its own; the
    /// flags above are then those of the whole run.
    pub streams: Vec<StreamFlags>,
    /// fio's group_reporting: with `--json-format fio`, the streams are one `jobs[]` entry.
    pub fio_group: bool,
    /// The layout the result is printed in (`--output-format`), e.g. DiskSpd's `-Rxml`.
    pub output_format: Option<&'static str>,
    /// fio's percentile_list: `--fio-percentiles`.
    pub fio_percentiles: Option<String>,
    /// fio's logs: `--fio-log lat=NAME,bw=NAME,iops=NAME,avg=MSEC`.
    pub fio_log: Option<String>,
}

impl RunFlags {
    /// The flags in dbio's own words, in the order `dbio run --help` lists them.
    pub fn args(&self) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        let mut put = |flag: &str, value: Option<String>| {
            if let Some(x) = value {
                v.push(format!("--{flag}"));
                v.push(x);
            }
        };
        for st in &self.streams {
            put("stream", Some(st.table()));
        }
        put("rw", self.rw.map(str::to_string));
        put("mix", self.mix.map(|m| m.to_string()));
        put("bs", self.bs.clone());
        put("align", self.align.map(size));
        put("qd", self.qd.map(|q| q.to_string()));
        put("threads", self.threads.map(|t| t.to_string()));
        put("duration", self.duration.clone());
        put("ramp", self.ramp.clone());
        put("ops", self.ops.map(|n| n.to_string()));
        put("bytes", self.bytes.map(size));
        put("size", self.size.map(size));
        put("offset", self.offset.map(size));
        put("range", self.range.map(size));
        put("skew", self.skew.clone());
        put("sync", self.sync.clone());
        put("rate", self.rate.map(|r| r.to_string()));
        put("arrivals", self.poisson.then(|| "poisson".to_string()));
        put("engine", self.engine.map(str::to_string));
        put("data", self.data.clone());
        put("steady", self.steady.clone());
        put("steady-window", self.steady_window.clone());
        put("steady-max", self.steady_max.clone());
        put("seed", self.seed.map(|s| s.to_string()));
        for t in self.all_targets() {
            put("target", Some(t));
        }
        put("label", self.label.clone());
        put("output-format", self.output_format.map(str::to_string));
        put("fio-percentiles", self.fio_percentiles.clone());
        put("fio-log", self.fio_log.clone());
        if self.buffered {
            v.push("--buffered".into());
        }
        if self.invalidate {
            v.push("--invalidate".into());
        }
        if self.hipri {
            v.push("--hipri".into());
        }
        v
    }
}

impl RunFlags {
    /// The flags as the raw description of a `dbio run` (what [`RunFlags::args`] says,
    /// without a command line to parse; the label and the output format are not part of a
    /// job).
    pub fn raw(&self) -> RawJob {
        let d = RawJob::default();
        RawJob {
            rw: self.rw.map(str::to_string),
            mix: self.mix,
            bs: self.bs.clone(),
            align: self.align.map(size),
            qd: self.qd,
            threads: self.threads,
            duration: self.duration.clone(),
            ramp: self.ramp.clone(),
            ops: self.ops,
            bytes: self.bytes.map(size),
            size: self.size.map(size),
            offset: self.offset.map(size),
            range: self.range.map(size),
            skew: self.skew.clone(),
            sync: self.sync.clone(),
            rate: self.rate,
            arrivals: if self.poisson {
                "poisson".into()
            } else {
                d.arrivals.clone()
            },
            engine: self.engine.map_or(d.engine.clone(), str::to_string),
            data: self.data.clone(),
            steady: self.steady.clone(),
            steady_window: self.steady_window.clone(),
            steady_max: self.steady_max.clone(),
            seed: self.seed.unwrap_or(d.seed),
            streams: self.streams.iter().map(StreamFlags::table).collect(),
            targets: self.all_targets(),
            buffered: self.buffered,
            invalidate: self.invalidate,
            hipri: self.hipri,
            ..d
        }
    }
}

impl RunFlags {
    /// The `--target` values: the run's own, then each stream's as `ROLE=PATH`.
    fn all_targets(&self) -> Vec<String> {
        let mut v = self.targets.clone();
        for st in &self.streams {
            v.extend(st.flags.targets.iter().map(|p| format!("{}={p}", st.role)));
        }
        v
    }
}

/// One stream of a run of jobs that run at once: its name, its target role, and its own
/// settings in `flags` (rw, mix, bs, align, qd, threads, size, offset, range, skew, sync,
/// rate, data and targets; the rest are the run's).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamFlags {
    pub name: String,
    pub role: String,
    pub flags: RunFlags,
}

impl StreamFlags {
    /// The stream as `--stream` takes it: a profile's `[[stream]]` table written inline.
    pub fn table(&self) -> String {
        let f = &self.flags;
        let text = |v: Option<String>| v.map(|v| toml_string(&v));
        let number = |v: Option<u64>| v.map(|n| n.to_string());
        // In the order of `dbio run --help`, as the flags are.
        let keys = [
            ("name", Some(toml_string(&self.name))),
            ("target", Some(toml_string(&self.role))),
            ("rw", text(f.rw.map(str::to_string))),
            ("mix", number(f.mix.map(u64::from))),
            ("bs", text(f.bs.clone())),
            ("align", text(f.align.map(size))),
            ("qd", number(f.qd.map(u64::from))),
            ("threads", number(f.threads.map(u64::from))),
            ("size", text(f.size.map(size))),
            ("offset", text(f.offset.map(size))),
            ("range", text(f.range.map(size))),
            ("skew", text(f.skew.clone())),
            ("sync", text(f.sync.clone())),
            ("rate", number(f.rate)),
            ("data", text(f.data.clone())),
        ];
        let kv: Vec<String> = keys
            .into_iter()
            .filter_map(|(k, v)| Some(format!("{k} = {}", v?)))
            .collect();
        format!("{{{}}}", kv.join(", "))
    }
}

/// A TOML basic string: `"…"` with `"`, `\` and control characters escaped.
fn toml_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One `dbio run` of a translation: the job's name (fio's section) and its flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub name: String,
    pub flags: RunFlags,
}

/// A whole translation: the runs, in order, and what became of every option.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Translation {
    pub jobs: Vec<Job>,
    pub notes: Vec<Note>,
    /// The dbio flags of the outputs the tool's own flags ask for, given to every run
    /// (fio's `--output-format=json`: `--json-format fio --json -`).
    pub outputs: Vec<String>,
    /// SQLIO's buffering letter (`-B` N, Y, H or S) for SQLIO's result layout: a run that
    /// only reads cannot tell write-through (-BN, -BS) from the rest by its flags alone.
    pub sqlio_buffering: Option<char>,
}

impl Translation {
    /// Records an option dbio does the same as the other tool.
    pub fn mapped(&mut self, option: &str, text: impl Into<String>) {
        self.note(option, Fate::Mapped, text);
    }

    /// Records an option dbio does with a stated difference.
    pub fn differs(&mut self, option: &str, text: impl Into<String>) {
        self.note(option, Fate::Differs, text);
    }

    /// Records an option dbio refuses, with the reason.
    pub fn refuse(&mut self, option: &str, text: impl Into<String>) {
        self.note(option, Fate::Refused, text);
    }

    fn note(&mut self, option: &str, fate: Fate, text: impl Into<String>) {
        self.notes.push(Note {
            option: option.to_string(),
            fate,
            text: text.into(),
        });
    }

    /// The refused options.
    pub fn refusals(&self) -> Vec<&Note> {
        self.notes
            .iter()
            .filter(|n| n.fate == Fate::Refused)
            .collect()
    }
}

/// A byte count the way dbio's flags take it: `8k`, `64k`, `1m`, `10g`, or bytes.
pub fn size(bytes: u64) -> String {
    for (shift, unit) in [(40, "t"), (30, "g"), (20, "m"), (10, "k")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

/// Seconds the way dbio's flags take them: `60s`, `1500ms`.
pub fn secs(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{}s", s as u64)
    } else {
        format!("{}ms", (s * 1000.0).round() as u64)
    }
}

/// One argument quoted for a POSIX shell when it needs it.
pub fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,%+@".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// A whole command line, each argument quoted as needed.
pub fn command_line(args: &[String]) -> String {
    args.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Windows-only target (`C:`, `9:`, `C:\x`, `\\server\share`, `#1`) with what to give
/// instead; None for a path Linux can open.
pub fn windows_target(t: &str) -> Option<String> {
    let b = t.as_bytes();
    let drive = b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphanumeric();
    if t.starts_with('#') {
        Some(format!(
            "{t} is a Windows physical drive number; on Linux give the device path, e.g. /dev/sdb or /dev/nvme0n1 (writing to it needs --destroy-data)"
        ))
    } else if drive && b.len() == 2 {
        Some(format!(
            "{t} is a Windows drive or disk; on Linux give the device path, e.g. /dev/sdb1, or a file on its file system"
        ))
    } else if drive || t.starts_with("\\\\") || t.contains('\\') {
        Some(format!(
            "{t} is a Windows path; give the Linux path of the file, e.g. /mnt/data/testfile.dat"
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_times_in_dbio_words() {
        assert_eq!(size(8192), "8k");
        assert_eq!(size(1000 << 20), "1000m");
        assert_eq!(size(10 << 30), "10g");
        assert_eq!(size(1536), "1536");
        assert_eq!(size(512), "512");
        assert_eq!(secs(60.0), "60s");
        assert_eq!(secs(0.5), "500ms");
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("/mnt/a b"), "'/mnt/a b'");
        assert_eq!(shell_quote("8k:70,64k:30"), "8k:70,64k:30");
        assert_eq!(shell_quote("p99<1ms"), "'p99<1ms'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }

    #[test]
    fn windows_targets_are_named() {
        assert!(windows_target("#1").unwrap().contains("/dev/"));
        assert!(windows_target("E:").is_some());
        assert!(windows_target("c:\\testfile.dat").is_some());
        assert!(windows_target("/mnt/t.dat").is_none());
        assert!(windows_target("testfile.dat").is_none());
    }
}
