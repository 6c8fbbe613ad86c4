//! `dbio replay`: a captured trace as a job. One pass over the trace says what it holds
//! (its devices, requests, sizes, reach and seconds); the job then runs the trace's own
//! requests through the ordinary run (safety rules, prefill, result, history).

use dbio_model::replay::ReplaySpec;
use dbio_model::JobSpec;
use dbio_spec::replay::ReplayArgs;
use dbio_spec::RawJob;
use dbio_trace::scan::{scan, Scan};

/// Slots of a timed replay unless --qd says otherwise: requests due while every slot is
/// busy wait (and count as late).
const TIMED_SLOTS: u32 = 256;

/// The job that replays `o.trace` with the rest of the flags in `raw`; the message says
/// what is wrong and what to do.
pub fn replay_job(raw: &RawJob, o: &ReplayArgs) -> Result<JobSpec, String> {
    refuse_workload_flags(raw)?;
    let speed = speed(o)?;
    let header = dbio_trace::format::open_file(&o.trace)?.header;
    let (times, latencies) = header
        .imported
        .as_ref()
        .map_or((true, true), |i| (i.times, i.latencies));
    if !times && !o.as_fast_as_possible {
        let from = header.imported.as_ref().map_or("", |i| i.from.as_str());
        return Err(format!(
            "{}: imported from {from}, which keeps the requests' order but not their times: replay it with --as-fast-as-possible (and --qd N for the requests in flight)",
            o.trace
        ));
    }
    let names: Vec<String> = header.devices.iter().map(|d| d.name.clone()).collect();
    let (devices, targets) = mapping(&names, &o.map, &raw.targets)?;
    let mapped: Vec<bool> = names.iter().map(|n| devices.contains(n)).collect();
    let s = scan(&o.trace, &mapped)?;
    if s.requests() == 0 {
        return Err(format!(
            "{}: no read, write or flush of {} to replay",
            o.trace,
            devices.join(", ")
        ));
    }
    let job = RawJob {
        targets: targets.clone(),
        rw: Some(rw(&s).into()),
        mix: (s.reads > 0 && s.writes > 0).then(|| (s.reads * 100 / (s.reads + s.writes)) as u32),
        bs: Some(sizes(&s)),
        // Without the device's latencies the trace cannot say how many were in flight:
        // one at a time, as fio replays an iolog unless told otherwise.
        qd: Some(raw.qd.unwrap_or(match (o.as_fast_as_possible, latencies) {
            (true, true) => (s.mean_in_flight().round() as u32).max(1),
            (true, false) => 1,
            (false, _) => TIMED_SLOTS,
        })),
        threads: Some(1),
        ops: Some(s.requests()),
        ramp: Some("0s".into()),
        // A file the replay makes holds every request; existing targets keep their size.
        size: raw.size.clone().or_else(|| {
            let fresh = targets.iter().all(|t| !std::path::Path::new(t).exists());
            fresh.then(|| reach(&s).to_string())
        }),
        ..raw.clone()
    };
    let mut spec = job.check().map_err(|e| e.to_string())?;
    spec.replay = Some(ReplaySpec {
        trace: o.trace.clone(),
        devices,
        speed,
        as_fast_as_possible: o.as_fast_as_possible,
        requests: s.requests(),
        span_ns: s.last_ns - s.first_ns,
        captured_per_second: s.per_second,
    });
    Ok(spec)
}

/// The flags that describe a synthetic workload: a replay's workload is the trace.
fn refuse_workload_flags(raw: &RawJob) -> Result<(), String> {
    let given = [
        (
            "a profile",
            raw.profile.is_some() || raw.profile_file.is_some(),
        ),
        ("--stream", !raw.streams.is_empty()),
        ("--rw", raw.rw.is_some()),
        ("--mix", raw.mix.is_some()),
        ("--bs", raw.bs.is_some()),
        ("--threads", raw.threads.is_some()),
        ("--duration", raw.duration.is_some()),
        ("--ramp", raw.ramp.is_some()),
        ("--ops", raw.ops.is_some()),
        ("--bytes", raw.bytes.is_some()),
        ("--rate", raw.rate.is_some()),
        ("--skew", raw.skew.is_some()),
        ("--burst", raw.burst.is_some()),
        ("--steady", raw.steady.is_some()),
        ("--sessions", raw.sessions.is_some()),
        ("--verify", raw.verify),
        ("--split-region", raw.split_region.is_some()),
    ];
    match given.iter().find(|g| g.1) {
        Some((flag, _)) => Err(format!(
            "{flag} does not apply to a replay: the trace gives every request, its size and its time (use --speed or --as-fast-as-possible to change the load)"
        )),
        None => Ok(()),
    }
}

/// `--speed`: a positive factor, `2x` or `2`.
fn speed(o: &ReplayArgs) -> Result<f64, String> {
    let Some(v) = o.speed.as_deref() else {
        return Ok(1.0);
    };
    if o.as_fast_as_possible {
        return Err("--speed and --as-fast-as-possible exclude each other: one keeps the times (scaled), the other ignores them".into());
    }
    match v.trim().trim_end_matches(['x', 'X']).parse::<f64>() {
        Ok(f) if f.is_finite() && f > 0.0 && f <= 1000.0 => Ok(f),
        _ => Err(format!(
            "--speed {v}: not a factor; write e.g. 2x (twice the captured load) or 0.5x"
        )),
    }
}

/// The captured devices replayed and their targets, in the job's order: `--map DEV=TARGET`
/// for each, or a trace of one device on the one `--target`.
fn mapping(
    names: &[String],
    map: &[String],
    targets: &[String],
) -> Result<(Vec<String>, Vec<String>), String> {
    if map.is_empty() {
        return match names {
            [one] => Ok((vec![one.clone()], targets.to_vec())),
            _ => Err(format!(
                "the trace holds requests of {}: say where each goes with --map DEVICE=TARGET (one for each device to replay)",
                names.join(", ")
            )),
        };
    }
    if !targets.is_empty() {
        return Err("--target and --map exclude each other: with --map, each DEVICE=TARGET names its target".into());
    }
    let mut out = (Vec::new(), Vec::new());
    for m in map {
        let Some((dev, target)) = m
            .split_once('=')
            .filter(|(d, t)| !d.is_empty() && !t.is_empty())
        else {
            return Err(format!(
                "--map {m}: write DEVICE=TARGET, e.g. --map sda=/dev/sdx"
            ));
        };
        let dev = dev.trim_start_matches("/dev/");
        if !names.iter().any(|n| n == dev) {
            return Err(format!(
                "--map {m}: the trace holds no device {dev} (it holds {})",
                names.join(", ")
            ));
        }
        if out.0.iter().any(|d| d == dev) {
            return Err(format!("--map {m}: {dev} is mapped twice"));
        }
        out.0.push(dev.to_string());
        out.1.push(target.to_string());
    }
    Ok(out)
}

/// The direction words of the job (its pattern is the trace's own).
fn rw(s: &Scan) -> &'static str {
    match (s.reads > 0, s.writes > 0) {
        (true, true) => "randrw",
        (false, true) => "randwrite",
        _ => "randread",
    }
}

/// The trace's commonest sizes as a --bs distribution, its largest always among them (the
/// buffers must hold it).
fn sizes(s: &Scan) -> String {
    let mut top: Vec<(u64, u64)> = s.sizes.iter().take(8).copied().collect();
    if top.is_empty() {
        top.push((4096, 1));
    }
    if !top.iter().any(|t| t.0 == s.max_bytes) && s.max_bytes > 0 {
        top.push((s.max_bytes, 1));
    }
    let parts: Vec<String> = top
        .iter()
        .map(|(size, n)| format!("{size}:{}", (*n).clamp(1, 1_000_000)))
        .collect();
    parts.join(",")
}

/// The size of a file made for the replay: every request's reach, rounded up to 1 MiB.
fn reach(s: &Scan) -> u64 {
    let far = s.reach.iter().copied().max().unwrap_or(0).max(1 << 20);
    far.div_ceil(1 << 20) * (1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_device_goes_to_the_target_and_several_need_a_map() {
        let one = names(&["sda"]);
        let t = names(&["/dev/sdx"]);
        assert_eq!(mapping(&one, &[], &t), Ok((one.clone(), t.clone())));
        let two = names(&["sda", "sdb"]);
        let err = mapping(&two, &[], &t).unwrap_err();
        assert!(err.contains("--map DEVICE=TARGET"), "{err}");
        let map = names(&["/dev/sdb=b.dat", "sda=a.dat"]);
        let (d, t2) = mapping(&two, &map, &[]).unwrap();
        assert_eq!(
            (d, t2),
            (names(&["sdb", "sda"]), names(&["b.dat", "a.dat"]))
        );
        for (bad, needle) in [
            ("sdc=x", "no device sdc"),
            ("sda", "write DEVICE=TARGET"),
            ("sda=", "write DEVICE=TARGET"),
        ] {
            let err = mapping(&two, &names(&[bad]), &[]).unwrap_err();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        let twice = names(&["sda=a", "sda=b"]);
        assert!(mapping(&two, &twice, &[])
            .unwrap_err()
            .contains("mapped twice"));
        assert!(mapping(&two, &map, &t)
            .unwrap_err()
            .contains("exclude each other"));
    }

    #[test]
    fn speed_is_a_positive_factor() {
        let with = |s: &str| ReplayArgs {
            speed: Some(s.into()),
            ..ReplayArgs::default()
        };
        assert_eq!(speed(&ReplayArgs::default()), Ok(1.0));
        assert_eq!(speed(&with("2x")), Ok(2.0));
        assert_eq!(speed(&with("0.5")), Ok(0.5));
        for bad in ["0", "-1x", "fast", "inf", "2000x"] {
            assert!(speed(&with(bad)).is_err(), "{bad}");
        }
        let both = ReplayArgs {
            as_fast_as_possible: true,
            ..with("2x")
        };
        assert!(speed(&both).unwrap_err().contains("exclude each other"));
    }

    #[test]
    fn a_synthetic_workload_flag_is_refused() {
        let raw = RawJob {
            rate: Some(100),
            ..RawJob::default()
        };
        let err = refuse_workload_flags(&raw).unwrap_err();
        assert!(
            err.starts_with("--rate does not apply to a replay"),
            "{err}"
        );
        assert_eq!(refuse_workload_flags(&RawJob::default()), Ok(()));
    }
}
