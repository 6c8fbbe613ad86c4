//! The marker that says dbio created a file, and whether dbio has prefilled it.
//!
//! Kept in the extended attribute `user.dbio`; where the file system has no user xattrs,
//! in a sidecar file `.<name>.dbio` beside it that also records the inode, so a stale
//! sidecar never vouches for a different file that later took the same name.

use super::error::TargetError;
use super::types::{OpenTarget, TargetKind};
use std::fs::File;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use xattr::FileExt;

const XATTR: &str = "user.dbio";

/// What the marker of a dbio-created file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marker {
    /// dbio wrote the whole file and synced it.
    pub prefilled: bool,
}

/// The sidecar path for `path`: `.<filename>.dbio` in the same directory.
pub(crate) fn sidecar_path(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_string_lossy();
    Some(path.with_file_name(format!(".{name}.dbio")))
}

fn encode(m: Marker) -> String {
    format!("created-by=dbio;prefilled={}", u8::from(m.prefilled))
}

/// Parses a marker value; `ino` must match when the value names one (sidecars do).
fn decode(value: &[u8], ino: u64) -> Option<Marker> {
    let text = std::str::from_utf8(value).ok()?;
    let mut ours = false;
    let mut prefilled = false;
    for field in text.trim().split(';') {
        match field.split_once('=') {
            Some(("created-by", "dbio")) => ours = true,
            Some(("prefilled", v)) => prefilled = v == "1",
            Some(("ino", v)) if v.parse::<u64>().ok() != Some(ino) => return None,
            _ => {}
        }
    }
    ours.then_some(Marker { prefilled })
}

fn unsupported(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::EOPNOTSUPP)
}

/// Reads the marker of the open file at `path`: None when dbio did not create it.
pub(crate) fn read_marker(path: &Path, file: &File) -> io::Result<Option<Marker>> {
    let ino = file.metadata()?.ino();
    match file.get_xattr(XATTR) {
        Ok(Some(v)) => return Ok(decode(&v, ino)),
        Ok(None) => {}
        Err(e) if unsupported(&e) => {}
        Err(e) => return Err(e),
    }
    read_sidecar(path, ino)
}

fn read_sidecar(path: &Path, ino: u64) -> io::Result<Option<Marker>> {
    let Some(side) = sidecar_path(path) else {
        return Ok(None);
    };
    match std::fs::read(side) {
        Ok(v) => Ok(decode(&v, ino)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Writes the marker: the xattr, or the sidecar where xattrs are unsupported.
pub(crate) fn write_marker(path: &Path, file: &File, m: Marker) -> io::Result<()> {
    match file.set_xattr(XATTR, encode(m).as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if unsupported(&e) => write_sidecar(path, file, m),
        Err(e) => Err(e),
    }
}

fn write_sidecar(path: &Path, file: &File, m: Marker) -> io::Result<()> {
    let side = sidecar_path(path).ok_or_else(|| io::Error::from_raw_os_error(libc::EINVAL))?;
    let ino = file.metadata()?.ino();
    std::fs::write(side, format!("{};ino={ino}\n", encode(m)))
}

/// Removes a sidecar, if any (after a failed creation).
pub(crate) fn remove_sidecar(path: &Path) {
    if let Some(side) = sidecar_path(path) {
        let _ = std::fs::remove_file(side);
    }
}

/// Records that dbio has written the whole of `t`, so later runs need no prefill.
/// Does nothing for a target dbio does not own (a device or a foreign file).
pub fn mark_prefilled(t: &OpenTarget) -> Result<(), TargetError> {
    if !t.owned || t.kind != TargetKind::File {
        return Ok(());
    }
    write_marker(Path::new(&t.path), &t.file, Marker { prefilled: true })
        .map_err(|e| TargetError::os("mark as prefilled", &t.path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_values() {
        assert_eq!(
            decode(b"created-by=dbio;prefilled=0", 7),
            Some(Marker { prefilled: false })
        );
        assert_eq!(
            decode(b"created-by=dbio;prefilled=1", 7),
            Some(Marker { prefilled: true })
        );
        assert_eq!(decode(b"created-by=other;prefilled=1", 7), None);
        assert_eq!(decode(b"\xff\xfe", 7), None);
        assert_eq!(
            decode(b"created-by=dbio;prefilled=1;ino=7\n", 7),
            Some(Marker { prefilled: true })
        );
        assert_eq!(decode(b"created-by=dbio;prefilled=1;ino=8\n", 7), None);
    }

    #[test]
    fn sidecar_round_trip_and_stale_sidecar_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let file = File::create(&path).unwrap();
        assert_eq!(sidecar_path(&path).unwrap(), dir.path().join(".f.dbio"));
        write_sidecar(&path, &file, Marker { prefilled: true }).unwrap();
        let ino = file.metadata().unwrap().ino();
        assert_eq!(
            read_sidecar(&path, ino).unwrap(),
            Some(Marker { prefilled: true })
        );
        // A sidecar left from an earlier file of the same name must not vouch for a new one.
        assert_eq!(read_sidecar(&path, ino + 1).unwrap(), None);
    }

    #[test]
    fn xattr_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let file = File::create(&path).unwrap();
        assert_eq!(read_marker(&path, &file).unwrap(), None);
        write_marker(&path, &file, Marker { prefilled: false }).unwrap();
        assert_eq!(
            read_marker(&path, &file).unwrap(),
            Some(Marker { prefilled: false })
        );
        write_marker(&path, &file, Marker { prefilled: true }).unwrap();
        assert_eq!(
            read_marker(&path, &file).unwrap(),
            Some(Marker { prefilled: true })
        );
    }
}
