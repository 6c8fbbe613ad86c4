//! A folder of repeated exports as a collection (SQL Server and Oracle, whose statistics a
//! scheduled job saves every interval): each export after the first is one sample, the
//! difference from the one before (across restarts, as a live collection), timed by the
//! file's modification time and, where the export says, its server's own clock.

use super::across::delta_across;
use super::Base;
use dbio_model::collect::{DbIo, Sample};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The samples of the exports in `dir` written after `after_ms` (unix ms; 0: all), each the
/// difference from the one before (`base`, a collection's last export, when it goes on), and
/// the last export read with its time, to go on from. An error names a file that is no
/// export, or exports of another source.
pub fn series(
    dir: &str,
    after_ms: u64,
    base: Option<Base>,
) -> Result<(Vec<Sample>, Option<Base>), String> {
    let mut files = files(dir)?;
    files.retain(|(t, _)| *t > after_ms);
    let mut base = base;
    let mut out = Vec::new();
    for (t, path) in files {
        let file = path.display().to_string();
        let text = crate::export_text::read(&file, |head| crate::check_export_start(head, &file))
            .map_err(|e| e.to_string())?;
        let snap = crate::read_export(&text, &file, false).map_err(|e| e.to_string())?;
        if snap.is_delta {
            // An AWR report's section is already one interval's counts.
            let secs = snap.counting_ms.unwrap_or(0) as f64 / 1000.0;
            let c = snap.as_counts();
            out.push(sample(t, secs, c.objects, c.io_wait, Vec::new()));
            continue;
        }
        let Some((before, at)) = base.take() else {
            base = Some((snap, t));
            continue;
        };
        if before.system != snap.system {
            return Err(format!(
                "{file}: a {} export among {} ones; give a folder of one source's exports",
                snap.system, before.system
            ));
        }
        let secs = match (before.counting_ms, snap.counting_ms) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1000.0,
            _ => t.saturating_sub(at) as f64 / 1000.0,
        };
        let d = delta_across(&before, &snap);
        let objects = d
            .objects
            .into_iter()
            .filter(|o| o.ios() > 0 || out.is_empty())
            .collect();
        let events = d
            .event
            .map(|e| format!("{e} ({file})"))
            .into_iter()
            .collect();
        out.push(sample(t, secs, objects, d.io_wait, events));
        base = Some((snap, t));
    }
    Ok((out, base))
}

/// One sample of an export's counts.
fn sample(
    t_ms: u64,
    secs: f64,
    objects: Vec<dbio_model::advise::ObjectIo>,
    io_wait: Option<crate::snapshot::IoWait>,
    events: Vec<String>,
) -> Sample {
    Sample {
        t_ms,
        secs,
        devices: Vec::new(),
        host_cpu: None,
        server_cpu: None,
        db: Some(DbIo {
            secs,
            objects,
            io_wait: io_wait.map(|w| (w.io_ms, w.busy_ms)),
            query_ms: 0.0,
        }),
        events,
    }
}

/// The folder's files (not hidden ones, not folders) by modification time, then name.
fn files(dir: &str) -> Result<Vec<(u64, PathBuf)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("--exports {dir}: {e}"))?;
    let mut files = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let hidden = e.file_name().to_string_lossy().starts_with('.');
        let meta = e
            .metadata()
            .map_err(|err| format!("{}: {err}", path.display()))?;
        if hidden || !meta.is_file() {
            continue;
        }
        let t = meta
            .modified()
            .ok()
            .and_then(|m| m.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_millis() as u64);
        files.push((t, path));
    }
    files.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| name(&a.1).cmp(name(&b.1))));
    Ok(files)
}

fn name(p: &Path) -> &std::ffi::OsStr {
    p.file_name().unwrap_or_default()
}
