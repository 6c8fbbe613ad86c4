//! The flags of `dbio run` as the raw description `dbio-spec` checks into a job: the one
//! place the command line's clap structs meet the library.

use crate::args::RunArgs;
use dbio_model::JobSpec;
use dbio_spec::{RawJob, SpecError};

/// The run flags as plain data, nothing checked yet.
pub fn raw_job(a: &RunArgs) -> RawJob {
    RawJob {
        profile: a.profile.clone(),
        profile_file: a.profile_file.clone(),
        targets: a.targets.clone(),
        size: a.size.clone(),
        rw: a.rw.clone(),
        mix: a.mix,
        bs: a.bs.clone(),
        align: a.align.clone(),
        qd: a.qd,
        threads: a.threads,
        duration: a.duration.clone(),
        ramp: a.ramp.clone(),
        ops: a.ops,
        bytes: a.bytes.clone(),
        offset: a.offset.clone(),
        range: a.range.clone(),
        skew: a.skew.clone(),
        sync: a.sync.clone(),
        rate: a.rate,
        engine: a.engine.clone(),
        buffered: a.buffered,
        hipri: a.hipri,
        sqpoll: a.sqpoll,
        cpu_idle: a.cpu_idle.clone(),
        data: a.data.clone(),
        destroy_data: a.destroy_data,
        steady: a.steady.clone(),
        steady_window: a.steady_window.clone(),
        steady_max: a.steady_max.clone(),
        burst: a.burst.clone(),
        seed: a.seed,
        sim: a.sim.clone(),
        arrivals: a.arrivals.clone(),
        sessions: a.sessions,
        work_unit: a.work_unit,
        batch_reads: a.batch_reads,
        update_pct: a.update_pct,
        redo_stress: a.redo_stress.clone(),
        think: a.think.clone(),
        cache_hit: a.cache_hit,
        split_region: a.fleet.split_region.clone(),
        on_hosts: !a.fleet.hosts.is_empty() || a.fleet.hosts_file.is_some(),
        verify: a.verify.verify,
        verify_journal: a.verify.verify_journal.clone(),
    }
}

/// The validated job of a single-stream `dbio run`.
pub fn job_spec(a: &RunArgs) -> Result<JobSpec, SpecError> {
    raw_job(a).check()
}

#[cfg(test)]
mod tests {
    use super::raw_job;
    use crate::args::RunArgs;
    use clap::{Args, FromArgMatches};
    use dbio_spec::RawJob;

    /// The library's plain run (a suite's parts start from it) is `dbio run` with no flags.
    #[test]
    fn default_is_no_flags() {
        let cmd = RunArgs::augment_args(clap::Command::new("run").no_binary_name(true));
        let m = cmd.get_matches_from(std::iter::empty::<String>());
        let a = RunArgs::from_arg_matches(&m).expect("the flags' defaults parse");
        assert_eq!(raw_job(&a), RawJob::default());
    }
}
