//! Turns `dbio run` flags into one validated JobSpec; bad input stops here with a
//! one-line message naming the flag, the value and what to do.

use crate::args::RunArgs;
use dbio_model::units::{parse_duration, parse_size};
use dbio_model::*;

/// Largest block size dbio accepts.
const MAX_BS: u64 = 256 << 20;
/// Default measuring time when neither --duration, --ops nor --bytes is given.
const DEFAULT_SECS: f64 = 30.0;

fn size(flag: &str, v: &str) -> Result<u64, String> {
    parse_size(v).map_err(|e| format!("--{flag}: {e}"))
}

/// Parses `8k` or `8k:70,64k:20,256k:10`.
pub fn parse_bs(v: &str) -> Result<Vec<BsWeight>, String> {
    let mut out = Vec::new();
    for part in v.split(',') {
        let (s, w) = match part.split_once(':') {
            Some((s, w)) => {
                let w: u32 = w
                    .trim()
                    .parse()
                    .map_err(|_| format!("--bs: weight '{w}' in '{part}' is not a whole number; write sizes as SIZE:WEIGHT, e.g. 8k:70,64k:30"))?;
                (s, w)
            }
            None => (part, 1),
        };
        let size = size("bs", s)?;
        if size == 0 || size > MAX_BS {
            return Err(format!(
                "--bs: {part} is out of range; use 512 bytes to 256 MiB"
            ));
        }
        if w == 0 {
            return Err(format!("--bs: {part} has weight 0; leave it out instead"));
        }
        match out.iter_mut().find(|b: &&mut BsWeight| b.size == size) {
            Some(b) => b.weight += w,
            None => out.push(BsWeight { size, weight: w }),
        }
    }
    Ok(out)
}

/// Parses `dsync`, `fdatasync[:N]` or `fsync[:N]`.
pub fn parse_sync(v: &str) -> Result<SyncMode, String> {
    let (mode, n) = match v.split_once(':') {
        Some((m, n)) => (m, Some(n)),
        None => (v, None),
    };
    let every = match n {
        None => 1,
        Some(n) => match n.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(format!(
                    "--sync {v}: N must be a whole number of writes, 1 or more"
                ))
            }
        },
    };
    match mode {
        "dsync" if n.is_none() => Ok(SyncMode::Dsync),
        "fdatasync" => Ok(SyncMode::Fdatasync(every)),
        "fsync" => Ok(SyncMode::Fsync(every)),
        "none" => Ok(SyncMode::None),
        _ => Err(format!(
            "--sync {v}: unknown mode; use dsync, fdatasync:N or fsync:N"
        )),
    }
}

/// Validates every flag of `dbio run` into a JobSpec.
pub fn job_spec(a: &RunArgs) -> Result<JobSpec, String> {
    let rw = match a.rw.as_str() {
        "read" => Rw::Read,
        "write" => Rw::Write,
        "randread" => Rw::RandRead,
        "randwrite" => Rw::RandWrite,
        _ => Rw::RandRw,
    };
    if a.mix > 100 {
        return Err(format!(
            "--mix {}: the read share is a percentage, 0 to 100",
            a.mix
        ));
    }
    let read_pct = match rw {
        Rw::Read | Rw::RandRead => 100,
        Rw::Write | Rw::RandWrite => 0,
        Rw::RandRw => a.mix as u8,
    };
    let bs = parse_bs(&a.bs)?;
    let min_bs = bs.iter().map(|b| b.size).min().unwrap_or(0);
    let max_bs = bs.iter().map(|b| b.size).max().unwrap_or(0);
    let align = match &a.align {
        Some(v) => size("align", v)?,
        None => min_bs,
    };
    if align == 0 {
        return Err("--align: must be at least 1 byte".into());
    }
    if a.qd == 0 || a.qd > 65_536 {
        return Err(format!(
            "--qd {}: use 1 to 65536 outstanding I/Os per thread",
            a.qd
        ));
    }
    if a.threads == 0 || a.threads > 4096 {
        return Err(format!("--threads {}: use 1 to 4096", a.threads));
    }
    let file_size = a.size.as_deref().map(|v| size("size", v)).transpose()?;
    if let Some(s) = file_size {
        if s < max_bs {
            return Err(format!(
                "--size {}: smaller than the largest block size {}; use a larger --size",
                units::format_size(s),
                units::format_size(max_bs)
            ));
        }
    }
    let stop = match (&a.duration, a.ops, &a.bytes) {
        (_, Some(0), _) => return Err("--ops 0: give at least 1 I/O".into()),
        (_, Some(n), _) => StopAfter::Ops(n),
        (_, None, Some(b)) => match size("bytes", b)? {
            0 => return Err("--bytes 0: give at least one block".into()),
            n => StopAfter::Bytes(n),
        },
        (Some(d), None, None) => {
            let d = parse_duration(d).map_err(|e| format!("--duration: {e}"))?;
            if d.is_zero() {
                return Err("--duration 0: give a time above zero, e.g. 30s".into());
            }
            StopAfter::Seconds(d.as_secs_f64())
        }
        (None, None, None) => StopAfter::Seconds(DEFAULT_SECS),
    };
    let ramp_secs = parse_duration(&a.ramp)
        .map_err(|e| format!("--ramp: {e}"))?
        .as_secs_f64();
    let offset = size("offset", &a.offset)?;
    let range = a.range.as_deref().map(|v| size("range", v)).transpose()?;
    if range == Some(0) {
        return Err("--range 0: the region must hold at least one block".into());
    }
    if let Some(r) = range {
        if r < max_bs {
            return Err(format!(
                "--range {}: smaller than the largest block size {}",
                units::format_size(r),
                units::format_size(max_bs)
            ));
        }
    }
    if offset % align != 0 {
        return Err(format!(
            "--offset {offset}: not a multiple of the alignment {align}"
        ));
    }
    let sync = a
        .sync
        .as_deref()
        .map(parse_sync)
        .transpose()?
        .unwrap_or(SyncMode::None);
    if sync != SyncMode::None && !rw.writes() {
        return Err(format!(
            "--sync applies to writes, and --rw {} does not write",
            a.rw
        ));
    }
    if a.rate == Some(0) {
        return Err(
            "--rate 0: give the IOPS to issue, or leave --rate out for a closed loop".into(),
        );
    }
    let engine = match a.engine.as_str() {
        "psync" => EngineKind::Psync,
        "null" => EngineKind::Null,
        _ => EngineKind::Uring,
    };
    if (a.hipri || a.sqpoll) && engine != EngineKind::Uring {
        return Err("--hipri and --sqpoll need --engine uring".into());
    }
    Ok(JobSpec {
        targets: a.targets.clone(),
        file_size,
        rw,
        read_pct,
        bs,
        align,
        qd: a.qd,
        threads: a.threads,
        ramp_secs,
        stop,
        region: Region { offset, range },
        sync,
        rate: a.rate,
        engine,
        direct: !a.buffered,
        hipri: a.hipri,
        sqpoll: a.sqpoll,
        data: if a.data == "zeros" {
            DataKind::Zeros
        } else {
            DataKind::Random
        },
        destroy_data: a.destroy_data,
        seed: a.seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_size_distribution() {
        let bs = parse_bs("8k:70,64k:20,256k:10").unwrap();
        assert_eq!(bs.len(), 3);
        assert_eq!(
            bs[1],
            BsWeight {
                size: 65536,
                weight: 20
            }
        );
        assert!(parse_bs("8k:x").unwrap_err().contains("weight"));
        assert!(parse_bs("0").is_err());
        assert!(parse_bs("8q").unwrap_err().contains("unknown unit"));
    }

    #[test]
    fn sync_modes() {
        assert_eq!(parse_sync("dsync"), Ok(SyncMode::Dsync));
        assert_eq!(parse_sync("fdatasync:4"), Ok(SyncMode::Fdatasync(4)));
        assert_eq!(parse_sync("fsync"), Ok(SyncMode::Fsync(1)));
        assert!(parse_sync("fsync:0").is_err());
        assert!(parse_sync("sometimes").is_err());
    }
}
