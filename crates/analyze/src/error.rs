//! What the analysis refuses: an objective it cannot read, a device run without I/O, results
//! that are not one run across hosts. Each names the flag or host, the value and what to do.

use dbio_model::RUN_SCHEMA;

/// Why an analysis cannot be made from what it was given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnalyzeError {
    /// `--slo VALUE` is not a latency objective.
    #[error("--slo {value}: {why}; write e.g. p99<1ms, avg<200us or read:p99.9<2ms")]
    Slo { value: String, why: String },
    /// A result given as a measured device did no I/O.
    #[error(
        "{name}: that result did no I/O, so it gives no latency; give a run that read or wrote"
    )]
    NoIo { name: String },
    /// A merge of no results.
    #[error("no results to merge")]
    NothingToMerge,
    /// One run given twice (a copy, or relabelled).
    #[error("{later}: the same run as {earlier} (host {host}, measuring from {from}), so its host would count twice; merge each host's result once")]
    GivenTwice {
        later: String,
        earlier: String,
        host: String,
        from: String,
    },
    /// A result of another schema.
    #[error("{host}: schema is {schema:?}, this dbio reads {reads}: merge with the dbio that wrote it (or a newer one)", reads = RUN_SCHEMA)]
    Schema { host: String, schema: String },
    /// A result that is itself a merge.
    #[error("{host}: already a merged result; merge the hosts' own results instead")]
    AlreadyMerged { host: String },
    /// A result without its start time.
    #[error("{host}: the result has no started_unix_ns (written by an older dbio), so its seconds cannot be lined up with the others; run it again")]
    NoStart { host: String },
    /// Hosts that ran different workloads, merged without --allow-different.
    #[error("{difference}; merge only runs of one workload, or say --allow-different to merge them on purpose")]
    DifferentWorkload { difference: String },
    /// Measuring windows that do not overlap.
    #[error("{late}: measured from {start} while {early} had stopped at {end}: the measuring windows do not overlap, so these are not one run across hosts")]
    NoOverlap {
        late: String,
        start: String,
        early: String,
        end: String,
    },
}

/// Why a merge whose hosts' seconds are read as it goes ([`crate::merge::merge_streamed`])
/// failed: what a merge refuses, or a host's seconds that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MergeError<E> {
    /// The results are not one run across hosts.
    #[error(transparent)]
    Refused(#[from] AnalyzeError),
    /// A host's seconds could not be read; the error says whose and why.
    #[error(transparent)]
    Seconds(E),
}
