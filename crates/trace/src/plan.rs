//! A capture as asked on the command line, checked before anything is traced: the
//! devices named and those holding the folders named, the duration, a new output file,
//! and root.

use crate::capture::CaptureOptions;
use crate::device::Device;
use std::path::Path;

/// The capture asked for; the message says what is wrong.
pub fn plan(
    devices: &[String],
    paths: &[String],
    duration: Option<&str>,
    out: Option<&str>,
) -> Result<CaptureOptions, String> {
    let out = out.ok_or("give the trace file to write: --out FILE")?;
    if devices.is_empty() && paths.is_empty() {
        return Err("give a device to capture: --device /dev/... or --path DIR".into());
    }
    if !dbio_engine::sys::is_root() {
        return Err(
            "capturing needs root (the kernel's block tracepoints, through tracefs)".into(),
        );
    }
    if Path::new(out).exists() {
        return Err(format!(
            "{out} exists: dbio does not overwrite a trace; give a new name"
        ));
    }
    let mut found = Vec::new();
    for d in devices {
        found.push(Device::of_node(Path::new(d)).map_err(|e| e.to_string())?);
    }
    for p in paths {
        found.push(Device::holding(Path::new(p)).map_err(|e| e.to_string())?);
    }
    found.dedup_by(|a, b| (a.major, a.minor) == (b.major, b.minor));
    let duration = match duration {
        Some(d) => {
            Some(dbio_model::units::parse_duration(d).map_err(|e| format!("--duration {d}: {e}"))?)
        }
        None => None,
    };
    Ok(CaptureOptions {
        devices: found,
        duration,
        out: out.to_string(),
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
    })
}
