//! The job a sweep varies: the run flags' own, made a job of the kind its steps are.

use crate::raw::RawJob;
use crate::vary::{Vary, Varying};
use crate::SpecError;
use dbio_model::JobSpec;

/// The job every step of `vary` varies: `raw`'s. Where the varied setting decides what kind
/// of job it is (sessions: session mode; rate: an open loop) and the flags leave it out, the
/// first step's value stands in, so the base is a job of that kind.
pub fn base_job(raw: &RawJob, vary: &Varying) -> Result<JobSpec, SpecError> {
    let mut raw = raw.clone();
    match vary.steps.first() {
        Some(Vary::Sessions(n)) if raw.sessions.is_none() => raw.sessions = Some(*n),
        Some(Vary::Rate(r)) if raw.rate.is_none() => raw.rate = Some(*r),
        // rate=2x multiplies a rate the flags or the profile give (refused by the step if none).
        _ => {}
    }
    raw.check()
}
