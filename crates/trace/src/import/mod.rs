//! Other tools' traces as dbio traces (`dbio capture --import`): blktrace's per-CPU binary
//! files and fio's iolog v2/v3, merged in time order and written in dbio's trace format,
//! so `--summary`, `--profile`, `replay` and the fio export read them as they read a
//! capture. Two passes over the files (the devices and how far they reach first, then the
//! records), in flat memory for files of any length.

mod blktrace;
mod iolog;

use crate::capture::GIVE_UP_NS;
use crate::format::{Header, Record, TraceDevice, TraceWriter, Trailer, VERSION};
use crate::pair::Pairing;
use blktrace::{EventReader, Kind};
use dbio_model::capture::Imported;
use iolog::IologReader;
use std::io::{BufWriter, Read, Write};

/// What an import wrote.
struct Done {
    trailer: Trailer,
    devices: usize,
    /// Files that end part way through an event.
    cut: Vec<String>,
}

/// Converts the files `inputs` (blktrace's output, named by its files or by the prefix
/// given to `blktrace -o`, or fio's iologs) into the new trace file `out`; says what it
/// wrote, or names the file and what is wrong (and leaves no trace behind).
pub fn import_files(inputs: &[String], out: &str) -> Result<String, String> {
    let files = expand(inputs)?;
    let kind = kind_of(&files)?;
    let file = crate::create_new(out, "a trace")?;
    let w = BufWriter::with_capacity(1 << 20, file);
    let done = match kind {
        None => from_blktrace(&files, w),
        Some(v) => from_iolog(&files, v, w),
    };
    let done = done.inspect_err(|_| drop(std::fs::remove_file(out)))?;
    let t = &done.trailer;
    if t.requests == 0 {
        drop(std::fs::remove_file(out));
        return Err(match kind {
            None => format!("{}: no request both issued and completed in the files (blktrace keeps them with its default mask, or -a issue -a complete)", inputs.join(" ")),
            Some(_) => format!("{}: no read, write, trim or sync line", inputs.join(" ")),
        });
    }
    let mut said = format!(
        "{} requests on {} devices from {} files of {}",
        t.requests,
        done.devices,
        files.len(),
        match kind {
            None => "blktrace".to_string(),
            Some(v) => format!("fio's iolog v{v}"),
        }
    );
    for (n, what) in [
        (t.unmatched_completions, "completions without their issue"),
        (
            t.in_flight_at_end,
            "requests without their completion (not in the trace)",
        ),
        (
            done.cut.len() as u64,
            "files cut part way through an event (read to the cut)",
        ),
    ] {
        if n > 0 {
            said += &format!("; {n} {what}");
        }
    }
    Ok(said)
}

/// The files named: each as given, or a blktrace prefix's `PREFIX.blktrace.N` files.
fn expand(inputs: &[String]) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for i in inputs {
        let p = std::path::Path::new(i);
        if p.is_file() {
            files.push(i.clone());
            continue;
        }
        if p.is_dir() {
            return Err(format!(
                "{i}: a folder; give the files, or blktrace's -o prefix"
            ));
        }
        let mut cpus: Vec<(u32, String)> = (0..4096)
            .map(|n| (n, format!("{i}.blktrace.{n}")))
            .filter(|(_, f)| std::path::Path::new(f).is_file())
            .collect();
        if cpus.is_empty() {
            return Err(format!(
                "{i}: no such file, nor {i}.blktrace.0 (blktrace -o {i})"
            ));
        }
        cpus.sort();
        files.extend(cpus.into_iter().map(|(_, f)| f));
    }
    Ok(files)
}

/// None for blktrace's files, or the iolog version; every file must be of one kind.
fn kind_of(files: &[String]) -> Result<Option<u8>, String> {
    let mut kinds = Vec::new();
    for f in files {
        let mut head = Vec::with_capacity(32);
        let file = std::fs::File::open(f).map_err(|e| format!("{f}: {e}"))?;
        file.take(32)
            .read_to_end(&mut head)
            .map_err(|e| format!("{f}: {e}"))?;
        let kind = match iolog::version(&head) {
            Some(v) => Some(v),
            None if blktrace::looks_like(&head) => None,
            None => {
                return Err(format!(
                    "{f}: neither blktrace's binary output nor fio's iolog v2/v3"
                ))
            }
        };
        if kinds.first().is_some_and(|k| *k != kind) {
            return Err(format!(
                "{f}: of another kind than {}: import one tool's files at a time",
                files[0]
            ));
        }
        kinds.push(kind);
    }
    Ok(kinds[0])
}

/// The index of the head with the earliest time (the first of equals).
fn earliest<T>(heads: &[Option<T>], time: impl Fn(&T) -> u64) -> Option<usize> {
    (heads.iter().enumerate())
        .filter_map(|(k, h)| h.as_ref().map(|h| (time(h), k)))
        .min()
        .map(|(_, k)| k)
}

/// The trace's header: its devices, its start, and what the files lack.
fn header(devices: Vec<TraceDevice>, files: &[String], span_ns: u64, imported: Imported) -> Header {
    // The files were written as the tool ended: the trace began a span before.
    let ended = std::fs::metadata(&files[0]).and_then(|m| m.modified());
    let began = ended.map_or(std::time::SystemTime::UNIX_EPOCH, |t| {
        t - std::time::Duration::from_nanos(span_ns)
    });
    Header {
        version: VERSION,
        dbio_version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: humantime::format_rfc3339_seconds(began).to_string(),
        start_ns: 0,
        clock: "imported".into(),
        devices,
        imported: Some(imported),
    }
}

/// The kernel's dev_t of each device and the device.
type Devices = Vec<(u32, TraceDevice)>;

/// The devices of blktrace's files (named by their files) with how far their requests
/// reach, and the first and last issue times.
fn blktrace_devices(files: &[String]) -> Result<(Devices, u64, u64), String> {
    let (mut devs, mut first, mut last) = (Vec::<(u32, TraceDevice)>::new(), u64::MAX, 0);
    for f in files {
        let mut rd = EventReader::open(f)?;
        let name = f.rsplit('/').next().unwrap_or(f);
        let name = name.split(".blktrace.").next().unwrap_or(name).to_string();
        while let Some(e) = rd.next_event()? {
            let Kind::Issue(b) = e.kind() else { continue };
            (first, last) = (first.min(e.time), last.max(e.time));
            let k = match devs.iter().position(|d| d.0 == b.dev) {
                Some(k) => k,
                None => {
                    let (major, minor) = (b.dev >> 20, b.dev & 0xf_ffff);
                    let clash = devs.iter().any(|d| d.1.name == name);
                    let name = if clash {
                        format!("{name}-{major}:{minor}")
                    } else {
                        name.clone()
                    };
                    let dev = format!("{major}:{minor}");
                    devs.push((
                        b.dev,
                        TraceDevice {
                            name,
                            dev,
                            size_bytes: 0,
                        },
                    ));
                    devs.len() - 1
                }
            };
            let end = (b.sector + u64::from(b.sectors)) * 512;
            devs[k].1.size_bytes = devs[k].1.size_bytes.max(end);
        }
    }
    Ok((devs, first.min(last), last))
}

/// blktrace's files: the issues and completions of each device paired into requests.
fn from_blktrace<W: Write>(files: &[String], out: W) -> Result<Done, String> {
    let (devs, first, last) = blktrace_devices(files)?;
    let imported = Imported {
        from: "blktrace".into(),
        files: files.to_vec(),
        times: true,
        latencies: true,
    };
    let h = header(
        devs.iter().map(|d| d.1.clone()).collect(),
        files,
        last - first,
        imported,
    );
    let mut w = TraceWriter::new(out, &h).map_err(|e| e.to_string())?;
    let mut readers = files
        .iter()
        .map(|f| EventReader::open(f))
        .collect::<Result<Vec<_>, _>>()?;
    let mut heads = readers
        .iter_mut()
        .map(|r| r.next_event())
        .collect::<Result<Vec<_>, _>>()?;
    let (mut pairing, mut failed, mut seen) = (Pairing::default(), None, 0u64);
    let mut write = |r: &Record| {
        if failed.is_none() {
            failed = w.record(r).err();
        }
    };
    while let Some(k) = earliest(&heads, |e| e.time) {
        let e = heads[k].take().expect("a head");
        heads[k] = readers[k].next_event()?;
        let at = e.time.saturating_sub(first);
        match e.kind() {
            Kind::Issue(b) => {
                let index = devs
                    .iter()
                    .position(|d| d.0 == b.dev)
                    .expect("seen in the first pass");
                pairing.issue(at, index as u32, b);
            }
            Kind::Complete(b) => pairing.complete(at, b),
            Kind::Other => continue,
        }
        seen += 1;
        if seen % 4096 == 0 {
            pairing.give_up_before(at.saturating_sub(GIVE_UP_NS));
            pairing.ready(false, &mut write);
        }
    }
    pairing.ready(true, &mut write);
    if let Some(e) = failed {
        return Err(e.to_string());
    }
    let trailer = Trailer {
        requests: w.requests,
        end_ns: last - first,
        unmatched_completions: pairing.unmatched_completions,
        in_flight_at_end: pairing.in_flight(),
        ..Trailer::default()
    };
    w.finish(&trailer).map_err(|e| e.to_string())?;
    let cut = (readers.iter().zip(files))
        .filter(|(r, _)| r.cut)
        .map(|(_, f)| f.clone())
        .collect();
    Ok(Done {
        trailer,
        devices: devs.len(),
        cut,
    })
}

/// fio's iologs: each I/O line a request (without the device's latency), at its time
/// (v3) or in its order (v2).
fn from_iolog<W: Write>(files: &[String], version: u8, out: W) -> Result<Done, String> {
    let mut devs: Vec<TraceDevice> = Vec::new();
    let mut last_us = 0;
    let find = |devs: &[TraceDevice], file: &str| {
        let name = file.strip_prefix("/dev/").unwrap_or(file);
        devs.iter().position(|d| d.name == name)
    };
    for f in files {
        let mut rd = IologReader::open(f)?;
        while let Some(e) = rd.next_entry()? {
            let Some((op, offset, len)) = e.io else {
                continue;
            };
            last_us = last_us.max(e.us);
            let k = find(&devs, &e.file).unwrap_or_else(|| {
                let name = e.file.strip_prefix("/dev/").unwrap_or(&e.file).to_string();
                devs.push(TraceDevice {
                    name,
                    dev: "-".into(),
                    size_bytes: 0,
                });
                devs.len() - 1
            });
            if op != crate::event::Op::Flush {
                devs[k].size_bytes = devs[k].size_bytes.max(offset + len);
            }
        }
    }
    let imported = Imported {
        from: format!("fio iolog v{version}"),
        files: files.to_vec(),
        times: version >= 3,
        latencies: false,
    };
    let h = header(devs.clone(), files, last_us * 1000, imported);
    let mut w = TraceWriter::new(out, &h).map_err(|e| e.to_string())?;
    let mut readers = files
        .iter()
        .map(|f| IologReader::open(f))
        .collect::<Result<Vec<_>, _>>()?;
    let mut heads = readers
        .iter_mut()
        .map(|r| r.next_entry())
        .collect::<Result<Vec<_>, _>>()?;
    while let Some(k) = earliest(&heads, |e| e.us) {
        let e = heads[k].take().expect("a head");
        heads[k] = readers[k].next_entry()?;
        let Some((op, offset, len)) = e.io else {
            continue;
        };
        let sectors = u32::try_from(len / 512)
            .map_err(|_| format!("{}: a request of {len} bytes", files[k]))?;
        let r = Record {
            issue_ns: e.us * 1000,
            device: find(&devs, &e.file).expect("seen in the first pass") as u32,
            op,
            preflush: false,
            fua: false,
            sync: false,
            sector: offset / 512,
            sectors,
            latency_ns: 0,
        };
        w.record(&r).map_err(|e| e.to_string())?;
    }
    let trailer = Trailer {
        requests: w.requests,
        end_ns: last_us * 1000,
        ..Trailer::default()
    };
    w.finish(&trailer).map_err(|e| e.to_string())?;
    Ok(Done {
        trailer,
        devices: devs.len(),
        cut: Vec::new(),
    })
}
