//! Targets shared by streams of one run (fio's jobs on one file): each stream opens the file
//! itself, but it is prefilled, sampled and listed in the result once.

use dbio_engine::device::OpenTarget;
use std::os::unix::fs::MetadataExt;

/// The device and inode of an open file, or the device number of an open block device
/// (whichever node names it): the same for two opens of one target.
fn identity(t: &OpenTarget) -> Option<(u64, u64)> {
    use std::os::unix::fs::FileTypeExt;
    let m = t.file.metadata().ok()?;
    Some(if m.file_type().is_block_device() {
        (u64::MAX, m.rdev())
    } else {
        (m.dev(), m.ino())
    })
}

/// For each of `targets`, whether an earlier stream had it (its identity in `seen`, which
/// then gathers these targets' too).
pub(crate) fn earlier(targets: &[OpenTarget], seen: &mut Vec<(u64, u64)>) -> Vec<bool> {
    targets
        .iter()
        .map(|t| match identity(t) {
            Some(id) if seen.contains(&id) => true,
            Some(id) => {
                seen.push(id);
                false
            }
            None => false,
        })
        .collect()
}

/// Whether `path` is one of `targets` this stream uses first in the run (`shared` as
/// [`earlier`] gave it).
pub(crate) fn first_use(targets: &[OpenTarget], shared: &[bool], path: &str) -> bool {
    targets
        .iter()
        .zip(shared)
        .any(|(t, &s)| !s && t.path == path)
}

/// `items` without those whose `shared` flag is set: what the run's result lists once.
pub(crate) fn once<'a, T: 'a>(items: Vec<T>, shared: &'a [bool]) -> impl Iterator<Item = T> + 'a {
    items
        .into_iter()
        .zip(shared)
        .filter(|(_, &s)| !s)
        .map(|(x, _)| x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_engine::device::{open_target, TargetOptions};

    /// Two opens of one file (under two spellings of its path) are one target; another
    /// file is not.
    #[test]
    fn a_file_opened_by_two_streams_is_shared_by_the_second() {
        let dir = tempfile::tempdir().unwrap();
        let (f, g) = (dir.path().join("f"), dir.path().join("g"));
        let opts = TargetOptions {
            size: Some(1 << 20),
            write: true,
            ..TargetOptions::default()
        };
        let open = |p: &std::path::Path| open_target(p.to_str().unwrap(), &opts).unwrap();
        let first = vec![open(&f), open(&g)];
        let again = dir.path().join(".").join("f");
        let second = vec![open(&again)];
        let mut seen = Vec::new();
        assert_eq!(earlier(&first, &mut seen), [false, false]);
        assert_eq!(earlier(&second, &mut seen), [true]);
        assert!(first_use(&first, &[false, false], f.to_str().unwrap()));
        assert!(!first_use(&second, &[true], again.to_str().unwrap()));
        let kept: Vec<u32> = once(vec![1, 2, 3], &[false, true, false]).collect();
        assert_eq!(kept, [1, 3]);
    }
}
