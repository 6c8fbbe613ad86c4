//! The simulated device against queueing theory, every expected figure computed here by hand
//! from the device's parameters.

use super::run;
use crate::pattern::tests::spec;
use dbio_model::*;
use std::sync::atomic::AtomicBool;

/// A device of `channels` channels serving every I/O in `service_us` on average.
fn device(channels: u32, service_us: u64, dist: ServiceDist) -> SimDevice {
    SimDevice {
        name: "test".into(),
        channels,
        read_ns: service_us * 1000,
        write_ns: service_us * 1000,
        dist,
        bw_bytes_s: None,
        link_ns: 0,
    }
}

/// 4 KiB random reads on `dev`, closed loop at `qd`, `ops` I/Os.
fn job(dev: SimDevice, qd: u32, ops: u64) -> JobSpec {
    let mut s = spec(Rw::RandRead, 100, &[(4096, 1)]);
    s.engine = EngineKind::Sim;
    s.targets.clear();
    s.sim = Some(dev);
    s.qd = qd;
    s.stop = StopAfter::Ops(ops);
    s
}

fn sim(s: &JobSpec) -> RunResult {
    run(s, &AtomicBool::new(false))
}

#[track_caller]
fn near(what: &str, got: f64, want: f64, pct: f64) {
    let err = (got - want).abs() / want * 100.0;
    assert!(
        err <= pct,
        "{what}: got {got}, want {want} within {pct} % (off {err:.2} %)"
    );
}

#[test]
fn one_exponential_channel_with_poisson_arrivals_is_mm1() {
    // M/M/1: mean response = S / (1 − U), U = rate × S. S = 100 µs.
    let s_ns = 100_000.0;
    for (u, ops) in [
        (0.3, 400_000),
        (0.5, 400_000),
        (0.7, 1_000_000),
        (0.9, 3_000_000),
    ] {
        let mut j = job(device(1, 100, ServiceDist::Exp), 4096, ops);
        j.rate = Some((u / 100e-6_f64).round() as u64);
        j.arrivals = Arrivals::Poisson;
        let r = sim(&j);
        let read = r.read.as_ref().unwrap();
        assert_eq!(read.ios, ops);
        near(
            &format!("mean latency at U = {u}"),
            read.latency_ns.mean,
            s_ns / (1.0 - u),
            3.0,
        );
        near(&format!("IOPS at U = {u}"), read.iops, u / 100e-6, 1.0);
        assert!(!r.warnings.iter().any(|w| w.code == "rate-not-kept"));
    }
}

#[test]
fn evenly_spaced_arrivals_queue_less_than_poisson_ones() {
    // D/M/1 at U = 0.7 waits less than M/M/1 (333 µs): its mean is S/(1 − σ) with σ the root
    // of σ = exp(−(1 − σ)/U), σ ≈ 0.4584 here, so ≈ 184.6 µs.
    let u: f64 = 0.7;
    let mut sigma = 0.5;
    for _ in 0..200 {
        sigma = (-(1.0 - sigma) / u).exp();
    }
    let mut j = job(device(1, 100, ServiceDist::Exp), 4096, 1_000_000);
    j.rate = Some(7000);
    let r = sim(&j);
    near(
        "D/M/1 mean latency",
        r.read.unwrap().latency_ns.mean,
        100_000.0 / (1.0 - sigma),
        3.0,
    );
}

#[test]
fn c_channels_saturate_at_c_over_s() {
    // Closed loop, qd far above c: every channel always busy, IOPS = c / S.
    for dist in [ServiceDist::Const, ServiceDist::Exp] {
        let r = sim(&job(device(4, 100, dist), 64, 400_000));
        let read = r.read.unwrap();
        near(&format!("{dist:?} IOPS"), read.iops, 4.0 / 100e-6, 1.0);
        // Little's law: 64 in the system at 40,000 IOPS spend 1.6 ms each.
        near(
            &format!("{dist:?} latency"),
            read.latency_ns.mean,
            1.6e6,
            1.0,
        );
    }
}

#[test]
fn constant_service_below_the_channel_count_never_queues() {
    // qd ≤ c: every I/O finds a free channel and takes exactly S.
    let r = sim(&job(device(4, 100, ServiceDist::Const), 3, 30_000));
    let read = r.read.unwrap();
    // Within the histogram's 3 significant digits, the fastest and slowest are both S.
    near("fastest", read.latency_ns.min as f64, 100_000.0, 0.1);
    near("slowest", read.latency_ns.max as f64, 100_000.0, 0.1);
    near("IOPS", read.iops, 3.0 / 100e-6, 0.1);
}

#[test]
fn large_ios_saturate_at_the_bandwidth_cap() {
    // 1 MiB reads, 32 fast channels, a 1 GB/s link: the link is the limit (1,048,576 B per
    // 1.049 ms), so 1000 MB/s whatever the channels could do. Writes cross it the other way.
    let mut dev = device(32, 10, ServiceDist::Exp);
    dev.bw_bytes_s = Some(1_000_000_000);
    for rw in [Rw::RandRead, Rw::RandWrite] {
        let mut j = job(dev.clone(), 32, 20_000);
        j.rw = rw;
        j.read_pct = if rw == Rw::RandRead { 100 } else { 0 };
        j.bs = vec![BsWeight {
            size: 1 << 20,
            weight: 1,
        }];
        j.align = 1 << 20;
        let r = sim(&j);
        let d = r.read.or(r.write).unwrap();
        near(&format!("{rw:?} MB/s"), d.mb_s, 1000.0, 1.0);
    }
    // Full duplex: half reads, half writes move 1000 MB/s each way at once.
    let mut j = job(dev, 32, 20_000);
    (j.rw, j.read_pct, j.align) = (Rw::RandRw, 50, 1 << 20);
    j.bs[0].size = 1 << 20;
    let r = sim(&j);
    near("read MB/s", r.read.unwrap().mb_s, 1000.0, 1.0);
    near("write MB/s", r.write.unwrap().mb_s, 1000.0, 1.0);
}

#[test]
fn link_latency_and_direction_add_up() {
    // QD 1, constant service: a read takes 100 µs + 50 µs link, a write 300 µs + 50 µs.
    let mut dev = device(1, 100, ServiceDist::Const);
    dev.write_ns = 300_000;
    dev.link_ns = 50_000;
    let mut j = job(dev, 1, 10_000);
    j.rw = Rw::RandRw;
    j.read_pct = 50;
    let r = sim(&j);
    let (read, write) = (r.read.unwrap(), r.write.unwrap());
    assert_eq!((read.ios, write.ios), (5_000, 5_000), "an exact 50 % quota");
    near("read latency", read.latency_ns.mean, 150_000.0, 0.1);
    near("write latency", write.latency_ns.mean, 350_000.0, 0.1);
    // One I/O at a time: 10,000 I/Os take 5,000 × 150 µs + 5,000 × 350 µs = 2.5 s.
    near("virtual seconds", r.measured_secs, 2.5, 0.1);
}

#[test]
fn lognormal_service_keeps_its_mean_with_a_heavier_tail() {
    let r = sim(&job(device(1, 100, ServiceDist::Lognormal), 1, 200_000));
    let l = r.read.unwrap().latency_ns;
    near("mean", l.mean, 100_000.0, 3.0);
    // Log-normal σ = 1: p99 = mean · exp(2.326 − 0.5) ≈ 6.21 × mean (exponential: 4.61 ×).
    near(
        "p99",
        l.p99 as f64,
        100_000.0 * (2.3263f64 - 0.5).exp(),
        3.0,
    );
}

#[test]
fn the_same_seed_gives_the_same_result() {
    let mut j = job(SimDevice::default(), 16, 50_000);
    j.rw = Rw::RandRw;
    j.read_pct = 70;
    let (a, b) = (sim(&j), sim(&j));
    assert_eq!(a.read, b.read);
    assert_eq!(a.write, b.write);
    assert_eq!(a.timeseries, b.timeseries);
    assert_eq!(a.measured_secs, b.measured_secs);
    j.seed += 1;
    assert_ne!(
        sim(&j).read,
        a.read,
        "another seed draws other service times"
    );
    assert_eq!(a.engine.name, "sim");
    assert_eq!(a.warnings[0].code, "simulated");
    assert!(a.targets.is_empty());
}

#[test]
fn a_timed_run_lasts_its_virtual_duration_with_one_point_per_second() {
    let mut j = job(device(2, 100, ServiceDist::Const), 2, 1);
    j.stop = StopAfter::Seconds(3.0);
    j.ramp_secs = 1.0;
    let r = sim(&j);
    // Issuing stops at 3 s; the two I/Os then in flight finish within 100 µs.
    near("measured", r.measured_secs, 3.0, 0.01);
    assert_eq!(r.timeseries.len(), 4, "3 whole seconds and the drain");
    // Completions fall every 100 µs on both channels. The two that land exactly at the end of
    // the ramp were issued in it (not measured); each second's last one lands on the next
    // second's start; the last two at exactly 3 s form the drain.
    let iops: Vec<f64> = r.timeseries.iter().map(|p| p.read_iops).collect();
    assert_eq!(iops[..3], [19_998.0, 20_000.0, 20_000.0]);
    let read = r.read.unwrap();
    assert_eq!(read.ios, 60_000, "2 channels × 3 s / 100 µs");
    near("IOPS", read.iops, 20_000.0, 0.01);
}

#[test]
fn each_thread_has_its_own_share_and_they_add_up_to_the_run() {
    // 3 threads at qd 1 on 4 constant channels: no queueing, every I/O takes exactly S, and
    // the quota of 30,001 I/Os is shared 10,001 / 10,000 / 10,000 (the first takes the rest).
    let mut s = job(device(4, 100, ServiceDist::Const), 1, 30_001);
    s.threads = 3;
    let r = sim(&s);
    let ios: Vec<u64> = r.threads.iter().map(|t| t.read.ios).collect();
    assert_eq!(ios, [10_001, 10_000, 10_000]);
    let read = r.read.unwrap();
    assert_eq!(ios.iter().sum::<u64>(), read.ios);
    let bytes: u64 = r.threads.iter().map(|t| t.read.bytes).sum();
    assert_eq!(bytes, read.bytes);
    for t in &r.threads {
        assert_eq!(t.write.ios, 0);
        near("a thread's mean", t.read.mean_ns, 100_000.0, 0.001);
        assert!(t.read.stdev_ns < 1.0, "{t:?}");
        // Its own histogram: all its I/Os, each at S (within the histogram's 0.1 %).
        let h = t.read.latency().unwrap();
        assert_eq!(h.len(), t.read.ios);
        near("a thread's min", h.min() as f64, 100_000.0, 0.1);
        near("a thread's max", h.max() as f64, 100_000.0, 0.1);
        assert_eq!(t.write.histogram, None, "no writes, no histogram");
    }
    // One thread: the run's histogram is the thread's, so the thread keeps none.
    s.threads = 1;
    let r = sim(&s);
    assert_eq!(r.threads[0].read.histogram, None);
    assert_eq!(r.threads[0].write, ThreadDir::default());
}
