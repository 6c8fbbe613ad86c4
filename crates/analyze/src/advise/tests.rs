//! The advice on a small estate worked out by hand.

use super::*;
use dbio_model::advise::{LeaveReason, ObjectKind};

const G: u64 = 1 << 30;

fn obj(name: &str, kind: ObjectKind, gib: u64, reads: u64, writes: u64, ms: f64) -> ObjectIo {
    let mut o = ObjectIo::new(name, kind);
    o.size_bytes = Some(gib * G);
    o.reads = reads;
    o.writes = writes;
    o.bytes_read = reads * 8192;
    o.bytes_written = writes * 8192;
    o.read_ms = Some(ms);
    o
}

/// With flash assumed at 1 ms: saved = stall − I/Os × 1 ms.
/// A 10 GiB 1000 reads 10 000 ms → saves 9000 (900/GiB); B 2 GiB 500 reads 2500 ms → 2000
/// (1000/GiB); C 30 GiB 3000 reads 6000 ms → 3000 (100/GiB); log L 5000 writes 5000 ms;
/// temp T 4 GiB 400 reads 4000 ms → 3600 (900/GiB); S 5 GiB 100 reads of 1 MiB 2000 ms →
/// 1900 (380/GiB); Z 1 GiB without I/O.
fn estate() -> Vec<ObjectIo> {
    let mut s = obj("S", ObjectKind::Data, 5, 100, 0, 2000.0);
    s.bytes_read = 100 << 20;
    let mut l = obj("L", ObjectKind::Log, 1, 0, 5000, 0.0);
    l.read_ms = None;
    l.write_ms = Some(5000.0);
    vec![
        obj("A", ObjectKind::Data, 10, 1000, 0, 10_000.0),
        obj("B", ObjectKind::Index, 2, 500, 0, 2500.0),
        obj("C", ObjectKind::Data, 30, 3000, 0, 6000.0),
        l,
        obj("T", ObjectKind::Temp, 4, 400, 0, 4000.0),
        s,
        obj("Z", ObjectKind::Data, 1, 0, 0, 0.0),
    ]
}

fn run(budget: Option<u64>, p: Option<f64>) -> AdviseResult {
    let src = SourceInfo {
        system: "test".into(),
        name: "hand".into(),
        interval_secs: 100.0,
        since_start: false,
    };
    let o = Options {
        budget,
        latency: Latency::Assumed { flash_ms: 1.0 },
        io_wait_share: p.map(|p| (p, "--io-wait-share".into())),
    };
    advise(&estate(), src, vec![], "now".into(), &o)
}

#[test]
fn ranked_by_stall_saved_per_gib() {
    let r = run(None, None);
    let names: Vec<&str> = r.objects.iter().map(|o| o.name.as_str()).collect();
    // The candidates B 1000/GiB, A 900/GiB, C 100; then temp T (900/GiB, but it only gets
    // what they leave); then what is never moved, with no saving shown: the log L, S (1 MiB
    // I/Os) and Z (no I/O), by stall per GiB.
    assert_eq!(names, ["B", "A", "C", "T", "L", "S", "Z"]);
    for o in &r.objects[4..] {
        assert_eq!(o.saved_ms, None, "{}", o.name);
    }
    assert_eq!(r.ranked_by, "stall saved per GiB");
    let a = &r.objects[1];
    assert_eq!(a.saved_ms, Some(9000.0));
    assert_eq!(a.current_ms, Some(10.0));
    // 1000 I/Os in 100 s over 10 GiB: 1 I/O per second per GiB; 10 000 ms / 10 GiB.
    assert_eq!(a.iops_per_gib, Some(1.0));
    assert_eq!(a.stall_ms_per_gib, Some(1000.0));
    assert_eq!(r.totals.stall_ms, Some(29_500.0));
    assert_eq!(r.objects[0].capacity_share, Some(2.0 / 53.0));
}

#[test]
fn budget_leaves_temp_for_last_and_the_log_in_place() {
    // 13 GiB: A + B (12 GiB, saves 11 000); C is larger than the budget; T does not fit in
    // the 1 GiB left.
    let p = run(Some(13 * G), None).placement.unwrap();
    let moved: Vec<&str> = p.to_move.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(moved, ["B", "A"]);
    assert_eq!(p.used_bytes, 12 * G);
    let reason = |n: &str| p.to_leave.iter().find(|l| l.name == n).unwrap().reason;
    assert_eq!(reason("T"), LeaveReason::TempLast);
    assert_eq!(reason("C"), LeaveReason::TooBig);
    assert_eq!(reason("L"), LeaveReason::Log);
    assert_eq!(reason("S"), LeaveReason::LargeIo);
    assert_eq!(reason("Z"), LeaveReason::NoIo);
    assert!(p.exact);
}

#[test]
fn amdahl_bound_by_hand() {
    // 16 GiB: A, B, then T in the 4 GiB left. Moved stall 16 500 ms, saved 14 600 of
    // 29 500: f = 16 500 / 29 500, k = 16 500 / 1900; with p = 0.5 the bound is
    // 1 / ((1 − p·f) + p·f / k) = 1 / (1 − 0.5 × 14 600 / 29 500).
    let p = run(Some(16 * G), Some(0.5)).placement.unwrap();
    let moved: Vec<&str> = p.to_move.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(moved, ["B", "A", "T"]);
    let g = p.gain.unwrap();
    assert_eq!(g.saved_ms, 14_600.0);
    assert!((g.moved_stall_share - 16_500.0 / 29_500.0).abs() < 1e-12);
    assert!((g.latency_ratio - 16_500.0 / 1900.0).abs() < 1e-9);
    let want = 1.0 / (1.0 - 0.5 * 14_600.0 / 29_500.0);
    assert!((g.speedup_bound - want).abs() < 1e-9, "{}", g.speedup_bound);
}

#[test]
fn without_times_ranks_by_ios_per_gib() {
    let mut objs = estate();
    // The log keeps its times (as PostgreSQL's WAL with track_wal_io_timing alone).
    for o in objs.iter_mut().filter(|o| o.kind != ObjectKind::Log) {
        o.read_ms = None;
        o.write_ms = None;
    }
    let src = SourceInfo {
        system: "test".into(),
        name: "hand".into(),
        interval_secs: 100.0,
        since_start: false,
    };
    let o = Options {
        budget: Some(13 * G),
        latency: Latency::Assumed { flash_ms: 1.0 },
        io_wait_share: None,
    };
    let r = advise(&objs, src, vec![], "now".into(), &o);
    assert_eq!(r.ranked_by, "I/Os per GiB");
    // L has 5000 I/Os per GiB, but a log is never moved: it ranks under the candidates B
    // (250), C and A (100; C has more I/Os) and temp T (100).
    let names: Vec<&str> = r.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["B", "C", "A", "T", "L", "S", "Z"]);
    let p = r.placement.unwrap();
    assert!(p.gain.is_none());
    // Most I/Os within 13 GiB among A, B (C is too big): both.
    assert_eq!(p.to_move.len(), 2);
}
