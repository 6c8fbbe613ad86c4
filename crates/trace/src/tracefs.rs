//! The kernel's tracing file system: found (or mounted), and a private instance of it with
//! its own per-CPU buffers, so a capture neither sees nor disturbs anyone else's tracing.

use crate::event::Layout;
use crate::TraceError;
use std::fs::{self, File};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where tracefs is mounted. One dbio mounts stays mounted, as a distribution's would: a
/// second capture running at the same time uses it, so none may take it away.
pub struct Tracefs {
    pub root: PathBuf,
}

impl Tracefs {
    /// The mounted tracefs, or tracefs mounted at /sys/kernel/tracing.
    pub fn open() -> Result<Tracefs, TraceError> {
        let mounted = || {
            ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"]
                .into_iter()
                .find(|root| Path::new(root).join("instances").is_dir())
                .map(|root| Tracefs { root: root.into() })
        };
        if let Some(fs) = mounted() {
            return Ok(fs);
        }
        let root = PathBuf::from("/sys/kernel/tracing");
        let out = Command::new("mount")
            .args(["-t", "tracefs", "nodev"])
            .arg(&root)
            .output();
        // A second dbio starting at the same moment may have mounted it first: its mount
        // serves (this one's was refused as "already mounted").
        if let Some(fs) = mounted() {
            return Ok(fs);
        }
        match out {
            Ok(o) => Err(TraceError::NoTracefs(
                String::from_utf8_lossy(&o.stderr).trim().to_string(),
            )),
            Err(e) => Err(TraceError::NoTracefs(format!("mount: {e}"))),
        }
    }
}

/// A tracing instance of dbio's own (`instances/NAME`), removed when dropped.
pub struct Instance {
    pub dir: PathBuf,
}

impl Instance {
    /// A new instance: the `mono` clock (CLOCK_MONOTONIC), buffers of `buffer_kb` per CPU
    /// that drop new events rather than overwrite old ones when full.
    pub fn create(fs: &Tracefs, name: &str, buffer_kb: u64) -> Result<Instance, TraceError> {
        let dir = fs.root.join("instances").join(name);
        fs::create_dir(&dir).map_err(|e| TraceError::at(&dir, e))?;
        let inst = Instance { dir };
        inst.write("trace_clock", "mono")?;
        inst.write("options/overwrite", "0")?;
        inst.write("buffer_size_kb", &buffer_kb.to_string())?;
        Ok(inst)
    }

    /// Writes `value` into the instance's file `name`.
    pub fn write(&self, name: &str, value: &str) -> Result<(), TraceError> {
        let path = self.dir.join(name);
        fs::write(&path, value).map_err(|e| TraceError::at(&path, e))
    }

    /// The layout of event `group/name` (its format file).
    pub fn layout(&self, event: &str) -> Result<Layout, TraceError> {
        let path = self.dir.join("events").join(event).join("format");
        let text = fs::read_to_string(&path).map_err(|e| TraceError::at(&path, e))?;
        Layout::parse(&text).map_err(|why| TraceError::Format(event.to_string(), why))
    }

    /// Enables `event` (`group/name`) with the kernel-side `filter`.
    pub fn enable(&self, event: &str, filter: &str) -> Result<(), TraceError> {
        self.write(&format!("events/{event}/filter"), filter)?;
        self.write(&format!("events/{event}/enable"), "1")
    }

    /// Each CPU's raw buffer, opened not to block, with its CPU number.
    pub fn cpu_pipes(&self) -> Result<Vec<(u32, File)>, TraceError> {
        let dir = self.dir.join("per_cpu");
        let mut pipes = Vec::new();
        for entry in fs::read_dir(&dir).map_err(|e| TraceError::at(&dir, e))? {
            let path = entry.map_err(|e| TraceError::at(&dir, e))?.path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            let Some(cpu) = name.strip_prefix("cpu").and_then(|n| n.parse().ok()) else {
                continue;
            };
            let raw = path.join("trace_pipe_raw");
            let f = fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&raw)
                .map_err(|e| TraceError::at(&raw, e))?;
            pipes.push((cpu, f));
        }
        pipes.sort_by_key(|p| p.0);
        Ok(pipes)
    }

    /// Events the buffers lost: each CPU's overruns and dropped events.
    pub fn lost_events(&self) -> u64 {
        let Ok(cpus) = fs::read_dir(self.dir.join("per_cpu")) else {
            return 0;
        };
        cpus.flatten()
            .filter_map(|c| fs::read_to_string(c.path().join("stats")).ok())
            .flat_map(|s| {
                s.lines()
                    .filter(|l| l.starts_with("overrun:") || l.starts_with("dropped events:"))
                    .filter_map(|l| l.rsplit(':').next()?.trim().parse::<u64>().ok())
                    .collect::<Vec<_>>()
            })
            .sum()
    }

    /// Bytes of one page of the buffers (what one read of a raw pipe returns at most).
    pub fn page_size(&self) -> usize {
        fs::read_to_string(self.dir.join("buffer_subbuf_size_kb"))
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .map_or(4096, |kb| kb * 1024)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.write("tracing_on", "0");
        // The kernel refuses to remove an instance whose files are open: the pipes are
        // closed before this runs, since the capture owns them for less long.
        let _ = fs::remove_dir(&self.dir);
    }
}
