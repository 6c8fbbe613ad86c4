//! What the private servers need from the host: who we are, private folders, commands run
//! as the server's user, a free port, mounts.

use crate::error::DbError;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// A user's uid and gid, from `id`.
fn user_ids(user: &str) -> Option<(u32, u32)> {
    let id = |flag: &str| -> Option<u32> {
        let out = Command::new("id").args([flag, user]).output().ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    };
    Some((id("-u")?, id("-g")?))
}

/// Whether `path` is a mount point now (/proc/self/mounts).
pub fn mounted(path: &Path) -> bool {
    let p = path.to_string_lossy();
    std::fs::read_to_string("/proc/self/mounts")
        .is_ok_and(|m| m.lines().any(|l| l.split(' ').nth(1) == Some(&*p)))
}

/// Unmounts `path` (after a sync, so nothing written is lost), lazily when it is still busy;
/// true when nothing is mounted there any more (or only lazily, until its last user ends).
pub fn unmount(path: &Path) -> bool {
    let ok = |c: &mut Command| c.status().is_ok_and(|s| s.success());
    let _ = Command::new("sync").status();
    (ok(Command::new("umount").arg(path)) && !mounted(path))
        || ok(Command::new("umount").arg("-l").arg(path))
        || !mounted(path)
}

/// Whether this process runs as root.
pub(super) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// The account a server runs as: `user` when we are root (servers refuse root), else us.
pub(super) fn run_as(user: &str) -> Result<Option<(u32, u32)>, DbError> {
    if !is_root() {
        return Ok(None);
    }
    user_ids(user).map(Some).ok_or_else(|| {
        DbError::Private(
            format!(
                "no '{user}' user to run the server as (the server refuses root); install the server package, which creates it"
            ),
        )
    })
}

/// A new empty folder under the system temp dir, owned by `owner` (so the server can use it).
pub(super) fn private_dir(prefix: &str, owner: Option<(u32, u32)>) -> Result<PathBuf, DbError> {
    private_dir_in(&std::env::temp_dir(), prefix, owner)
}

/// A new empty folder under `parent`, owned by `owner`.
pub(super) fn private_dir_in(
    parent: &Path,
    prefix: &str,
    owner: Option<(u32, u32)>,
) -> Result<PathBuf, DbError> {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = parent.join(format!(
        "{prefix}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir)
        .map_err(|e| DbError::Private(format!("cannot create {}: {e}", dir.display())))?;
    if let Some((u, g)) = owner {
        std::os::unix::fs::chown(&dir, Some(u), Some(g)).map_err(|e| {
            DbError::Private(format!(
                "cannot hand {} to the server's user: {e}",
                dir.display()
            ))
        })?;
    }
    Ok(dir)
}

/// A command run as `owner` (when set).
pub(super) fn command(program: &Path, owner: Option<(u32, u32)>) -> Command {
    let mut c = Command::new(program);
    if let Some((u, g)) = owner {
        c.uid(u).gid(g);
    }
    c.env_remove("PGDATA")
        .env_remove("PGHOST")
        .env_remove("PGPORT");
    c
}

/// Runs `c` to the end; an error with its output when it fails.
pub(super) fn run(mut c: Command, what: &str) -> Result<(), DbError> {
    let out = c
        .output()
        .map_err(|e| DbError::Private(format!("cannot run {what}: {e}")))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(DbError::Private(format!(
            "{what} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim(),
            String::from_utf8_lossy(&out.stdout).trim()
        )))
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now.
pub(super) fn free_port() -> Result<u16, DbError> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| DbError::Private(format!("no free port: {e}")))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| DbError::Private(format!("no free port: {e}")))
}

/// The first of `candidates` that exists.
pub(super) fn find(candidates: &[PathBuf]) -> Option<PathBuf> {
    candidates.iter().find(|p| p.is_file()).cloned()
}

/// `name` in each folder of PATH and in `extra`.
pub(super) fn on_path(name: &str, extra: &[&str]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(extra.iter().map(PathBuf::from));
    dirs.into_iter().map(|d| d.join(name)).collect()
}
