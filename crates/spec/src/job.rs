//! Turns the flags of a run, over its profile, into one validated JobSpec in one pass; bad
//! input stops here with a one-line message naming the flag, the value and what to do.

use crate::error::SpecError;
use crate::phases::{parse_burst, parse_steady};
use crate::profiles;
use crate::raw::RawJob;
use crate::rules::MAX_BS;
use crate::session::session_job;
use crate::verify::{verify_spec, Verified};
use dbio_model::profile::Profile;
use dbio_model::units::{parse_duration, parse_size};
use dbio_model::*;

/// Default measuring time when neither --duration, --ops nor --bytes is given.
const DEFAULT_SECS: f64 = 30.0;
/// A size flag's value in bytes; Err names the flag.
fn size(flag: &str, v: &str) -> Result<u64, SpecError> {
    Ok(parse_size(v).map_err(|e| format!("--{flag}: {e}"))?)
}

/// Parses `8k` or `8k:70,64k:20,256k:10`.
pub fn parse_bs(v: &str) -> Result<Vec<BsWeight>, SpecError> {
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
            return Err(format!("--bs: {part} is out of range; use 512 bytes to 256 MiB").into());
        }
        if w == 0 {
            return Err(format!("--bs: {part} has weight 0; leave it out instead").into());
        }
        match out.iter_mut().find(|b: &&mut BsWeight| b.size == size) {
            Some(b) => {
                b.weight = b.weight.checked_add(w).ok_or_else(|| {
                    format!("--bs: the weights of {s} add up to more than {}; weights are relative, so use smaller ones, e.g. 8k:70,64k:30", u32::MAX)
                })?
            }
            None => out.push(BsWeight { size, weight: w }),
        }
    }
    Ok(out)
}

/// Parses `uniform`, `zipf:THETA`, `pareto:H` or `hotspot:IO/REGION`.
pub fn parse_skew(v: &str) -> Result<Skew, SpecError> {
    let bad = |why: &str| {
        format!("--skew {v}: {why}; use uniform, zipf:1.2, pareto:0.2 or hotspot:90/10")
    };
    let num = |x: &str| x.trim().parse::<f64>().map_err(|_| bad("not a number"));
    match v.split_once(':') {
        None if v == "uniform" => Ok(Skew::Uniform),
        Some(("zipf", t)) => match num(t)? {
            theta if theta > 0.0 && theta <= 10.0 => Ok(Skew::Zipf { theta }),
            _ => Err(bad("theta must be above 0 (and at most 10)").into()),
        },
        Some(("pareto", h)) => match num(h)? {
            h if h > 0.0 && h < 1.0 => Ok(Skew::Pareto { h }),
            _ => Err(bad("h must be between 0 and 1").into()),
        },
        Some(("hotspot", r)) => {
            let (io, region) = r
                .split_once('/')
                .ok_or_else(|| bad("write hotspot:IO/REGION in percent"))?;
            let (io, region) = (num(io)?, num(region)?);
            if !(1.0..=100.0).contains(&io)
                || !(1.0..100.0).contains(&region)
                || io.fract() != 0.0
                || region.fract() != 0.0
            {
                return Err(bad("IO must be 1-100 and REGION 1-99, whole percents").into());
            }
            Ok(Skew::Hotspot {
                io_pct: io as u8,
                region_pct: region as u8,
            })
        }
        _ => Err(bad("unknown skew").into()),
    }
}

/// Parses `dsync`, `fdatasync[:N]` or `fsync[:N]`.
pub fn parse_sync(v: &str) -> Result<SyncMode, SpecError> {
    let (mode, n) = match v.split_once(':') {
        Some((m, n)) => (m, Some(n)),
        None => (v, None),
    };
    let every = match n {
        None => 1,
        Some(n) => match n.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(
                    format!("--sync {v}: N must be a whole number of writes, 1 or more").into(),
                )
            }
        },
    };
    match mode {
        "dsync" if n.is_none() => Ok(SyncMode::Dsync),
        "fdatasync" => Ok(SyncMode::Fdatasync(every)),
        "fsync" => Ok(SyncMode::Fsync(every)),
        "none" => Ok(SyncMode::None),
        _ => Err(format!("--sync {v}: unknown mode; use dsync, fdatasync:N or fsync:N").into()),
    }
}

/// The JobSpec of profile `p` (named `name`) under the flags of `a`.
pub fn spec_of(a: &RawJob, name: &str, p: &Profile) -> Result<JobSpec, SpecError> {
    let s = settings(a, name, p.clone())?;
    validate(a, &s).map_err(|e| {
        let e = e.to_string();
        match s.from_profile.iter().find(|k| {
            e.strip_prefix(&format!("--{}", k.replace('_', "-")))
                .is_some_and(|rest| !rest.starts_with(|c: char| c == '-' || c.is_alphanumeric()))
        }) {
            Some(k) => format!("profile {}: {k}{}", s.profile, &e[k.len() + 2..]).into(),
            None => e.into(),
        }
    })
}

/// Run settings after merging: flags over the profile over the default profile.
struct Settings {
    profile: String,
    rw: String,
    mix: u32,
    bs: String,
    align: Option<String>,
    qd: u32,
    threads: u32,
    duration: Option<String>,
    ramp: String,
    size: Option<String>,
    offset: String,
    range: Option<String>,
    sync: Option<String>,
    rate: Option<u64>,
    data: String,
    skew: Option<String>,
    session: crate::session::SessionSettings,
    steady: Option<String>,
    steady_window: Option<String>,
    steady_max: Option<String>,
    burst: Option<String>,
    /// Keys whose value came from the named profile rather than a flag.
    from_profile: Vec<&'static str>,
}

/// The settings of a run: flags over profile `p` (named `name`) over the default profile.
fn settings(a: &RawJob, name: &str, p: Profile) -> Result<Settings, SpecError> {
    let base = profiles::builtin(profiles::DEFAULT)?;
    let flags = Profile {
        description: None,
        rw: a.rw.clone(),
        mix: a.mix,
        bs: a.bs.clone(),
        align: a.align.clone(),
        qd: a.qd,
        threads: a.threads,
        duration: a.duration.clone(),
        ramp: a.ramp.clone(),
        size: a.size.clone(),
        offset: a.offset.clone(),
        range: a.range.clone(),
        sync: a.sync.clone(),
        rate: a.rate,
        data: a.data.clone(),
        skew: a.skew.clone(),
        sessions: a.sessions,
        work_unit: a.work_unit,
        batch_reads: a.batch_reads.then_some(true),
        update_pct: a.update_pct,
        redo_stress: a.redo_stress.clone(),
        think: a.think.clone(),
        cache_hit: a.cache_hit,
        steady: a.steady.clone(),
        steady_window: a.steady_window.clone(),
        steady_max: a.steady_max.clone(),
        burst: a.burst.clone(),
        ..Profile::default()
    };
    let given = flags.keys();
    let from_profile = p
        .keys()
        .into_iter()
        .filter(|k| !given.contains(k))
        .collect();
    // --ops or --bytes replace the profile's duration rather than conflict with it.
    let sized = a.ops.is_some() || a.bytes.is_some();
    Ok(Settings {
        profile: name.to_string(),
        rw: flags
            .rw
            .or(p.rw)
            .or(base.rw)
            .unwrap_or_else(|| "randrw".into()),
        mix: flags.mix.or(p.mix).or(base.mix).unwrap_or(70),
        bs: flags.bs.or(p.bs).or(base.bs).unwrap_or_else(|| "8k".into()),
        align: flags.align.or(p.align),
        qd: flags.qd.or(p.qd).or(base.qd).unwrap_or(32),
        threads: flags.threads.or(p.threads).or(base.threads).unwrap_or(1),
        duration: if sized {
            None
        } else {
            flags.duration.or(p.duration).or(base.duration)
        },
        ramp: flags.ramp.or(p.ramp).unwrap_or_else(|| "0s".into()),
        size: flags.size.or(p.size),
        offset: flags.offset.or(p.offset).unwrap_or_else(|| "0".into()),
        range: flags.range.or(p.range),
        sync: flags.sync.or(p.sync),
        rate: flags.rate.or(p.rate),
        data: flags.data.or(p.data).unwrap_or_else(|| "random".into()),
        skew: flags.skew.or(p.skew),
        session: crate::session::SessionSettings {
            sessions: flags.sessions.or(p.sessions),
            work_unit: flags.work_unit.or(p.work_unit),
            batch_reads: flags.batch_reads.or(p.batch_reads).unwrap_or(false),
            update_pct: flags.update_pct.or(p.update_pct),
            redo_stress: flags.redo_stress.or(p.redo_stress),
            think: flags.think.or(p.think),
            cache_hit: flags.cache_hit.or(p.cache_hit),
        },
        steady: flags.steady.or(p.steady),
        steady_window: flags.steady_window.or(p.steady_window),
        steady_max: flags.steady_max.or(p.steady_max),
        burst: flags.burst.or(p.burst),
        from_profile,
    })
}

/// The job of merged settings `s` under the flags `a`, every value checked, built in one
/// pass (session mode and verification decided before the job is made).
fn validate(a: &RawJob, s: &Settings) -> Result<JobSpec, SpecError> {
    let (rw, read_pct) = pattern(a, s)?;
    let bs = parse_bs(&s.bs)?;
    let min_bs = bs.iter().map(|b| b.size).min().unwrap_or(0);
    let align = match &s.align {
        Some(v) => size("align", v)?,
        None => min_bs,
    };
    let file_size = s.size.as_deref().map(|v| size("size", v)).transpose()?;
    let stop = stop_after(a, s)?;
    let ramp_secs = parse_duration(&s.ramp)
        .map_err(|e| format!("--ramp: {e}"))?
        .as_secs_f64();
    let offset = size("offset", &s.offset)?;
    let range = s.range.as_deref().map(|v| size("range", v)).transpose()?;
    let (sync, skew) = sync_and_skew(s, rw)?;
    let engine = engine(a)?;
    let (steady, burst) = phases(s)?;
    let sim = crate::sim::check(a, engine)?;
    let stop = crate::sim::stop(a, engine, stop);
    let sync = crate::sim::sync(engine, sync);
    let arrivals = if a.arrivals == "poisson" {
        Arrivals::Poisson
    } else {
        Arrivals::Uniform
    };
    let targets = targets(a, engine)?;
    let split = crate::region::explicit_split(a.split_region.as_deref(), a.on_hosts)?;
    let data = crate::data::parse_data(&s.data)?;
    let session = session_job(&s.session, a, engine, &bs, &targets, &stop)?;
    let verify = verify_spec(
        a,
        &Verified {
            engine,
            session: session.is_some(),
            rw,
            bs: &bs,
            align,
            offset,
            data: &data,
            targets: &targets,
        },
    )?;
    // Session mode decides the loop itself: one synchronous thread per session, no sync,
    // no rate, no steady-state or burst phases.
    let in_session = session.is_some();
    let (rw, read_pct, threads, qd, targets, session) = match session {
        Some(j) => (j.rw, j.read_pct, j.threads, j.qd, j.targets, Some(j.spec)),
        None => (rw, read_pct, s.threads, s.qd, targets, None),
    };
    let spec = JobSpec {
        profile: s.profile.clone(),
        targets,
        file_size,
        rw,
        read_pct,
        bs,
        align,
        qd,
        threads,
        ramp_secs,
        stop,
        region: Region {
            offset,
            range,
            split,
        },
        skew,
        sync: if in_session { SyncMode::None } else { sync },
        rate: s.rate.filter(|_| !in_session),
        engine,
        direct: !a.buffered,
        invalidate: a.invalidate,
        hipri: a.hipri,
        sqpoll: a.sqpoll,
        device_latency: a.device_latency,
        cpu_idle: if a.cpu_idle == "allow" {
            CpuIdle::Allow
        } else {
            CpuIdle::Poll
        },
        data,
        destroy_data: a.destroy_data,
        seed: a.seed,
        session,
        steady: steady.filter(|_| !in_session),
        burst: burst.filter(|_| !in_session),
        arrivals,
        sim,
        verify,
        replay: None,
    };
    // The rules between the job's values, as every sweep step is checked again.
    crate::rules::check(&spec)?;
    Ok(spec)
}

/// The access pattern and its read share.
fn pattern(a: &RawJob, s: &Settings) -> Result<(Rw, u8), SpecError> {
    // --rw is checked by its parser; a profile's rw arrives here as written.
    let rw = match s.rw.as_str() {
        "read" => Rw::Read,
        "write" => Rw::Write,
        "randread" => Rw::RandRead,
        "randwrite" => Rw::RandWrite,
        "randrw" => Rw::RandRw,
        "readwrite" => Rw::ReadWrite,
        other => {
            return Err(format!(
                "rw = \"{other}\" in profile {}: not an access pattern; use read, write, randread, randwrite, randrw or readwrite",
                s.profile
            ).into())
        }
    };
    if s.mix > 100 {
        return Err(format!("--mix {}: the read share is a percentage, 0 to 100", s.mix).into());
    }
    if a.mix.is_some() && !rw.is_mixed() {
        return Err(format!(
            "--mix applies to --rw randrw or readwrite (the read share of a mixed run); --rw {} has none",
            s.rw
        )
        .into());
    }
    let read_pct = match rw {
        Rw::Read | Rw::RandRead => 100,
        Rw::Write | Rw::RandWrite => 0,
        Rw::RandRw | Rw::ReadWrite => s.mix as u8,
    };
    Ok((rw, read_pct))
}

/// When the run stops: after --ops, --bytes, --duration, or the default time.
fn stop_after(a: &RawJob, s: &Settings) -> Result<StopAfter, SpecError> {
    Ok(match (&s.duration, a.ops, &a.bytes) {
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
            // Start-up alone takes milliseconds: a shorter window measures nothing.
            if d < std::time::Duration::from_millis(10) {
                return Err(format!(
                    "--duration {}: too short to measure; give 10ms or more (a few seconds for figures that mean something)",
                    s.duration.as_deref().unwrap_or_default()
                ).into());
            }
            StopAfter::Seconds(d.as_secs_f64())
        }
        (None, None, None) => StopAfter::Seconds(DEFAULT_SECS),
    })
}

/// The sync mode and the skew, each checked against the access pattern.
fn sync_and_skew(s: &Settings, rw: Rw) -> Result<(SyncMode, Skew), SpecError> {
    let sync_mode = s
        .sync
        .as_deref()
        .map(parse_sync)
        .transpose()?
        .unwrap_or(SyncMode::None);
    if sync_mode != SyncMode::None && !rw.writes() {
        return Err(format!("--sync applies to writes, and --rw {} does not write", s.rw).into());
    }
    let skew = s
        .skew
        .as_deref()
        .map(parse_skew)
        .transpose()?
        .unwrap_or(Skew::Uniform);
    if skew != Skew::Uniform && !rw.is_random() {
        return Err(format!(
            "--skew applies to random patterns, and --rw {} is sequential",
            s.rw
        )
        .into());
    }
    Ok((sync_mode, skew))
}

/// The engine, and the flags only io_uring has.
fn engine(a: &RawJob) -> Result<EngineKind, SpecError> {
    let engine = match a.engine.as_str() {
        "psync" => EngineKind::Psync,
        "null" => EngineKind::Null,
        "sim" => EngineKind::Sim,
        _ => EngineKind::Uring,
    };
    if (a.hipri || a.sqpoll) && engine != EngineKind::Uring {
        return Err("--hipri and --sqpoll need --engine uring".into());
    }
    if a.device_latency && (engine == EngineKind::Sim || a.sessions.is_some()) {
        return Err("--device-latency traces the block layer under dbio's own I/O: not with the simulated device or --sessions".into());
    }
    Ok(engine)
}

/// The steady-state criterion and the bursts, if any.
fn phases(s: &Settings) -> Result<(Option<Steady>, Option<Burst>), SpecError> {
    let steady = match &s.steady {
        Some(v) => Some(parse_steady(
            v,
            s.steady_window.as_deref(),
            s.steady_max.as_deref(),
        )?),
        None if s.steady_window.is_some() || s.steady_max.is_some() => {
            return Err(
                "--steady-window and --steady-max need --steady, e.g. --steady iops:2%".into(),
            )
        }
        None => None,
    };
    let burst = s.burst.as_deref().map(parse_burst).transpose()?;
    Ok((steady, burst))
}

/// The targets of a real engine, each given once (none for the simulated device).
fn targets(a: &RawJob, engine: EngineKind) -> Result<Vec<String>, SpecError> {
    let targets = match engine {
        EngineKind::Sim => Vec::new(),
        _ => a.target_values(),
    };
    for (i, t) in targets.iter().enumerate() {
        crate::targets::check_value(t)?;
        if targets[..i].contains(t) {
            return Err(format!(
                "--target {t}: given twice; each target is measured once, so give it once"
            )
            .into());
        }
    }
    Ok(targets)
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
        assert!(parse_bs("8k:x").unwrap_err().to_string().contains("weight"));
        assert!(parse_bs("0").is_err());
        assert!(parse_bs("8q")
            .unwrap_err()
            .to_string()
            .contains("unknown unit"));
        // Found by the `flags` fuzz target: one size's weights summed past u32 panicked.
        let e = parse_bs("8k:4294967295,8k:1").unwrap_err().to_string();
        assert!(e.contains("add up to more than 4294967295"), "{e}");
        assert_eq!(parse_bs("8k:2,8k:3").unwrap()[0].weight, 5);
    }

    #[test]
    fn skews() {
        assert_eq!(parse_skew("uniform"), Ok(Skew::Uniform));
        assert_eq!(parse_skew("zipf:1.2"), Ok(Skew::Zipf { theta: 1.2 }));
        assert_eq!(parse_skew("pareto:0.2"), Ok(Skew::Pareto { h: 0.2 }));
        assert_eq!(
            parse_skew("hotspot:90/10"),
            Ok(Skew::Hotspot {
                io_pct: 90,
                region_pct: 10
            })
        );
        for bad in [
            "zipf:0",
            "pareto:1.5",
            "hotspot:90",
            "hotspot:90/100",
            "lumpy",
            "zipf:x",
        ] {
            let e = parse_skew(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--skew {bad}: ")), "{e}");
        }
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
