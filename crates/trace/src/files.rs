//! A trace's requests attributed to the files of a folder (`--files DIR`): each file's
//! extents (FIEMAP) placed on the trace's device, and every read and write found in them,
//! giving per-file I/O from the device's own view, without the database's statistics.

use crate::device::Device;
use crate::event::Op;
use crate::format::open_file;
use crate::TraceError;
use dbio_engine::fiemap::extents;
use dbio_model::capture::{FileIo, FilesCapture};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Where the files of a folder lie on one of a trace's devices.
pub struct FileMap {
    dir: String,
    /// The trace's index of the folder's disk.
    device: u32,
    files: Vec<(String, u64)>,
    /// (start, end) in the disk's sectors, and the file: sorted by start.
    extents: Vec<(u64, u64, u32)>,
    unmapped: Vec<String>,
}

impl FileMap {
    /// The extents of every regular file under `dir` (not crossing into other file
    /// systems), placed on its disk, which must be one of `devices` ("major:minor").
    pub fn of_dir(dir: &str, devices: &[String]) -> Result<FileMap, String> {
        let disk = Device::holding(Path::new(dir)).map_err(|e| format!("--files {dir}: {e}"))?;
        let numbers = format!("{}:{}", disk.major, disk.minor);
        let device = devices.iter().position(|d| *d == numbers).ok_or_else(|| {
            format!(
                "--files {dir}: its files are on {} ({numbers}), which the trace does not hold ({})",
                disk.name,
                devices.join(", ")
            )
        })? as u32;
        let fs_dev = std::fs::metadata(dir)
            .map_err(|e| format!("{dir}: {e}"))?
            .dev();
        let mut map = FileMap {
            dir: dir.to_string(),
            device,
            files: Vec::new(),
            extents: Vec::new(),
            unmapped: Vec::new(),
        };
        map.walk(Path::new(dir), fs_dev, disk.start_sector)?;
        map.extents.sort_unstable();
        Ok(map)
    }

    fn walk(&mut self, at: &Path, fs_dev: u64, start: u64) -> Result<(), String> {
        let entries = std::fs::read_dir(at).map_err(|e| format!("{}: {e}", at.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.dev() != fs_dev {
                continue;
            }
            if meta.is_dir() {
                self.walk(&path, fs_dev, start)?;
                continue;
            }
            if !meta.is_file() {
                continue;
            }
            let name = path
                .strip_prefix(&self.dir)
                .unwrap_or(&path)
                .display()
                .to_string();
            let found = std::fs::File::open(&path).and_then(|f| extents(&f));
            let Ok(found) = found else {
                self.unmapped.push(name);
                continue;
            };
            let file = self.files.len() as u32;
            self.files.push((name, meta.len()));
            for e in found.iter().filter(|e| e.in_place()) {
                let from = start + e.physical / 512;
                self.extents
                    .push((from, from + e.length.div_ceil(512), file));
            }
        }
        Ok(())
    }

    /// The file holding `sector` of the map's disk.
    fn file_at(&self, sector: u64) -> Option<u32> {
        let k = self.extents.partition_point(|e| e.0 <= sector);
        let e = self.extents.get(k.checked_sub(1)?)?;
        (sector < e.1).then_some(e.2)
    }
}

/// The reads and writes of the trace at `path` attributed to the files of `map` (by where
/// each request starts); the message names what is wrong.
pub fn attribute(path: &str, map: &FileMap) -> Result<FilesCapture, String> {
    let mut rd = open_file(path)?;
    let latencies = rd.header.imported.as_ref().is_none_or(|i| i.latencies);
    let mut io: Vec<FileIo> = (map.files.iter())
        .map(|(p, size)| FileIo {
            path: p.clone(),
            size_bytes: *size,
            reads: 0,
            writes: 0,
            bytes_read: 0,
            bytes_written: 0,
            read_ms: latencies.then_some(0.0),
            write_ms: latencies.then_some(0.0),
        })
        .collect();
    let mut outside = 0;
    loop {
        let r = match rd.next_record() {
            Ok(Some(r)) => r,
            Ok(None) | Err(TraceError::Truncated(_)) => break,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        if r.device != map.device || !matches!(r.op, Op::Read | Op::Write) {
            continue;
        }
        let Some(f) = map.file_at(r.sector) else {
            outside += 1;
            continue;
        };
        let f = &mut io[f as usize];
        let ms = r.latency_ns as f64 / 1e6;
        if r.op == Op::Read {
            (f.reads, f.bytes_read) = (f.reads + 1, f.bytes_read + r.bytes());
            f.read_ms = f.read_ms.map(|t| t + ms);
        } else {
            (f.writes, f.bytes_written) = (f.writes + 1, f.bytes_written + r.bytes());
            f.write_ms = f.write_ms.map(|t| t + ms);
        }
    }
    let total = io.len() as u64;
    io.retain(|f| f.reads + f.writes > 0);
    io.sort_by_key(|f| (std::cmp::Reverse(f.reads + f.writes), f.path.clone()));
    Ok(FilesCapture {
        dir: map.dir.clone(),
        idle_files: total - io.len() as u64,
        files: io,
        outside,
        unmapped: map.unmapped.iter().take(10).cloned().collect(),
    })
}

/// The summary of the trace at `path`, with its requests attributed to the files of `dir`
/// when one is given.
pub fn summary(
    path: &str,
    dir: Option<&str>,
) -> Result<dbio_model::capture::CaptureSummary, String> {
    let mut s = crate::summary::of_file(path)?;
    if let Some(dir) = dir {
        let devices: Vec<String> = s.devices.iter().map(|d| d.dev.clone()).collect();
        let map = FileMap::of_dir(dir, &devices)?;
        s.files = Some(attribute(path, &map)?);
    }
    Ok(s)
}
