//! A sweep's steps as values: each setting changed on a job by hand, and every value that
//! cannot make a valid job refused with a message naming the setting and what to do.

mod common;

use dbio_analyze::slo::Slo;
use dbio_model::session::SessionSpec;
use dbio_model::*;
use dbio_orchestrate::sweep::SweepPlan;
use dbio_spec::vary::{Vary, Varying};

/// A valid job written out by hand: 8 KiB random reads and writes (70 % reads), qd 4.
fn job() -> JobSpec {
    common::job("oltp", "./t.dat", 4)
}

fn session_job() -> JobSpec {
    let mut j = job();
    j.rw = Rw::RandRead;
    j.read_pct = 100;
    j.qd = 1;
    j.threads = 4;
    j.session = Some(SessionSpec {
        sessions: 4,
        page: 8192,
        work_unit: 1,
        batch_reads: false,
        update_pct: 0,
        redo_stress: 512,
        cache_hit_pct: 0,
        think: None,
        log_target: "./t.dat.redo".into(),
        write_batch: 64,
    });
    j
}

/// What a change should do to the job, written by hand.
type Expect = fn(&mut JobSpec);

#[test]
fn each_setting_changes_that_field_alone() {
    let base = job();
    let cases: [(Vary, Expect); 5] = [
        (Vary::Qd(64), |j| j.qd = 64),
        (Vary::Threads(8), |j| j.threads = 8),
        (Vary::Mix(30), |j| j.read_pct = 30),
        (Vary::Rate(5000), |j| j.rate = Some(5000)),
        (Vary::Bs(65536), |j| {
            j.bs[0].size = 65536;
            j.align = 65536;
        }),
    ];
    for (v, expect) in cases {
        let mut want = base.clone();
        expect(&mut want);
        assert_eq!(v.apply(&base).unwrap(), want, "{v:?}");
    }
    assert_eq!(base, job(), "the base job is left as it was");
}

#[test]
fn a_block_size_keeps_an_alignment_of_its_own() {
    let mut base = job();
    base.align = 4096;
    let j = Vary::Bs(1 << 20).apply(&base).unwrap();
    assert_eq!((j.bs[0].size, j.align), (1 << 20, 4096));
    // A distribution becomes the one size.
    base.bs = vec![
        BsWeight {
            size: 8192,
            weight: 70,
        },
        BsWeight {
            size: 65536,
            weight: 30,
        },
    ];
    base.align = 8192;
    let j = Vary::Bs(16384).apply(&base).unwrap();
    assert_eq!(
        j.bs,
        [BsWeight {
            size: 16384,
            weight: 1
        }]
    );
    assert_eq!(
        j.align, 16384,
        "an alignment that was the smallest size follows"
    );
}

#[test]
fn sessions_change_the_sessions_and_their_threads() {
    let j = Vary::Sessions(16).apply(&session_job()).unwrap();
    assert_eq!((j.session.as_ref().unwrap().sessions, j.threads), (16, 16));
    let j = Vary::Bs(16384).apply(&session_job()).unwrap();
    assert_eq!(j.session.unwrap().page, 16384, "the page is the block size");
}

/// Each bad value: the message names the setting (as its flag) and says what to do.
#[test]
fn values_that_make_no_valid_job_are_refused_with_the_reason() {
    let mut reducible = job();
    reducible.data = DataKind::Reducible(Reducibility {
        dedupe: 2.0,
        compress: 2.0,
        unit: 8192,
    });
    let mut verifying = job();
    verifying.verify = Some(dbio_model::verify::VerifySpec { journal: None });
    let mut randread = job();
    (randread.rw, randread.read_pct) = (Rw::RandRead, 100);
    let cases: Vec<(JobSpec, Vary, &str)> = vec![
        (job(), Vary::Qd(0), "--qd 0: use 1 to 16384"),
        (job(), Vary::Qd(20_000), "--qd 20000: use 1 to 16384"),
        (job(), Vary::Threads(0), "--threads 0: use 1 to 4096"),
        (job(), Vary::Threads(5000), "--threads 5000: use 1 to 4096"),
        (job(), Vary::Bs(0), "--bs 0: out of range"),
        (
            job(),
            Vary::Bs(512 << 20),
            "out of range; use 512 bytes to 256 MiB",
        ),
        (
            job(),
            Vary::Bs(128 << 20),
            "--size 64 MiB: smaller than the largest block size",
        ),
        (
            job(),
            Vary::Mix(101),
            "--mix 101: the read share is a percentage",
        ),
        (
            randread,
            Vary::Mix(50),
            "this job is --rw randread; add --rw randrw",
        ),
        (job(), Vary::Rate(0), "--rate 0: give the IOPS"),
        (
            job(),
            Vary::Sessions(4),
            "not in session mode; add --sessions N",
        ),
        (reducible, Vary::Bs(4096), "whole dedupe units of 8 KiB"),
        (verifying, Vary::Bs(512), "verification checks 4 KiB blocks"),
        (
            session_job(),
            Vary::Qd(8),
            "--vary qd: does not apply to session mode",
        ),
        (session_job(), Vary::Threads(8), "vary sessions instead"),
        (session_job(), Vary::Rate(100), "sessions are a closed loop"),
        (
            session_job(),
            Vary::Mix(50),
            "--update-pct decides the writes",
        ),
        (
            session_job(),
            Vary::Sessions(0),
            "--sessions 0: use 1 to 4096",
        ),
        (
            session_job(),
            Vary::Sessions(5000),
            "--sessions 5000: use 1 to 4096",
        ),
    ];
    for (base, v, why) in cases {
        let e = v.apply(&base).unwrap_err().to_string();
        assert!(e.contains(why), "{v:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{v:?}: one line: {e}");
    }
}

#[test]
fn typed_values_come_from_a_key_and_a_number() {
    assert_eq!(Vary::of("qd", 8), Ok(Vary::Qd(8)));
    assert_eq!(Vary::of("bs", 65536), Ok(Vary::Bs(65536)));
    assert!(Vary::of("qd", 1 << 40)
        .unwrap_err()
        .to_string()
        .contains("too large"));
    assert!(Vary::of("depth", 1)
        .unwrap_err()
        .to_string()
        .contains("cannot vary 'depth'"));
    assert_eq!(
        Varying::new(vec![Vary::Bs(8192), Vary::Bs(1 << 20), Vary::Bs(1536)]).values,
        ["8k", "1m", "1536"]
    );
}

#[test]
fn a_plan_names_the_step_that_is_no_valid_job() {
    let varying = Varying::new(vec![Vary::Qd(1), Vary::Qd(0)]);
    let e = SweepPlan::new(&job(), varying, None, false)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("step qd=0: --qd 0: "), "{e}");
    let ok = SweepPlan::new(
        &job(),
        Varying::new(vec![Vary::Qd(1), Vary::Qd(8)]),
        None,
        false,
    );
    let qds: Vec<u32> = ok.unwrap().specs.iter().map(|j| j.qd).collect();
    assert_eq!(qds, [1, 8]);
}

#[test]
fn a_plan_refuses_an_objective_or_search_it_cannot_meet() {
    let mut reads = job();
    (reads.rw, reads.read_pct) = (Rw::RandRead, 100);
    let w = (
        "write:p99<1ms".to_string(),
        Slo::parse("write:p99<1ms").unwrap(),
    );
    let e = SweepPlan::new(&reads, Varying::new(vec![Vary::Qd(1)]), Some(w), false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("--slo write:p99<1ms: no step writes"), "{e}");
    let p = ("p99<1ms".to_string(), Slo::parse("p99<1ms").unwrap());
    let bs = Varying::new(vec![Vary::Bs(8192)]);
    let e = SweepPlan::new(&job(), bs, Some(p), true)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--target-latency searches qd, threads or rate"),
        "{e}"
    );
}
