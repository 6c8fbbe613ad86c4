//! `dbio collect`'s database side: sampling a database, its devices and the host's CPU
//! every interval, across restarts, resets and lost connections.

mod across;
mod device_io;
pub mod exports;
mod sampler;

pub use across::{delta_across, Across};
pub use sampler::Sampler;

/// The last snapshot a collection read and when (unix ms): where it goes on from.
pub type Base = (crate::snapshot::Snapshot, u64);

/// The devices named by `--device` (comma-separated, with or without /dev/), each checked
/// against /proc/diskstats; `auto` is the disk holding `data_dir` (the database's data
/// folder, when it is on this host). An error names a device this host does not have.
pub fn devices(flag: &str, data_dir: Option<&str>) -> Result<Vec<String>, String> {
    if flag == "auto" {
        return Ok(data_dir
            .and_then(crate::slob::procfs::device_of)
            .into_iter()
            .collect());
    }
    flag.split(',')
        .map(|d| d.trim().trim_start_matches("/dev/").to_string())
        .map(|d| {
            if d.is_empty() {
                Err("--device: an empty name; give devices as in /dev, e.g. --device sda,nvme0n1, or auto".to_string())
            } else if crate::slob::procfs::Disk::read(&d).is_none() {
                Err(format!("--device {d}: not in /proc/diskstats on this host; give a device as in /dev (lsblk lists them), or auto"))
            } else {
                Ok(d)
            }
        })
        .collect()
}
