//! What the orchestration tests share: a job written out by hand.

use dbio_model::*;

/// A valid job written out by hand: `profile` on `target`, 8 KiB random I/O (70 % reads) at
/// depth `qd` for 2 s.
pub fn job(profile: &str, target: &str, qd: u32) -> JobSpec {
    JobSpec {
        profile: profile.into(),
        targets: vec![target.into()],
        file_size: Some(64 << 20),
        rw: Rw::RandRw,
        read_pct: 70,
        bs: vec![BsWeight {
            size: 8192,
            weight: 1,
        }],
        align: 8192,
        qd,
        threads: 1,
        ramp_secs: 0.0,
        stop: StopAfter::Seconds(2.0),
        region: Region {
            offset: 0,
            range: None,
            split: None,
        },
        skew: Skew::Uniform,
        sync: SyncMode::None,
        rate: None,
        engine: EngineKind::Uring,
        direct: true,
        invalidate: false,
        hipri: false,
        sqpoll: false,
        device_latency: false,
        cpu_idle: CpuIdle::Poll,
        data: DataKind::Random,
        destroy_data: false,
        seed: 1,
        session: None,
        steady: None,
        burst: None,
        arrivals: Arrivals::Uniform,
        sim: None,
        verify: None,
        replay: None,
    }
}
