//! Warnings a result carries: each says what happened and what to try.

use dbio_analyze::verdict::{BUSY, MIN_JUDGED_SECS};
use dbio_engine::device::{OpenTarget, TargetKind};
use dbio_model::*;

fn w(code: &str, message: String) -> Warning {
    Warning {
        code: code.to_string(),
        message,
    }
}

/// io_uring could not be set up; psync runs instead.
pub fn uring_unavailable(e: &std::io::Error) -> Warning {
    w(
        "uring-unavailable",
        format!("io_uring is not available here ({e}); fell back to the psync engine, which does one I/O at a time per thread"),
    )
}

/// psync ignores the queue depth.
pub fn psync_qd(qd: u32) -> Warning {
    w(
        "psync-queue-depth",
        format!("the psync engine does one I/O at a time per thread, so --qd {qd} acts as 1; use --threads for concurrency"),
    )
}

/// The CPUs could not be held out of idle states at a low queue depth.
pub fn cpu_idle_allowed(e: &std::io::Error) -> Warning {
    w(
        "cpu-idle-allowed",
        format!("the CPUs could not be held out of idle states (/dev/cpu_dma_latency: {e}): at a low queue depth each completion may also wait for a CPU's wake-up from idle, tens of µs on a virtual machine; run as root, or say --cpu-idle allow to measure that way on purpose"),
    )
}

/// Waking a CPU from idle (`wake`, measured after the run; None when the CPUs were held
/// awake) took a quarter or more of a direction's median latency: the run's latency is then
/// much the CPU's, not the storage's, as a target in memory is named as such.
pub fn wake_bound(
    wake: Option<std::time::Duration>,
    dirs: [Option<&DirStats>; 2],
) -> Option<Warning> {
    let wake_ns = wake?.as_nanos() as f64;
    let p50 = dirs
        .into_iter()
        .flatten()
        .filter(|d| d.ios > 0)
        .map(|d| d.latency_ns.p50 as f64)
        .fold(f64::INFINITY, f64::min);
    (p50.is_finite() && wake_ns >= 0.25 * p50).then(|| {
        w(
            "cpu-wakeup-bound",
            format!("the CPUs were allowed into idle states, and a CPU's wake-up took {:.0} µs here (the median of 101 short sleeps, measured after the run) against a median I/O latency of {:.0} µs: much of each I/O's latency may be a CPU waking up, not the storage; run as root without --cpu-idle allow to hold the CPUs awake while measuring", wake_ns / 1e3, p50 / 1e3),
        )
    })
}

/// `--start-at` was already past when the targets were ready: this host started late.
pub fn start_missed(late_secs: f64) -> Warning {
    w(
        "start-missed",
        format!("the common start (--start-at) was {late_secs:.3} s past when the targets were ready, so this host started late; give the hosts more time before the start (prefilling a large target takes a while)"),
    )
}

/// A run writes to a device or a file dbio did not create (allowed by --destroy-data).
pub fn destroying(t: &OpenTarget) -> Warning {
    let what = match (t.kind, &t.found) {
        (TargetKind::Block, Some(f)) => format!("block device {} ({f})", t.path),
        (TargetKind::Block, None) => format!("block device {}", t.path),
        (TargetKind::File, _) => format!("{}, a file dbio did not create", t.path),
    };
    w(
        "destroying-data",
        format!("--destroy-data: writing over the contents of {what}"),
    )
}

/// Steady state was not reached within the cap; measuring started anyway.
pub fn not_settled(s: &SteadyState) -> Warning {
    let last = match (s.spread_pct, s.slope_pct) {
        (Some(spread), Some(slope)) => format!(
            " (last {} s window: samples within {spread:.1} % of the mean, slope {slope:.2} %/s)",
            s.window_secs
        ),
        _ => String::new(),
    };
    w(
        "not-settled",
        format!(
            "--steady {}: not reached within --steady-max {} s{last}; measured anyway: raise --steady-max, loosen the limit, or precondition the target",
            s.criterion, s.max_secs
        ),
    )
}

/// An `--engine sim` run: the figures come from a model, not from a device.
pub fn simulated(dev: &SimDevice) -> Warning {
    w(
        "simulated",
        format!("simulated: no device was measured; these figures come from a virtual-time model of {} (--engine sim)", dev.describe()),
    )
}

/// A target's existing content looked reducible when sampled before the run.
pub fn reducible_content(s: &ContentSample) -> Warning {
    w(
        "reducible-content",
        format!(
            "{}: its existing content looks reducible ({} of {} sampled 4 KiB blocks are zeros, holes or one repeated byte; pattern removal and LZ4 reduce the sample {:.1}:1): an array that dedupes or compresses would flatter these figures; write real or random data first (e.g. a --rw write run with --destroy-data)",
            s.path, s.pattern_blocks, s.blocks, s.reduction
        ),
    )
}

/// A target whose data lives in memory (tmpfs, ramfs, zram, a RAM disk, a loop device over a
/// file in memory): the run measured memory and the kernel's I/O path, not storage.
pub fn memory_target(t: &TargetFacts) -> Option<Warning> {
    let m = t.medium.as_ref().filter(|m| m.kind == "memory")?;
    Some(w(
        "memory-target",
        format!(
            "{} lives in {}: {}; these figures measure memory and the kernel's I/O path, not storage; to measure storage, put the target on a disk's file system or name the disk's block device",
            t.path,
            m.describe(),
            m.reason
        ),
    ))
}

/// A paced run (or one of its streams) fell behind its schedule.
pub fn rate_not_kept(stream: Option<&str>, rate: u64, ios: u64, secs: f64) -> Warning {
    let who = stream.map_or(String::new(), |s| format!("stream {s}: "));
    w(
        "rate-not-kept",
        format!(
            "{who}could not keep the requested rate of {rate} IOPS (achieved {:.0}); latency is measured from each I/O's scheduled start, so it includes the queueing delay",
            if secs > 0.0 { ios as f64 / secs } else { 0.0 }
        ),
    )
}

/// Warnings that follow from what the run measured.
pub fn after_run(
    spec: &JobSpec,
    cpu: &CpuStats,
    outcome: &Outcome,
    behind: bool,
    secs: f64,
    ios: u64,
) -> Vec<Warning> {
    let mut out = Vec::new();
    let busy: Vec<&WorkerCpu> = cpu.workers.iter().filter(|c| c.busy_pct > BUSY).collect();
    if !busy.is_empty() && spec.engine != EngineKind::Null && secs >= MIN_JUDGED_SECS {
        let per_core = if cpu.process_user_s + cpu.process_sys_s > 0.0 {
            cpu.ios_per_cpu_s
        } else {
            0.0
        };
        out.push(w(
            "load-generator-bound",
            format!(
                "{} of {} worker thread(s) were busy over 90 % of the run: the load generator, not the storage, may be the limit ({:.0} IOPS per core achieved); add --threads or lower the queue depth per thread",
                busy.len(),
                cpu.workers.len(),
                per_core
            ),
        ));
    }
    if cpu.host_busy_pct > BUSY {
        out.push(w(
            "host-cpu-bound",
            format!(
                "the host's CPUs were {:.0} % busy: results may be limited by host CPU rather than storage",
                cpu.host_busy_pct
            ),
        ));
    }
    if let (Some(rate), true) = (spec.rate, behind) {
        out.push(rate_not_kept(None, rate, ios, secs));
    }
    if spec.engine == EngineKind::Null {
        out.push(w(
            "null-engine",
            "--engine null: no I/O was done; these figures are dbio's own overhead (how fast it issues, times and records I/Os), not the storage's".into(),
        ));
    }
    if spec.data == DataKind::Zeros {
        out.push(w(
            "zero-data",
            "data is all zeros: an array that dedupes or compresses will flatter these figures; use the default random data for honest numbers".into(),
        ));
    }
    if let DataKind::Pattern(p) = &spec.data {
        out.push(w(
            "pattern-data",
            format!("data is the pattern {p} repeated: an array that removes patterns, dedupes or compresses will flatter these figures; use the default random data, or --data dedupe:R,compress:C for a chosen reducibility"),
        ));
    }
    if !spec.direct {
        out.push(w(
            "buffered",
            "buffered I/O (--buffered): the page cache serves part of the I/O, so these are not device figures".into(),
        ));
    }
    match outcome {
        Outcome::Complete => {}
        Outcome::Interrupted => out.push(w(
            "partial",
            "interrupted: the figures cover only the part that ran".into(),
        )),
        Outcome::IoError(e) => out.push(w(
            "io-error",
            format!("the run ended early on an I/O error: {e}"),
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(busy_pct: f64) -> CpuStats {
        CpuStats {
            process_user_s: 1.0,
            process_sys_s: 1.0,
            host_busy_pct: 50.0,
            ios_per_cpu_s: 25_000.0,
            workers: vec![WorkerCpu {
                user_s: 1.0,
                sys_s: 1.0,
                busy_pct,
                ios: 50_000,
            }],
            cpus_allowed: 2,
            per_cpu: Vec::new(),
        }
    }

    fn codes(spec: &JobSpec, c: &CpuStats, secs: f64) -> Vec<String> {
        after_run(spec, c, &Outcome::Complete, false, secs, 50_000)
            .into_iter()
            .map(|w| w.code)
            .collect()
    }

    #[test]
    fn only_a_target_in_memory_is_warned_about() {
        let mut t = TargetFacts {
            path: "/dev/loop3".into(),
            kind: "block".into(),
            ..TargetFacts::default()
        };
        assert_eq!(memory_target(&t), None);
        t.medium = Some(TargetMedium {
            kind: "memory".into(),
            via: "tmpfs".into(),
            reason: "loop3's backing file /dev/shm/d.img is on tmpfs (statfs)".into(),
        });
        let w = memory_target(&t).expect("a warning");
        assert_eq!(w.code, "memory-target");
        assert!(
            w.message.starts_with("/dev/loop3 lives in memory (tmpfs): loop3's backing file /dev/shm/d.img is on tmpfs (statfs); "),
            "{}",
            w.message
        );
    }

    /// A direction of `ios` I/Os with a median latency of `p50_us`.
    fn dir(ios: u64, p50_us: u64) -> DirStats {
        DirStats {
            ios,
            bytes: ios * 4096,
            iops: 0.0,
            mb_s: 0.0,
            mib_s: 0.0,
            latency_ns: LatencySummary {
                p50: p50_us * 1000,
                ..LatencySummary::default()
            },
            histogram: LatencyHistogram::default(),
        }
    }

    #[test]
    fn a_wake_up_of_a_quarter_of_the_median_latency_or_more_is_named() {
        let us = std::time::Duration::from_micros;
        let (fast, slow, none) = (dir(10, 40), dir(10, 400), dir(0, 1));
        let w = wake_bound(Some(us(10)), [Some(&fast), Some(&slow)]).expect("10 µs of 40");
        assert_eq!(w.code, "cpu-wakeup-bound");
        assert!(
            w.message.contains("took 10 µs") && w.message.contains("of 40 µs"),
            "{}",
            w.message
        );
        assert!(
            wake_bound(Some(us(9)), [Some(&fast), None]).is_none(),
            "9 µs of 40"
        );
        assert!(
            wake_bound(Some(us(90)), [Some(&slow), Some(&none)]).is_none(),
            "90 of 400"
        );
        assert!(
            wake_bound(None, [Some(&fast), None]).is_none(),
            "held awake"
        );
        assert!(
            wake_bound(Some(us(90)), [Some(&none), None]).is_none(),
            "no I/O"
        );
    }

    #[test]
    fn a_saturated_worker_is_named_with_its_iops_per_core() {
        let mut spec = crate::pattern::tests::spec(Rw::RandRead, 100, &[(4096, 1)]);
        spec.engine = EngineKind::Uring;
        let w = after_run(&spec, &cpu(97.0), &Outcome::Complete, false, 2.0, 50_000);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].code, "load-generator-bound");
        assert!(
            w[0].message.contains("25000 IOPS per core"),
            "{}",
            w[0].message
        );
        assert!(codes(&spec, &cpu(60.0), 2.0).is_empty());
        assert!(
            codes(&spec, &cpu(97.0), 0.5).is_empty(),
            "too short to judge"
        );
        spec.engine = EngineKind::Null;
        assert_eq!(
            codes(&spec, &cpu(97.0), 2.0),
            ["null-engine"],
            "the null engine is meant to saturate; it is named as doing no I/O"
        );
    }
}
