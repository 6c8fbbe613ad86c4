//! A memory cgroup of the test's own, under the test process's own (cgroup v1 or v2), with a
//! limit: a server moved into it has its page cache held to that limit. Its processes are
//! moved back and the group removed on drop. Needs root and a writable cgroup hierarchy.

use crate::error::DbError;
use crate::slob::procfs::memory_cgroup;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A child memory cgroup with a limit.
pub struct MemoryCgroup {
    dir: PathBuf,
}

impl MemoryCgroup {
    /// Makes a group limited to `bytes`; an error says why it cannot be had here.
    pub fn make(bytes: u64) -> Result<MemoryCgroup, DbError> {
        let (parent, file) = memory_cgroup("self").ok_or(DbError::Private(
            "no memory cgroup here (/proc/self/cgroup)".into(),
        ))?;
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = parent.join(format!(
            "dbio-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&dir).map_err(|e| {
            DbError::Private(format!(
                "cannot make a memory cgroup at {}: {e}",
                dir.display()
            ))
        })?;
        let g = MemoryCgroup { dir };
        std::fs::write(g.dir.join(file), bytes.to_string())
            .map_err(|e| DbError::Private(format!("cannot set {}/{file}: {e}", g.dir.display())))?;
        Ok(g)
    }

    /// Moves process `pid` into the group (its children forked later follow it).
    pub fn add(&self, pid: u32) -> Result<(), DbError> {
        std::fs::write(self.dir.join("cgroup.procs"), pid.to_string()).map_err(|e| {
            DbError::Private(format!(
                "cannot move {pid} into {}: {e}",
                self.dir.display()
            ))
        })
    }

    fn procs(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl Drop for MemoryCgroup {
    /// Moves what is left to the parent group and removes the group, within 10 s.
    fn drop(&mut self) {
        let parent = self.dir.parent().map(|p| p.join("cgroup.procs"));
        let start = Instant::now();
        loop {
            for p in self.procs() {
                if let Some(parent) = &parent {
                    let _ = std::fs::write(parent, &p);
                }
            }
            if std::fs::remove_dir(&self.dir).is_ok() || start.elapsed() > Duration::from_secs(10) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if self.dir.exists() {
            eprintln!("could not remove the test's cgroup {}", self.dir.display());
        }
    }
}
