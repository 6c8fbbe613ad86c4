//! What a run's flags ask to run: the job a launching dbio sent (`--job-json`), one job, or
//! the several streams of a multi-stream profile.

use crate::executor::Plan;
use dbio_model::{JobSpec, StreamSpec};
use dbio_spec::{RawJob, SpecError};

/// What `dbio run` runs: one job, or several streams with notices about their targets.
#[derive(Debug)]
pub enum Workload {
    /// One job.
    Single(Box<JobSpec>),
    /// A profile's streams, and notices for the targets dbio chose itself.
    Streams(Vec<StreamSpec>, Vec<String>),
}

/// Why the flags make no workload; the message names the flag, the value and what to do.
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    /// A `--job-json` that is no job of this dbio.
    #[error("--job-json: not a job of this dbio: {0}")]
    JobJson(#[source] serde_json::Error),
    /// `--sessions` with a profile of several streams.
    #[error("--sessions: profile {0} runs several streams; session mode runs one workload with its own log writer, so use a single-stream profile such as slob or oltp-read")]
    SessionStreams(String),
    /// Words that make no job.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

impl Workload {
    /// What `raw` asks to run; `job_json` is a job sent by a launching dbio that validated
    /// it (the targets' safety rules still apply where it runs), which replaces the flags.
    pub fn of(raw: &RawJob, job_json: Option<&str>) -> Result<Workload, WorkloadError> {
        if let Some(j) = job_json {
            return serde_json::from_str::<JobSpec>(j)
                .map(|s| Workload::Single(Box::new(s)))
                .map_err(WorkloadError::JobJson);
        }
        let (name, p) = raw.profile()?;
        if p.stream.is_empty() {
            return Ok(Workload::Single(Box::new(raw.check()?)));
        }
        if raw.sessions.is_some() {
            return Err(WorkloadError::SessionStreams(name));
        }
        let (streams, notices) = raw.streams(&name, &p)?;
        Ok(Workload::Streams(streams, notices))
    }

    /// The plan an executor runs, started as soon as it is ready.
    pub fn plan(&self) -> Plan<'_> {
        match self {
            Workload::Single(j) => Plan::job(j),
            Workload::Streams(s, _) => Plan::streams(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flags_are_one_job() {
        let w = Workload::of(&RawJob::default(), None).expect("the default job");
        assert!(matches!(w, Workload::Single(_)));
    }

    #[test]
    fn a_sent_job_is_read_back_and_replaces_the_flags() {
        let Ok(Workload::Single(j)) = Workload::of(&RawJob::default(), None) else {
            panic!("the default job");
        };
        let json = serde_json::to_string(&*j).expect("a job serializes");
        let raw = RawJob {
            profile: Some("no-such-profile".into()),
            ..Default::default()
        };
        let Ok(Workload::Single(back)) = Workload::of(&raw, Some(&json)) else {
            panic!("the sent job");
        };
        assert_eq!(serde_json::to_string(&*back).expect("serializes"), json);
        let e = Workload::of(&raw, Some("{")).unwrap_err();
        assert!(matches!(e, WorkloadError::JobJson(_)));
        assert!(e
            .to_string()
            .starts_with("--job-json: not a job of this dbio: "));
    }

    #[test]
    fn several_streams_are_streams_and_refused_in_session_mode() {
        let raw = RawJob {
            profile: Some("oltp-mix".into()),
            ..Default::default()
        };
        match Workload::of(&raw, None) {
            Ok(Workload::Streams(s, _)) => assert!(s.len() > 1),
            other => panic!("streams expected, got {other:?}"),
        }
        let raw = RawJob {
            sessions: Some(4),
            ..raw
        };
        let e = Workload::of(&raw, None).unwrap_err();
        assert!(matches!(&e, WorkloadError::SessionStreams(p) if p == "oltp-mix"));
        assert!(e
            .to_string()
            .starts_with("--sessions: profile oltp-mix runs several streams"));
    }

    #[test]
    fn words_that_make_no_job_are_the_spec_s_refusal() {
        let raw = RawJob {
            profile: Some("no-such-profile".into()),
            ..Default::default()
        };
        assert!(matches!(
            Workload::of(&raw, None),
            Err(WorkloadError::Spec(SpecError::Profile(_)))
        ));
    }
}
