//! RawJob::check: the raw description of a run made into one job in one pass, without the
//! command line.

use dbio_model::{EngineKind, Rw, StopAfter, SyncMode};
use dbio_spec::{RawJob, SpecError};

#[test]
fn a_plain_simulated_run_is_the_default_profile_on_the_modelled_device() {
    let j = RawJob {
        engine: "sim".into(),
        ..RawJob::default()
    }
    .check()
    .unwrap();
    assert_eq!(j.engine, EngineKind::Sim);
    assert_eq!(j.profile, "oltp");
    assert_eq!(j.stop, StopAfter::Ops(200_000));
    assert!(j.targets.is_empty() && j.sim.is_some());
}

#[test]
fn session_mode_decides_the_loop_before_the_job_is_made() {
    let j = RawJob {
        sessions: Some(4),
        update_pct: Some(20),
        bs: Some("8k".into()),
        targets: vec!["data=/nonexistent/d".into(), "log=/nonexistent/l".into()],
        ..RawJob::default()
    }
    .check()
    .unwrap();
    let s = j.session.as_ref().unwrap();
    assert_eq!((j.threads, j.qd, j.rw), (4, 1, Rw::RandRw));
    assert_eq!((j.sync, j.rate), (SyncMode::None, None));
    assert_eq!(j.targets, vec!["/nonexistent/d".to_string()]);
    assert_eq!(s.log_target, "/nonexistent/l");
}

#[test]
fn refusals_keep_their_words() {
    let e = RawJob {
        sessions: Some(4),
        verify: true,
        targets: vec!["/nonexistent/d".into()],
        ..RawJob::default()
    }
    .check()
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "--verify: session mode (--sessions) is not verified; use a queue-depth run (leave out --sessions)"
    );
    let e = RawJob {
        qd: Some(20_000),
        ..RawJob::default()
    }
    .check()
    .unwrap_err();
    assert_eq!(
        e,
        SpecError::Invalid(
            "--qd 20000: use 1 to 16384 outstanding I/Os per thread (for more, add --threads)"
                .into()
        )
    );
    let e = RawJob {
        profile: Some("oltpp".into()),
        ..RawJob::default()
    }
    .check()
    .unwrap_err();
    assert!(matches!(e, SpecError::Profile(_)), "{e:?}");
}
